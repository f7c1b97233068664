/**
 * Packs every published package once for all the test files (they read the list with
 * `inject('packed')`), into a temporary directory removed at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packAll, type PackedPackage } from './pack.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    packed: PackedPackage[];
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'sked-packed-'));
  project.provide('packed', await packAll(dir));
  return () => rmSync(dir, { recursive: true, force: true });
}
