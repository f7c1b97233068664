/**
 * The install size of a package with its dependencies, as npm laid it out in a project: the
 * package's directory plus that of every package it needs (dependencies and the optional ones npm
 * installed), each found the way Node resolves it (nested `node_modules` first, then up), counted
 * once, in bytes on disk of file contents.
 */
import { existsSync, lstatSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Bytes of the files under `dir`, leaving out its own `node_modules` (counted as packages). */
export function directoryBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += directoryBytes(path);
    else if (entry.isFile()) total += lstatSync(path).size;
  }
  return total;
}

/** Where `name` resolves from the package in `from` (a directory inside `root/node_modules`). */
function resolvePackage(root: string, from: string, name: string): string | undefined {
  for (let dir = from; dir.startsWith(root); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root) break;
  }
  return undefined;
}

/** A package's install size with its dependencies, and how many packages that is. */
export function installSize(root: string, name: string): { bytes: number; packages: number } {
  const start = join(root, 'node_modules', name);
  const seen = new Set<string>();
  const queue = [start];
  let bytes = 0;
  while (queue.length > 0) {
    const dir = queue.pop();
    if (dir === undefined || seen.has(dir)) continue;
    seen.add(dir);
    bytes += directoryBytes(dir);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    const needs = new Map(Object.entries({ ...manifest.dependencies }));
    for (const dep of Object.keys(manifest.optionalDependencies ?? {})) needs.set(dep, 'optional');
    for (const [dep, kind] of needs) {
      const found = resolvePackage(root, dir, dep);
      if (found !== undefined) queue.push(found);
      else if (kind !== 'optional') throw new Error(`${name}: ${dep} (needed by ${dir}) is not installed`);
    }
  }
  return { bytes, packages: seen.size };
}

/**
 * The install size a README states and its budget: a line "Install size ... **N MB** ... budget
 * **B MB**" (MB of 1,000,000 bytes).
 */
export function readInstallBudget(readme: string): { stated: number; budget: number } | undefined {
  const match =
    /Install size[\s\S]{0,300}?\*\*([\d.]+) MB\*\*[\s\S]{0,200}?budget[\s\S]{0,100}?\*\*([\d.]+) MB\*\*/.exec(
      readme,
    );
  if (match === null) return undefined;
  return { stated: Number(match[1]), budget: Number(match[2]) };
}
