import { defineConfig } from 'vitest/config';

// chDB opens one embedded data directory per process, so each test file runs in its own fork
// and owns exactly one store.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    isolate: true,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
