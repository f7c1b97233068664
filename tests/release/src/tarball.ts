/** Reads files out of a packed `.tgz` (with the system's `tar`). */
import { execFileSync } from 'node:child_process';
import type { Manifest } from './workspace.ts';

/** The names of the files in a tarball (without the leading `package/`). */
export function tarballFiles(tarball: string): string[] {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^package\//, ''));
}

/** The `package.json` inside a tarball. */
export function tarballManifest(tarball: string): Manifest {
  const text = execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' });
  return JSON.parse(text) as Manifest;
}

/** Every dependency range in a manifest that still uses a workspace-only protocol. */
export function localRanges(manifest: Manifest): string[] {
  const out: string[] = [];
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'] as const) {
    const deps = (manifest[field] ?? {}) as Record<string, string>;
    for (const [name, range] of Object.entries(deps)) {
      if (/^(workspace|link|file|portal):/.test(range)) out.push(`${field}.${name}: ${range}`);
    }
  }
  return out;
}
