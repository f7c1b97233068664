import { defineConfig } from 'vitest/config';

// The release checks install packages, start servers and a browser: one file at a time (the
// machine is shared and loaded), with time limits that leave room for a slow disk and registry.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 300_000,
    teardownTimeout: 30_000,
  },
});
