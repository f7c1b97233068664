import { fc, test } from '@fast-check/vitest';
import { afterEach, describe, expect, it } from 'vitest';

import { batchJob, serviceJob, SHORT_GC as gc, testCluster, type TestCluster } from '../test/helpers.js';
import { createTimeTable } from './timetable.js';

describe('time table', () => {
  test.prop([
    fc.array(fc.tuple(fc.nat(50), fc.nat(1000)), { maxLength: 60 }),
    fc.integer({ min: -10, max: 3000 }),
  ])('answers the highest index witnessed at or before a time, never a later one', (steps, query) => {
    const table = createTimeTable();
    const seen: [number, number][] = [];
    let index = 1;
    let time = 0;
    for (const [di, dt] of steps) {
      index += di;
      time += dt;
      table.witness(index, time);
      if (seen.length === 0 || (seen.at(-1)?.[0] ?? 0) < index) seen.push([index, time]);
    }
    const expected = seen.filter(([, t]) => t <= query).reduce((m, [i]) => Math.max(m, i), 0);
    expect(table.indexAt(query)).toBe(expected);
    table.prune(query);
    expect(table.indexAt(query)).toBe(expected);
    expect(table.size).toBeLessThanOrEqual(Math.max(1, seen.filter(([, t]) => t > query).length + 1));
  });
});

let t: TestCluster | undefined;
function start(options: Parameters<typeof testCluster>[0]): TestCluster {
  t = testCluster(options);
  return t;
}
afterEach(async () => {
  await t?.cluster.close();
  t = undefined;
});

describe('garbage collection', () => {
  it('collects a dead batch job with all its records once older than the job threshold, not before', () => {
    const tc = start({ gc });
    const { cluster } = tc;
    cluster.registerJob({ job: batchJob('b1', { run_for: '100ms' }) });
    tc.run(500);
    expect(
      cluster.store.jobs.get('default\u0000b1')?.Status ?? [...cluster.store.jobs.items.values()][0]?.Status,
    ).toBe('dead');
    expect(cluster.collectGarbage()).toMatchObject({ jobs: 0 });
    tc.run(1000);
    expect(cluster.collectGarbage()).toMatchObject({ jobs: 0 });
    tc.run(1600);
    const r = cluster.collectGarbage();
    expect(r).toMatchObject({ jobs: 1, evals: 1, allocs: 1 });
    const s = cluster.store;
    expect([
      s.jobs.size,
      s.jobVersions.size,
      s.submissions.size,
      s.summaries.size,
      s.evals.size,
      s.allocs.size,
    ]).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('keeps a running service job and its live allocations; collects its old terminal evaluations and stopped allocations', () => {
    const tc = start({ gc });
    const { cluster } = tc;
    cluster.registerJob({ job: serviceJob('web', {}, { Config: { run_for: '1h' } }) });
    tc.run(500);
    cluster.registerJob({ job: serviceJob('web', { Meta: { v: '2' } }, { Config: { run_for: '1h' } }) });
    tc.run(3000);
    const live = [...cluster.store.allocs.items.values()].filter((a) => a.ClientStatus === 'running');
    expect(live.length).toBe(2);
    const before = cluster.store.allocs.size;
    const r = cluster.collectGarbage();
    expect(r.jobs).toBe(0);
    expect(r.allocs).toBe(before - 2);
    expect(cluster.store.jobs.size).toBe(1);
    for (const a of live) expect(cluster.store.allocs.get(a.ID)).toBeDefined();
    // What is left of the evaluations: those that placed the live allocations, or not finished.
    for (const e of cluster.store.evals.items.values()) {
      expect(live.some((a) => a.EvalID === e.ID) || e.Status === 'pending' || e.Status === 'blocked').toBe(
        true,
      );
    }
  });

  it('collects a stopped service job only when its allocations are finished; force ignores the ages', () => {
    const tc = start({ gc });
    const { cluster } = tc;
    cluster.registerJob({ job: serviceJob('web', {}, { Config: { run_for: '1h' } }) });
    tc.run(500);
    cluster.deregisterJob({ namespace: 'default', id: 'web' });
    expect(cluster.collectGarbage({ force: true }).jobs).toBe(0);
    tc.run(500);
    const r = cluster.collectGarbage({ force: true });
    expect(r.jobs).toBe(1);
    expect([cluster.store.jobs.size, cluster.store.allocs.size, cluster.store.evals.size]).toEqual([0, 0, 0]);
  });

  it('keeps a batch job that still exists with its runs until the batch threshold', () => {
    const tc = start({ gc: { ...gc, jobThresholdMs: 600_000 } });
    const { cluster } = tc;
    cluster.registerJob({ job: batchJob('b1', { run_for: '100ms' }) });
    tc.run(2500);
    expect(cluster.collectGarbage()).toMatchObject({ jobs: 0, evals: 0, allocs: 0 });
    tc.run(3000);
    expect(cluster.collectGarbage()).toMatchObject({ jobs: 0, evals: 1, allocs: 1 });
    expect(cluster.store.jobs.size).toBe(1);
  });

  it('runs by itself every interval and keeps its time table bounded', () => {
    const tc = start({ gc: { ...gc, intervalMs: 1000 } });
    const { cluster } = tc;
    for (let i = 0; i < 5; i++) cluster.registerJob({ job: batchJob(`b${i}`, { run_for: '50ms' }) });
    tc.run(6000);
    expect(cluster.store.jobs.size).toBe(0);
    expect(cluster.store.allocs.size).toBe(0);
  });
});
