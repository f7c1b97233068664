import { describe, expect, it } from 'vitest';
import { serverImports, show } from '../../../test/imports.js';

/**
 * The import layering of the core (see ./README.md, Layout), checked on the source: a new import
 * that breaks it fails here with the file and the import named. The layering of the server's
 * parts (http/, the services, the root) is checked in src/layering.test.ts.
 */
const all = serverImports();
const core = (path: string): string | undefined =>
  path.startsWith('scheduler/core/') ? path.slice('scheduler/core/'.length) : undefined;
const part = (path: string): string => path.split('/')[0] ?? '';

/** Parts that write or run (may only be wired together by cluster.ts). */
const ACTIVE = ['evals', 'jobs', 'allocs', 'volumes', 'nodes', 'deployments', 'client'];
/** Pure leaves inside active parts (record factories), importable from anywhere. */
const LEAVES = ['evals/factory.ts', 'nodes/simulated.ts'];
/** Modules a write is made of; the scheduler and the client never import them, even for types. */
const WRITERS = [
  'jobs',
  'allocs',
  'volumes',
  'nodes/writes.ts',
  'deployments',
  'evals/eval-queue.ts',
  'evals/plan-apply.ts',
];
const isWriter = (p: string): boolean => WRITERS.some((w) => p === w || p.startsWith(`${w}/`));

describe('the core import layering', () => {
  it('finds the imports it checks', () => {
    expect(all.filter((i) => core(i.from) === 'cluster.ts').length).toBeGreaterThan(15);
  });

  it('state/ depends on nothing above it (only state/, internal/ and the shared types)', () => {
    const bad = all.filter((i) => {
      const from = core(i.from);
      const to = core(i.to);
      if (from === undefined || part(from) !== 'state' || to === undefined) return false;
      return !['state', 'internal', 'types.ts'].includes(part(to));
    });
    expect(show(bad)).toEqual([]);
  });

  it('the scheduler and the client never import a writer', () => {
    const bad = all.filter((i) => {
      const from = core(i.from);
      const to = core(i.to);
      if (from === undefined || to === undefined) return false;
      return ['scheduler', 'client'].includes(part(from)) && isWriter(to);
    });
    expect(show(bad)).toEqual([]);
  });

  it('the scheduler reads state through the read-only view only (no store writes, no events)', () => {
    const bad = all.filter((i) => {
      const from = core(i.from);
      const to = core(i.to);
      return (
        from !== undefined &&
        part(from) === 'scheduler' &&
        to !== undefined &&
        part(to) === 'state' &&
        !i.typeOnly
      );
    });
    expect(show(bad)).toEqual([]);
  });

  it('only cluster.ts connects the active parts: no run-time import of another active part', () => {
    const bad = all.filter((i) => {
      const from = core(i.from);
      const to = core(i.to);
      if (from === undefined || to === undefined || from === 'cluster.ts' || i.typeOnly) return false;
      return ACTIVE.includes(part(to)) && part(to) !== part(from) && !LEAVES.includes(to);
    });
    expect(show(bad)).toEqual([]);
  });

  it('code outside the core imports core/index.ts only', () => {
    const bad = all.filter(
      (i) => core(i.from) === undefined && core(i.to) !== undefined && core(i.to) !== 'index.ts',
    );
    expect(show(bad)).toEqual([]);
  });
});
