// The second half of the launcher, loaded once the Node version is known to be new enough: a
// readable message when the build is missing (a clone that was not built yet), then the entry.
import { existsSync, readFileSync } from 'node:fs';
import module from 'node:module';

/**
 * Imports `entry` (a URL) with the module compile cache on; `sked --version` (alone) is answered
 * from package.json without loading the build.
 * @param {URL} entry
 * @param {string} bin
 * @param {string} pkg
 */
export async function start(entry, bin, pkg) {
  const flag = process.argv[2];
  if (process.argv.length === 3 && (flag === '--version' || flag === '-V')) {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    process.stdout.write(`${manifest.version}\n`);
    return;
  }
  if (!existsSync(entry)) {
    process.stderr.write(`${bin}: not built yet: run \`pnpm --filter ${pkg}... build\`\n`);
    process.exit(1);
  }
  // compiled code is cached on disk (the user's cache directory): later starts skip compiling
  module.enableCompileCache?.();
  await import(entry.href);
}
