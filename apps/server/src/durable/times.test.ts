import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';

import { manualClock, type ManualClock } from '../scheduler/core/clock.js';
import { createCluster } from '../scheduler/core/index.js';
import { batchJob, seeded, SHORT_GC as gc } from '../scheduler/core/test/helpers.js';
import { openDurable } from './index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sked-times-'));
  dirs.push(dir);
  return dir;
}

function run(clock: ManualClock, ms: number): void {
  for (let t = 0; t < ms; t += 10) clock.advance(10);
}

/** A batch job that ran and died, in a data dir closed at once; the clock then moves on by `later`. */
async function deadJobThen(later: number): Promise<{ dir: string; clock: ManualClock }> {
  const dir = freshDir();
  const clock = manualClock();
  const durable = openDurable(dir);
  const cluster = createCluster({
    clock,
    random: seeded(),
    gc,
    nodes: 1,
    dataRoot: durable.taskRoot,
    persistence: { backend: durable.scheduler },
  });
  cluster.registerJob({ job: batchJob('b1', { run_for: '100ms' }) as never });
  run(clock, 1500);
  expect([...cluster.store.jobs.items.values()].map((j) => j.Status)).toEqual(['dead']);
  await cluster.close();
  durable.close();
  clock.advance(later);
  return { dir, clock };
}

async function collectAfterRestart(dir: string, clock: ManualClock): Promise<number> {
  const durable = openDurable(dir);
  const cluster = createCluster({
    clock,
    random: seeded(),
    gc,
    dataRoot: durable.taskRoot,
    persistence: {
      backend: durable.scheduler,
      ...(durable.scheduler.restored && { restored: durable.scheduler.restored }),
    },
  });
  const { jobs } = cluster.collectGarbage();
  await cluster.close();
  durable.close();
  return jobs;
}

describe('the garbage collector time table on a data dir', () => {
  it('is kept across a restart: a job dead for longer than the threshold is collected at once', async () => {
    const { dir, clock } = await deadJobThen(3000);
    expect(await collectAfterRestart(dir, clock)).toBe(1);
  });

  it('without it (the table emptied) the same job would look as old as the restart and stay', async () => {
    const { dir, clock } = await deadJobThen(3000);
    const db = new DatabaseSync(join(dir, 'state.db'));
    db.exec('DELETE FROM times');
    db.close();
    expect(await collectAfterRestart(dir, clock)).toBe(0);
  });

  it('judges a restored record by its real age, not older: a job dead for less than the threshold stays', async () => {
    const { dir, clock } = await deadJobThen(200);
    expect(await collectAfterRestart(dir, clock)).toBe(0);
  });

  it('drops pairs past the last durable index at open (commits lost to kill -9 are not witnessed)', () => {
    const dir = freshDir();
    openDurable(dir).close();
    const db = new DatabaseSync(join(dir, 'state.db'));
    db.exec(
      "INSERT INTO meta VALUES ('index', '10'); INSERT INTO times VALUES (5, 1000), (10, 2000), (11, 3000), (40, 4000);",
    );
    db.close();
    const durable = openDurable(dir);
    expect(durable.scheduler.restored?.times).toEqual([
      [5, 1000],
      [10, 2000],
    ]);
    durable.scheduler.times?.prune(2500);
    durable.close();
    const check = new DatabaseSync(join(dir, 'state.db'));
    expect(
      check
        .prepare('SELECT idx, ms FROM times')
        .all()
        .map((r) => [r.idx, r.ms]),
    ).toEqual([[10, 2000]]);
    check.close();
  });
});
