/**
 * Packs every published package once for all the test files (they read the list with
 * `inject('packed')`), into a temporary directory removed at the end; meanwhile makes sure Debian's
 * chromium is there (installed with apt when missing, one apt at a time with other test processes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureAptPackages } from '@sked/testkit/apt';
import { CHROMIUM_APT } from '@sked/testkit/chromium';
import type { TestProject } from 'vitest/node';
import { packAll, type PackedPackage } from './pack.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    packed: PackedPackage[];
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'sked-packed-'));
  const [packed] = await Promise.all([packAll(dir), ensureAptPackages(CHROMIUM_APT)]);
  project.provide('packed', packed);
  return () => rmSync(dir, { recursive: true, force: true });
}
