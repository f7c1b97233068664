// The law of the summary deltas: after any sequence of writes, every job's stored summary counts and
// status are what a recount of its allocations from scratch gives.
import { fc, test } from '@fast-check/vitest';
import type { JobInput } from '@sked/model';
import { expect } from 'vitest';

import { clientTerminal } from '../internal/status.js';
import { testCluster } from '../test/helpers.js';
import type { Allocation } from '../types.js';
import { jobKey } from './keys.js';

const BUCKET: Record<string, string> = {
  pending: 'Starting',
  running: 'Running',
  complete: 'Complete',
  failed: 'Failed',
  lost: 'Lost',
};

const group = fc.record({
  count: fc.integer({ min: 0, max: 3 }),
  runFor: fc.constantFrom(undefined, '50ms', '300ms'),
  exitCode: fc.constantFrom(0, 1),
});
const step = fc.oneof(
  fc.record({ op: fc.constant('run' as const), ms: fc.integer({ min: 10, max: 400 }) }),
  fc.record({ op: fc.constant('stop' as const) }),
  fc.record({
    op: fc.constant('register' as const),
    groups: fc.array(group, { minLength: 1, maxLength: 4 }),
  }),
);

const jobOf = (
  groups: { count: number; runFor: string | undefined; exitCode: number }[],
  type: 'service' | 'batch',
): JobInput => ({
  ID: 'j',
  Name: 'j',
  Type: type,
  Datacenters: ['dc1'],
  TaskGroups: groups.map((g, i) => ({
    Name: `g${i}`,
    Count: g.count,
    RestartPolicy: { Attempts: 0, Mode: 'fail' },
    Tasks: [
      {
        Name: 't',
        Driver: 'mock',
        Config: g.runFor === undefined ? {} : { run_for: g.runFor, exit_code: g.exitCode },
        Resources: { CPU: 10, MemoryMB: 10 },
      },
    ],
  })),
});

test.prop(
  [
    fc.constantFrom('service', 'batch'),
    fc.array(group, { minLength: 1, maxLength: 4 }),
    fc.array(step, { maxLength: 12 }),
  ],
  {
    numRuns: 25,
  },
)('summaries and statuses moved by deltas equal a recount from scratch', async (type, first, steps) => {
  const t = testCluster();
  t.cluster.registerJob({ job: jobOf(first, type) });
  for (const s of steps) {
    if (s.op === 'run') t.run(s.ms);
    else if (s.op === 'stop') {
      if (t.cluster.store.jobs.get(jobKey('default', 'j'))?.Stop === false)
        t.cluster.deregisterJob({ namespace: 'default', id: 'j' });
    } else t.cluster.registerJob({ job: jobOf(s.groups, type) });
    const job = t.cluster.store.jobs.get(jobKey('default', 'j'));
    const summary = t.cluster.store.summaries.get(jobKey('default', 'j'));
    if (!job || !summary) continue;
    const current = t.cluster.store
      .ofJob('allocs', 'default', 'j')
      .filter((a: Allocation) => a.Job === null || a.Job.CreateIndex === job.CreateIndex);
    const recount: Record<string, Record<string, number>> = {};
    for (const g of Object.keys(summary.Summary))
      recount[g] = { Starting: 0, Running: 0, Complete: 0, Failed: 0, Lost: 0, Unknown: 0 };
    for (const a of current) {
      const counts = (recount[a.TaskGroup] ??= {
        Starting: 0,
        Running: 0,
        Complete: 0,
        Failed: 0,
        Lost: 0,
        Unknown: 0,
      });
      const bucket = BUCKET[a.ClientStatus] ?? 'Unknown';
      counts[bucket] = (counts[bucket] ?? 0) + 1;
    }
    const stored = Object.fromEntries(
      Object.entries(summary.Summary).map(([g, { Queued: _queued, ...counts }]) => [g, counts]),
    );
    expect(stored).toEqual(recount);
    if (current.some((a) => !clientTerminal(a))) expect(job.Status).toBe('running');
  }
  await t.cluster.close();
});
