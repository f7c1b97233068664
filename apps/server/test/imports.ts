import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** One relative import (or re-export) of a source file. */
export interface Import {
  /** The importing file, relative to src/. */
  readonly from: string;
  /** The imported file, relative to src/ (relative imports only). */
  readonly to: string;
  /** `import type` / `export type`: erased at run time. */
  readonly typeOnly: boolean;
}

/** The server's src/ directory. */
export const SRC = resolve(dirname(new URL(import.meta.url).pathname), '../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !path.includes('/test/') ? [path] : [];
  });
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const out: Import[] = [];
  for (const m of text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+'(\.[^']+)';/gms)) {
    const target = resolve(dirname(file), (m[3] ?? '').replace(/\.js$/, '.ts'));
    out.push({ from: relative(SRC, file), to: relative(SRC, target), typeOnly: m[2] !== undefined });
  }
  return out;
}

/**
 * Every relative import of the server's sources (tests and test helpers left out), read from the
 * source text.
 * @returns The imports.
 */
export function serverImports(): Import[] {
  return sources(SRC).flatMap(importsOf);
}

/**
 * The imports as `from -> to` lines, for a failure message that names them.
 * @param list - Imports.
 * @returns One line each.
 */
export const show = (list: readonly Import[]): string[] => list.map((i) => `${i.from} -> ${i.to}`);
