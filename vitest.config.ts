import { defineConfig } from 'vitest/config';

// Unit and component tests. Component tests opt into jsdom with a `@vitest-environment jsdom` docblock.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 10_000,
    restoreMocks: true,
  },
});
