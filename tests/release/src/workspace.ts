/**
 * The workspace as the release checks see it: its root, and every package that is published (every
 * workspace package not marked `private`), found from `pnpm-workspace.yaml` so that a new package is
 * covered the day it lands.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (three levels above this file: tests/release/src). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** A `package.json` as far as the checks read it. */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly description?: string;
  readonly bin?: string | Record<string, string>;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly [key: string]: unknown;
}

/** One workspace package. */
export interface WorkspacePackage {
  readonly name: string;
  /** Absolute directory. */
  readonly dir: string;
  /** Directory relative to the root, e.g. `packages/filter`. */
  readonly path: string;
  readonly manifest: Manifest;
}

/** The `packages:` globs of `pnpm-workspace.yaml` (only the `dir/*` and `dir` forms are used here). */
export function workspaceGlobs(text: string): string[] {
  const globs: string[] = [];
  let inPackages = false;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) inPackages = line.startsWith('packages:');
    else if (inPackages) {
      const match = /^\s+-\s+['"]?([^'"#]+?)['"]?\s*(#.*)?$/.exec(line);
      if (match?.[1] !== undefined) globs.push(match[1]);
    }
  }
  return globs;
}

/** Every workspace package, in a stable order. */
export function workspacePackages(root = repoRoot): WorkspacePackage[] {
  const globs = workspaceGlobs(readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8'));
  const dirs: string[] = [];
  for (const glob of globs) {
    if (glob.endsWith('/*')) {
      const parent = glob.slice(0, -2);
      if (!existsSync(join(root, parent))) continue;
      for (const name of readdirSync(join(root, parent)).sort()) dirs.push(`${parent}/${name}`);
    } else if (!glob.includes('*')) {
      dirs.push(glob);
    } else {
      throw new Error(`pnpm-workspace.yaml: the release checks read only "dir/*" globs, not "${glob}".`);
    }
  }
  const out: WorkspacePackage[] = [];
  for (const path of dirs) {
    const file = join(root, path, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    out.push({ name: manifest.name, dir: join(root, path), path, manifest });
  }
  return out;
}

/** Every published package: the workspace packages that are not `private`. */
export function publishedPackages(root = repoRoot): WorkspacePackage[] {
  return workspacePackages(root).filter((pkg) => pkg.manifest.private !== true);
}

/** The published packages whose name ends in `-client`: the API clients. */
export function clientPackages(root = repoRoot): WorkspacePackage[] {
  return publishedPackages(root).filter((pkg) => pkg.name.endsWith('-client'));
}
