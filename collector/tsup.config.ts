import { defineConfig } from 'tsup';

// ESM only: the collector runs as a server process (and inside the Next.js custom server), never
// through `require`. chDB and the ClickHouse client stay external so their native parts load as-is.
export default defineConfig({
  entry: { index: 'src/index.ts', budget: 'src/budget/index.ts', secret: 'src/ingest/check-bearer.ts' },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: false,
  external: ['chdb', '@clickhouse/client'],
});
