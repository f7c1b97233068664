import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // The machine is shared: two workers at most.
    maxWorkers: 2,
    maxConcurrency: 3,
  },
});
