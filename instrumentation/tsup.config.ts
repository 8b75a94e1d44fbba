import { defineConfig } from 'tsup';

// Dual ESM + CJS with types, so plain `node` can `import` or `require` the package, and the
// preload works with both `node --import` and `node --require`. `shims` gives the CJS build an
// `import.meta.url` for module.register().
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    envelope: 'src/envelope-entry.ts',
    register: 'src/register.ts',
    start: 'src/start.ts',
    sdk: 'src/sdk.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  // No clean: tests, benches and other workspaces load dist while it is rebuilt; a clean would
  // delete it from under them. Entries are overwritten in place.
  clean: false,
  sourcemap: true,
  target: 'node20',
  splitting: false,
  shims: true,
});
