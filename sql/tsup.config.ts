import { defineConfig } from 'tsup';

// ESM only, like the collector that loads it. chDB and the ClickHouse client stay external so
// their native parts load as-is; `format` is its own entry so browser code can import it alone.
export default defineConfig({
  entry: { index: 'src/index.ts', format: 'src/format/index.ts' },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: false,
  external: ['chdb', '@clickhouse/client'],
});
