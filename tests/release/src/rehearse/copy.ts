/**
 * A scratch copy of the workspace to cut a release in: the root manifests and `.changeset/`, every
 * workspace package's `package.json`, and the whole of each published package (its build
 * included; no `node_modules`). Nothing in the real checkout changes.
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { publishedPackages, repoRoot, workspacePackages } from '../workspace.ts';

/** Copies what a release needs from `root` into `dest`. */
export function copyWorkspace(dest: string, root = repoRoot): void {
  mkdirSync(dest, { recursive: true });
  for (const file of ['package.json', 'pnpm-workspace.yaml', 'pnpm-lock.yaml']) {
    cpSync(join(root, file), join(dest, file));
  }
  cpSync(join(root, '.changeset'), join(dest, '.changeset'), { recursive: true });
  for (const pkg of workspacePackages(root)) {
    mkdirSync(join(dest, pkg.path), { recursive: true });
    cpSync(join(pkg.dir, 'package.json'), join(dest, pkg.path, 'package.json'));
  }
  for (const pkg of publishedPackages(root)) {
    cpSync(pkg.dir, join(dest, pkg.path), {
      recursive: true,
      filter: (source) => !/\/(node_modules|\.turbo)(\/|$)/.test(source),
    });
  }
}

/**
 * Drops `publishConfig.provenance` from the copied published packages: provenance is signed by a
 * CI provider's identity, which a rehearsal on a workstation does not have. Everything else of
 * `publishConfig` stays. Returns the packages it changed.
 */
export function withoutProvenance(dest: string, root = repoRoot): string[] {
  const changed: string[] = [];
  for (const pkg of publishedPackages(root)) {
    const file = join(dest, pkg.path, 'package.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { publishConfig?: Record<string, unknown> };
    if (manifest.publishConfig?.['provenance'] === undefined) continue;
    delete manifest.publishConfig['provenance'];
    writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
    changed.push(pkg.name);
  }
  return changed;
}

/**
 * Links each copied package's workspace dependencies into its `node_modules` (what `pnpm install`
 * would do for them), so that `pnpm publish` can read their versions to replace `workspace:`
 * ranges. No registry is involved.
 */
export function linkWorkspaceDependencies(dest: string, root = repoRoot): void {
  const byName = new Map(workspacePackages(root).map((pkg) => [pkg.name, pkg.path]));
  for (const pkg of workspacePackages(dest)) {
    const manifest = pkg.manifest as Record<string, unknown>;
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
      for (const [name, range] of Object.entries((manifest[field] ?? {}) as Record<string, string>)) {
        const target = byName.get(name);
        if (!range.startsWith('workspace:') || target === undefined) continue;
        const link = join(pkg.dir, 'node_modules', name);
        mkdirSync(dirname(link), { recursive: true });
        try {
          symlinkSync(join(dest, target), link, 'dir');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
      }
    }
  }
}
