// A job's limits (groups, tasks, count, allocations): beyond them a 400 naming the field, nothing stored.
import type { JobInput } from '@sked/model';
import { describe, expect, it } from 'vitest';

import { ClusterError } from './errors.js';
import { JOB_LIMITS } from './limits.js';
import { testCluster } from './test/helpers.js';

const task = (name: string): NonNullable<NonNullable<JobInput['TaskGroups']>[number]['Tasks']>[number] => ({
  Name: name,
  Driver: 'mock',
  Config: { run_for: '1h' },
  Resources: { CPU: 1, MemoryMB: 10 },
});
const job = (groups: number, count = 1, tasks = 1): JobInput => ({
  ID: 'big',
  Name: 'big',
  Type: 'service',
  Datacenters: ['dc1'],
  TaskGroups: Array.from({ length: groups }, (_, i) => ({
    Name: `g${i}`,
    Count: count,
    Tasks: Array.from({ length: tasks }, (_, t) => task(`t${t}`)),
  })),
});

function refusal(fn: () => unknown): ClusterError | undefined {
  try {
    fn();
  } catch (e) {
    return ClusterError.is(e) ? e : undefined;
  }
  return undefined;
}

describe('job limits', () => {
  it.each([
    [
      'too many groups',
      job(JOB_LIMITS.taskGroups + 1),
      /^Job validation failed: TaskGroups: a job has at most 2000 task groups, got 2001\.$/,
    ],
    [
      'too many tasks',
      job(1, 1, JOB_LIMITS.tasksPerGroup + 1),
      /TaskGroups\[0\]\.Tasks: a group has at most 100 tasks, got 101\./,
    ],
    [
      'too large a count',
      job(1, JOB_LIMITS.count + 1),
      /TaskGroups\[0\]\.Count: a group's count is at most 10000, got 10001\./,
    ],
    [
      'too many allocations',
      job(2, 6_000),
      /TaskGroups: a job asks for at most 10000 allocations \(the sum of its groups' Count\), got 12000\./,
    ],
  ])(
    'refuses %s with a 400 naming the field, storing nothing (register and plan)',
    async (_what, input, message) => {
      const t = testCluster();
      const index = t.cluster.store.index;
      for (const write of [
        () => t.cluster.registerJob({ job: input }),
        () => t.cluster.planJob({ job: input }),
      ]) {
        const error = refusal(write);
        expect(error?.status).toBe(400);
        expect(error?.message).toMatch(message);
      }
      expect(t.cluster.store.index).toBe(index);
      expect(t.cluster.store.jobs.size).toBe(0);
      await t.cluster.close();
    },
  );

  it('accepts a job at the limits', async () => {
    const t = testCluster();
    const r = t.cluster.registerJob({ job: job(JOB_LIMITS.taskGroups, 5) });
    expect(r.EvalID).not.toBe('');
    await t.cluster.close();
  });
});
