import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The CLI and package tests start real processes (npm, node); the machines are shared and noisy.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
