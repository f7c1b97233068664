import { defineConfig } from 'vitest/config';

/**
 * The vitest configuration of a library package whose coverage has a floor (`filter`, `query`,
 * `http`): `pnpm test` (and so `npm test`) runs with --coverage, measured over the package's
 * `src/`, and fails under 95 % of lines; a run of one file does not measure.
 */
export const libraryConfig = defineConfig({
  test: {
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.test.ts'],
      reporter: ['text-summary', 'json-summary'],
      thresholds: { lines: 95 },
    },
  },
});
