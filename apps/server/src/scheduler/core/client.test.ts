import { describe, expect, it } from 'vitest';

import { jobKey } from './state/store.js';
import { batchJob, serviceJob, testCluster, withCount } from './test/helpers.js';

describe('tasks and the mock driver', () => {
  it('produces Received, Task Setup, Started, Terminated for a batch task that exits 0', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: batchJob('once', { run_for: '2s', exit_code: 0 }) });
    t.run(3000);
    const [a] = t.cluster.store.ofJob('allocs', 'default', 'once');
    const ts = a!.TaskStates!['job']!;
    expect(ts.Events.map((e) => e.Type)).toEqual(['Received', 'Task Setup', 'Started', 'Terminated']);
    expect(ts.State).toBe('dead');
    expect(ts.Failed).toBe(false);
    expect(a!.ClientStatus).toBe('complete');
    const started = ts.Events[2]!.Time;
    expect(ts.Events[3]!.Time - started).toBe(2000 * 1e6);
    expect(t.cluster.store.jobs.get(jobKey('default', 'once'))?.Status).toBe('dead');
    await t.cluster.close();
  });

  it('restarts a failing task per the restart policy, then stops with Not Restarting', async () => {
    const t = testCluster();
    const job = batchJob(
      'flaky',
      { run_for: '1s', exit_code: 3 },
      {
        group: {
          RestartPolicy: { Attempts: 2, Interval: 3600e9, Delay: 1e9, Mode: 'fail' },
          ReschedulePolicy: { Attempts: 0, Unlimited: false },
        },
      },
    );
    t.cluster.registerJob({ job });
    t.run(10000);
    const [a] = t.cluster.store.ofJob('allocs', 'default', 'flaky');
    const ts = a!.TaskStates!['job']!;
    expect(ts.Events.map((e) => e.Type)).toEqual([
      'Task Setup',
      'Started',
      'Terminated',
      'Restarting',
      'Started',
      'Terminated',
      'Restarting',
      'Started',
      'Terminated',
      'Not Restarting',
    ]);
    t.run(100);
    const final = t.cluster.store.ofJob('allocs', 'default', 'flaky')[0]!.TaskStates!['job']!;
    expect(final.Events.at(-1)).toMatchObject({
      Type: 'Not Restarting',
      FailsTask: true,
      RestartReason: 'Exceeded allowed attempts 2 in interval 1h0m0s and mode is "fail"',
    });
    expect(final.Events).toHaveLength(10);
    expect(final.Restarts).toBe(2);
    expect(final.Failed).toBe(true);
    expect(t.cluster.store.ofJob('allocs', 'default', 'flaky')[0]!.ClientStatus).toBe('failed');
    expect(t.cluster.store.ofJob('allocs', 'default', 'flaky')).toHaveLength(1);
    await t.cluster.close();
  });

  it('reschedules a failed allocation after the policy delay, linking the two', async () => {
    const t = testCluster();
    const job = batchJob(
      'resched',
      { start_error: 'boom' },
      {
        group: {
          RestartPolicy: { Attempts: 0, Mode: 'fail' },
          ReschedulePolicy: {
            Attempts: 1,
            Interval: 3600e9,
            Delay: 5e9,
            DelayFunction: 'constant',
            Unlimited: false,
          },
        },
      },
    );
    t.cluster.registerJob({ job });
    t.run(1000);
    let allocs = t.cluster.store.ofJob('allocs', 'default', 'resched');
    expect(allocs).toHaveLength(1);
    expect(allocs[0]!.ClientStatus).toBe('failed');
    expect(allocs[0]!.TaskStates!['job']!.Events.map((e) => e.Type)).toContain('Driver Failure');
    expect(allocs[0]!.FollowupEvalID).not.toBe('');
    t.run(6000);
    allocs = t.cluster.store.ofJob('allocs', 'default', 'resched');
    expect(allocs).toHaveLength(2);
    expect(allocs[1]!.PreviousAllocation).toBe(allocs[0]!.ID);
    expect(allocs[0]!.NextAllocation).toBe(allocs[1]!.ID);
    expect(allocs[1]!.RescheduleTracker?.Events).toHaveLength(1);
    t.run(10000);
    // The attempt budget is spent: no third allocation.
    expect(t.cluster.store.ofJob('allocs', 'default', 'resched')).toHaveLength(2);
    // ForceReschedule places one anyway.
    t.cluster.evaluateJob({ namespace: 'default', id: 'resched', forceReschedule: true });
    t.run(500);
    expect(t.cluster.store.ofJob('allocs', 'default', 'resched')).toHaveLength(3);
    await t.cluster.close();
  });

  it('gives each task a real directory', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: serviceJob('web') });
    t.run(500);
    const [a] = t.cluster.store.ofJob('allocs', 'default', 'web');
    const { existsSync } = await import('node:fs');
    expect(existsSync(t.cluster.taskDir(a!.ID, 'server'))).toBe(true);
    await t.cluster.close();
    expect(existsSync(t.cluster.dataRoot)).toBe(false);
  });
});

