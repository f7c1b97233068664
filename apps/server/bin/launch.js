// The second half of the launcher, loaded once the Node version is known to be new enough: a
// readable message when the build is missing (a clone that was not built yet), then the entry.
import { existsSync } from 'node:fs';
import module from 'node:module';

/**
 * Imports `entry` (a URL) with the module compile cache on.
 * @param {URL} entry
 * @param {string} bin
 * @param {string} pkg
 */
export async function start(entry, bin, pkg) {
  if (!existsSync(entry)) {
    process.stderr.write(
      `${bin}: not built yet: run \`pnpm --filter ${pkg}... build\` (\`npm start\` at the repository root builds and starts the server)\n`,
    );
    process.exit(1);
  }
  // compiled code is cached on disk (the user's cache directory): later starts skip compiling
  module.enableCompileCache?.();
  await import(entry.href);
}
