import { defineConfig } from 'vitest/config';

// Each test file starts its own in-process sample server on a free port. Files run one at a time
// (the machine is shared); the timeouts leave room for the mock driver's start-up delays.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 15_000,
    hookTimeout: 20_000,
    teardownTimeout: 10_000,
  },
});
