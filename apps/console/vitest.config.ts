import { defineConfig } from 'vitest/config';

// The browser tests share one sked-server pair and one headless Chromium: one file at a time, with
// limits that leave room for a loaded machine (each wait inside has its own deadline).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
