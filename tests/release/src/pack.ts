/**
 * Packs every published package the way `pnpm publish` would (workspace: ranges replaced by real
 * versions) into one directory.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './run.ts';
import { publishedPackages, repoRoot, type WorkspacePackage } from './workspace.ts';

/** One packed package. */
export interface PackedPackage {
  readonly name: string;
  readonly version: string;
  /** Directory of the package in the workspace, relative to the root. */
  readonly path: string;
  /** Absolute path of the `.tgz`. */
  readonly tarball: string;
}

/** Whether a package's build output is there (its `exports`/`bin` targets point into `dist`). */
function needsBuild(pkg: WorkspacePackage): boolean {
  try {
    return readdirSync(join(pkg.dir, 'dist')).length === 0;
  } catch {
    return true;
  }
}

/**
 * Packs every published package into `dest`. A package whose `dist/` is missing is built first
 * (with its dependencies), so the checks also run on a fresh clone outside `npm test`.
 */
export async function packAll(dest: string, packages = publishedPackages()): Promise<PackedPackage[]> {
  mkdirSync(dest, { recursive: true });
  const unbuilt = packages.filter(needsBuild);
  if (unbuilt.length > 0) {
    const filters = unbuilt.flatMap((pkg) => ['--filter', `${pkg.name}...`]);
    await run('turbo', ['run', 'build', '--concurrency=1', '--output-logs=errors-only', ...filters], {
      cwd: repoRoot,
      timeoutMs: 300_000,
    });
  }
  const packed: PackedPackage[] = [];
  for (const pkg of packages) {
    const before = new Set(readdirSync(dest));
    await run('pnpm', ['pack', '--pack-destination', dest], { cwd: pkg.dir, timeoutMs: 120_000 });
    const added = readdirSync(dest).filter((file) => file.endsWith('.tgz') && !before.has(file));
    if (added.length !== 1 || added[0] === undefined) {
      throw new Error(
        `pnpm pack of ${pkg.name} should write one tarball, wrote: ${added.join(', ') || 'none'}`,
      );
    }
    packed.push({
      name: pkg.name,
      version: pkg.manifest.version,
      path: pkg.path,
      tarball: join(dest, added[0]),
    });
  }
  return packed;
}