describe('allocation lifecycle', () => {
  it('stops an allocation and places a replacement', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: withCount(serviceJob('web'), 1) });
    t.run(500);
    const [a] = t.cluster.store.ofJob('allocs', 'default', 'web');
    const r = t.cluster.stopAlloc({ allocId: a!.ID });
    expect(t.cluster.store.evals.get(r.EvalID)?.TriggeredBy).toBe('alloc-stop');
    t.run(7000);
    const allocs = t.cluster.store.ofJob('allocs', 'default', 'web');
    expect(allocs).toHaveLength(2);
    expect(allocs[0]).toMatchObject({ DesiredStatus: 'stop', ClientStatus: 'complete' });
    expect(allocs[1]).toMatchObject({ DesiredStatus: 'run', ClientStatus: 'running' });
    expect(
      t.batches.flatMap((b) => b.Events).filter((e) => e.Type === 'AllocationUpdateDesiredStatus'),
    ).toHaveLength(1);
    await t.cluster.close();
  });

  it('signals and restarts tasks, with their events', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: withCount(serviceJob('web'), 1) });
    t.run(500);
    const id = t.cluster.store.ofJob('allocs', 'default', 'web')[0]!.ID;
    t.cluster.signalAlloc({ allocId: id, signal: 'SIGHUP', task: 'server' });
    t.run(100);
    let ts = t.cluster.store.allocs.get(id)!.TaskStates!['server']!;
    expect(ts.Events.slice(-2).map((e) => e.Type)).toEqual(['Signaling', 'Driver']);
    expect(ts.Events.at(-2)?.TaskSignal).toBe('SIGHUP');
    t.cluster.restartAlloc({ allocId: id });
    t.run(500);
    ts = t.cluster.store.allocs.get(id)!.TaskStates!['server']!;
    expect(ts.Events.slice(-4).map((e) => e.Type)).toEqual([
      'Restart Signaled',
      'Terminated',
      'Restarting',
      'Started',
    ]);
    expect(ts.Restarts).toBe(1);
    expect(ts.State).toBe('running');
    await t.cluster.close();
  });

  it('rejects unknown allocations, tasks and signals', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: withCount(serviceJob('web'), 1) });
    t.run(500);
    const id = t.cluster.store.ofJob('allocs', 'default', 'web')[0]!.ID;
    const index = t.cluster.store.index;
    expect(() => t.cluster.stopAlloc({ allocId: '00000000-0000-4000-8000-000000000000' })).toThrow(
      'alloc not found',
    );
    expect(() => t.cluster.signalAlloc({ allocId: id, signal: 'SIGNOPE' })).toThrow(
      'Unknown signal "SIGNOPE"',
    );
    expect(() => t.cluster.signalAlloc({ allocId: id, task: 'db' })).toThrow(
      `Task "db" not found in allocation "${id}"`,
    );
    expect(() => t.cluster.restartAlloc({ allocId: id, task: 'db' })).toThrow(
      `Task "db" not found in allocation "${id}"`,
    );
    expect(t.cluster.store.index).toBe(index);
    await t.cluster.close();
  });
});
