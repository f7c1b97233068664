import { describe, expect, it } from 'vitest';

import { manualClock } from './clock.js';
import { createContainment, type WorkOwner } from './contain.js';
import type { CoreContext } from './context.js';
import type { TaskDriver } from './drivers/driver.js';
import { jobKey } from './state/store.js';
import { serviceJob, testCluster, withCount } from './test/helpers.js';
import { createTimers } from './timers.js';

/** A driver with a bug: its start throws (a driver must report a bad start through its sink). */
const throwingDriver: TaskDriver = {
  name: 'throwing',
  start() {
    throw new Error('driver exploded');
  },
};

/** A driver whose task starts, then whose stop rejects (an unhandled rejection ends a Node process). */
const rejectingStop: TaskDriver = {
  name: 'rejecting',
  start(_spec, sink) {
    sink.event({ Type: 'Started', Message: 'started' });
    return { signal: () => undefined, stop: () => Promise.reject(new Error('stop failed')) };
  },
};

function logged(): { lines: string[]; errors: unknown[]; log: (m: string, e: unknown) => void } {
  const lines: string[] = [];
  const errors: unknown[] = [];
  return { lines, errors, log: (m, e) => (lines.push(m), errors.push(e)) };
}

describe('background work that throws', () => {
  it('fails the one allocation whose runner threw, logs it, and every other job goes on', async () => {
    // Arrange
    const log = logged();
    const t = testCluster({ drivers: [throwingDriver], logError: log.log });
    // Act
    t.cluster.registerJob({ job: withCount(serviceJob('bad', {}, { Driver: 'throwing' }), 1) });
    t.cluster.registerJob({ job: withCount(serviceJob('good'), 1) });
    t.run(500);
    // Assert: the bad allocation is failed with a task event saying what went wrong
    const [bad] = t.cluster.store.ofJob('allocs', 'default', 'bad');
    expect(bad?.ClientStatus).toBe('failed');
    expect(bad?.ClientDescription).toBe('Failed tasks: Error: driver exploded');
    const state = bad?.TaskStates?.['server'];
    expect(state).toMatchObject({ State: 'dead', Failed: true });
    expect(state?.Events.at(-1)).toMatchObject({
      Type: 'Driver Failure',
      DriverError: 'Error: driver exploded',
      DisplayMessage: 'Client error: Error: driver exploded',
    });
    // the log names the allocation and carries the error with its stack
    expect(log.lines[0]).toBe(
      `sked-server: background work of allocation ${bad?.ID} failed; it is marked failed: Error: driver exploded`,
    );
    expect((log.errors[0] as Error).stack).toContain('driver exploded');
    // the other job runs, and the cluster takes new work
    expect(t.cluster.store.ofJob('allocs', 'default', 'good').map((a) => a.ClientStatus)).toEqual([
      'running',
    ]);
    t.cluster.registerJob({ job: withCount(serviceJob('later'), 1) });
    t.run(500);
    expect(t.cluster.store.ofJob('allocs', 'default', 'later').map((a) => a.ClientStatus)).toEqual([
      'running',
    ]);
    await t.cluster.close();
  });

  it('contains a driver stop that rejects: the allocation is failed and the process goes on', async () => {
    const log = logged();
    const t = testCluster({ drivers: [rejectingStop], logError: log.log });
    t.cluster.registerJob({ job: withCount(serviceJob('web', {}, { Driver: 'rejecting' }), 1) });
    t.run(500);
    const id = t.cluster.store.ofJob('allocs', 'default', 'web')[0]!.ID;
    expect(t.cluster.store.allocs.get(id)?.ClientStatus).toBe('running');
    t.cluster.deregisterJob({ namespace: 'default', id: 'web' });
    t.run(500);
    await new Promise((resolve) => setImmediate(resolve)); // the rejection settles
    expect(log.lines).toContain(
      `sked-server: background work of allocation ${id} failed; it is marked failed: Error: stop failed`,
    );
    expect(t.cluster.store.allocs.get(id)?.ClientStatus).toBe('failed');
    await t.cluster.close();
  });
});

describe('createTimers', () => {
  it('hands what a timer throws to the failure handler with its owner; later timers still fire', () => {
    const clock = manualClock();
    const failures: [WorkOwner, unknown][] = [];
    const timers = createTimers(clock, () => (owner, error) => failures.push([owner, error]));
    const fired: string[] = [];
    const owner: WorkOwner = { kind: 'deployment', id: 'd1' };
    timers.later(
      () => {
        throw new Error('boom');
      },
      10,
      owner,
    );
    timers.later(() => {
      throw new Error('no owner');
    }, 10);
    timers.later(() => fired.push('after'), 20);
    clock.advance(30);
    expect(failures.map(([o, e]) => [o, (e as Error).message])).toEqual([
      [owner, 'boom'],
      [{ kind: 'cluster', what: 'timer' }, 'no owner'],
    ]);
    expect(fired).toEqual(['after']);
  });
});

describe('createContainment', () => {
  it('marks a deployment failed and gives a job a failed evaluation that says why', async () => {
    // Arrange: a running deployment, and the containment on the same store
    const t = testCluster();
    const update = { MaxParallel: 1, MinHealthyTime: 60e9 };
    t.cluster.registerJob({ job: serviceJob('web', { Update: update }) });
    t.run(500);
    const ctx = {
      store: t.cluster.store,
      timers: { closed: false },
      nowMs: () => t.clock.now(),
      nowNs: () => t.clock.now() * 1e6,
      newId: () => '00000000-0000-4000-8000-0000000000aa',
    } as unknown as Omit<CoreContext, 'contain'>;
    const log = logged();
    const contain = createContainment(ctx, log.log);
    const deployment = t.cluster.store.ofJob('deployments', 'default', 'web')[0]!;
    expect(deployment.Status).toBe('running');
    // Act
    contain.run({ kind: 'deployment', id: deployment.ID }, () => {
      throw new TypeError('watcher bug');
    });
    contain.run({ kind: 'job', namespace: 'default', id: 'web' }, () => {
      throw new RangeError('launch bug');
    });
    // Assert
    expect(t.cluster.store.deployments.get(deployment.ID)).toMatchObject({
      Status: 'failed',
      StatusDescription: 'Failed due to an internal error: TypeError: watcher bug',
    });
    const failed = t.cluster.store.evals.get('00000000-0000-4000-8000-0000000000aa');
    expect(failed).toMatchObject({
      JobID: 'web',
      Status: 'failed',
      StatusDescription: "internal error in the job's background work: RangeError: launch bug",
    });
    expect(log.lines).toEqual([
      `sked-server: background work of deployment ${deployment.ID} failed; it is marked failed: TypeError: watcher bug`,
      'sked-server: background work of job "web" in namespace "default" failed; it is marked failed: RangeError: launch bug',
    ]);
    expect(t.cluster.store.jobs.get(jobKey('default', 'web'))?.Status).toBe('running');
    await t.cluster.close();
  });
});
