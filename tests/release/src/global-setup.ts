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
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  // both run to their end before a failure of either is thrown, so the folder goes after packing
  const [packed, chromium] = await Promise.allSettled([packAll(dir), ensureAptPackages(CHROMIUM_APT)]);
  if (packed.status === 'rejected' || chromium.status === 'rejected') {
    remove();
    throw packed.status === 'rejected' ? packed.reason : (chromium as PromiseRejectedResult).reason;
  }
  project.provide('packed', packed.value);
  return remove;
}
