import { createRequire } from 'node:module';

/** The version printed by `sked --version`: the package's (read alone, so `--version` loads nothing else). */
export const VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string })
  .version;
