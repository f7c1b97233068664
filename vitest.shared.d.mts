import type { UserConfig } from 'vitest/config';

/** The vitest configuration of a library package with a coverage floor (vitest.shared.mjs). */
export declare const libraryConfig: UserConfig;
