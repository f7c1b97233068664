import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // `pnpm test` (and so `npm test`) runs with --coverage; a run of one file does not.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.test.ts'],
      reporter: ['text-summary', 'json-summary'],
      thresholds: { lines: 95 },
    },
  },
});
