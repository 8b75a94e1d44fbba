import { defineConfig } from 'tsup';

// Dual ESM + CJS with types, so plain `node` can `import` or `require` the package.
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: false,
});
