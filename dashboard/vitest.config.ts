import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    // The e2e file starts `npm start`, the demo services and Chromium: one file at a time keeps CI calm.
    fileParallelism: false,
    // A browser's answer (a POST, then the page refreshed) can take seconds on a loaded machine;
    // the 1 s default made a right answer fail.
    expect: { poll: { timeout: 15_000 } },
  },
});
