import { defineConfig } from 'vitest/config';

// End-to-end tests in Debian's Chromium against the built demo (scripts/test.mjs builds first).
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: one browser at a time keeps timings stable.
    fileParallelism: false,
  },
});
