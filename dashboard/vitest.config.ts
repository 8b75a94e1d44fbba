import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    // The e2e suite shares one `npm start` child and one browser across files.
    fileParallelism: false,
  },
});
