import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Preload fixture tests run child processes against the built dist: build it once per run.
    globalSetup: ['test/preload/global-setup.ts'],
  },
});
