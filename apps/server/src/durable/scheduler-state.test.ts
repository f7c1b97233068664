import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import type { ChangeSet } from '../scheduler/core/state/store.js';
import { openDataDir } from './data-dir.js';
import { openSchedulerState } from './scheduler-state.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const change = (index: number, writes: [string, string, unknown][]): ChangeSet => {
  const tables = new Map<never, Map<string, unknown>>();
  for (const [table, id, value] of writes) {
    let t = tables.get(table as never);
    if (t === undefined) tables.set(table as never, (t = new Map()));
    t.set(id, value);
  }
  return { index, writes: tables, events: [] };
};

describe('the scheduler state backend', () => {
  it("stores each table's index as the index of its last write, when one flush covers several commits", () => {
    const dir = mkdtempSync(join(tmpdir(), 'sked-state-'));
    dirs.push(dir);
    const firstDir = openDataDir(dir, () => undefined);
    const first = openSchedulerState(firstDir);
    // Three commits recorded before the (deferred) flush runs: one group commit.
    first.record(change(10, [['volumes', 'default\u0000v1', { ID: 'v1', Namespace: 'default' }]]));
    first.record(change(11, [['evals', 'e1', { ID: 'e1' }]]));
    first.record(change(12, [['evals', 'e2', { ID: 'e2' }]]));
    first.close();
    firstDir.close();

    const againDir = openDataDir(dir, () => undefined);
    const again = openSchedulerState(againDir);
    expect(again.restored?.index).toBe(12);
    expect(again.restored?.tableIndexes.volumes).toBe(10);
    expect(again.restored?.tableIndexes.evals).toBe(12);
    again.close();
    againDir.close();
  });
});
