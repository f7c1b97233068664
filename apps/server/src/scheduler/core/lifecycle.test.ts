import { makeTask, makeTaskGroup } from '@sked/testkit';
import { describe, expect, it } from 'vitest';

import { createCluster } from './cluster.js';
import { jobKey } from './state/store.js';
import { batchJob, serviceJob, testCluster } from './test/helpers.js';

describe('canaries', () => {
  it('places canaries first and auto-promotes them once healthy', async () => {
    const t = testCluster();
    const update = { MaxParallel: 1, MinHealthyTime: 1e9, Canary: 1, AutoPromote: true };
    t.cluster.registerJob({ job: serviceJob('web', { Update: update }) });
    t.run(3000);
    t.cluster.registerJob({ job: serviceJob('web', { Update: update }, { Config: { run_for: '2h' } }) });
    t.run(300);
    const live = t.cluster.store.ofJob('allocs', 'default', 'web').filter((a) => a.DesiredStatus === 'run');
    expect(live).toHaveLength(3);
    expect(live.filter((a) => a.DeploymentStatus?.Canary)).toHaveLength(1);
    t.run(15000);
    const dep = t.cluster.store.ofJob('deployments', 'default', 'web').at(-1)!;
    expect(dep.TaskGroups['web']).toMatchObject({ DesiredCanaries: 1, Promoted: true });
    expect(dep.Status).toBe('successful');
    const after = t.cluster.store.ofJob('allocs', 'default', 'web').filter((a) => a.DesiredStatus === 'run');
    expect(after.map((a) => a.JobVersion)).toEqual([1, 1]);
    expect(t.batches.flatMap((b) => b.Events).some((e) => e.Type === 'DeploymentPromotion')).toBe(true);
    await t.cluster.close();
  });
});

describe('stopping', () => {
  it('waits for the group shutdown delay unless no_shutdown_delay', async () => {
    const delayed = testCluster();
    const job = serviceJob('web', { group: { ShutdownDelay: 5e9 } });
    delayed.cluster.registerJob({ job });
    delayed.run(500);
    delayed.cluster.deregisterJob({ namespace: 'default', id: 'web' });
    delayed.run(1000);
    expect(delayed.cluster.store.ofJob('allocs', 'default', 'web').map((a) => a.ClientStatus)).toEqual([
      'running',
      'running',
    ]);
    delayed.run(5000);
    expect(delayed.cluster.store.ofJob('allocs', 'default', 'web').map((a) => a.ClientStatus)).toEqual([
      'complete',
      'complete',
    ]);
    await delayed.cluster.close();

    const quick = testCluster();
    quick.cluster.registerJob({ job });
    quick.run(500);
    quick.cluster.deregisterJob({ namespace: 'default', id: 'web', noShutdownDelay: true });
    quick.run(1000);
    expect(quick.cluster.store.ofJob('allocs', 'default', 'web').map((a) => a.ClientStatus)).toEqual([
      'complete',
      'complete',
    ]);
    await quick.cluster.close();
  });

  it('kills the siblings of a failed task', async () => {
    const t = testCluster();
    const job = batchJob('pair', undefined, {
      TaskGroups: [
        makeTaskGroup({
          Name: 'work',
          RestartPolicy: { Attempts: 0, Mode: 'fail' },
          ReschedulePolicy: { Attempts: 0, Unlimited: false },
          Tasks: [
            makeTask({ Name: 'job', Config: { run_for: '1s', exit_code: 1 } }),
            makeTask({ Name: 'sidecar', Resources: { CPU: 50, MemoryMB: 32 } }),
          ],
        }),
      ],
    });
    t.cluster.registerJob({ job });
    t.run(3000);
    const [a] = t.cluster.store.ofJob('allocs', 'default', 'pair');
    const side = a!.TaskStates!['sidecar']!;
    expect(side.Events.map((e) => e.Type).slice(-3)).toEqual(['Sibling Task Failed', 'Killing', 'Killed']);
    expect(side.Events.at(-3)?.FailedSibling).toBe('job');
    expect(a!.ClientStatus).toBe('failed');
    expect(t.cluster.store.summaries.get(jobKey('default', 'pair'))?.Summary['work']?.Failed).toBe(1);
    await t.cluster.close();
  });
});

describe('job status', () => {
  it('goes pending -> running -> dead for a batch job', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: batchJob('b', { run_for: '1s' }) });
    const status = (): string | undefined => t.cluster.store.jobs.get(jobKey('default', 'b'))?.Status;
    expect(status()).toBe('pending');
    t.run(300);
    expect(status()).toBe('running');
    t.run(1500);
    expect(status()).toBe('dead');
    expect(t.cluster.store.summaries.get(jobKey('default', 'b'))?.Summary['work']).toMatchObject({
      Complete: 1,
      Running: 0,
      Queued: 0,
    });
    await t.cluster.close();
  });
});

describe('with the system clock', () => {
  it('brings a mock task to running within a second', async () => {
    const cluster = createCluster({ nodes: 1 });
    cluster.registerJob({ job: serviceJob('web') });
    const deadline = Date.now() + 3000;
    let states: string[] = [];
    while (Date.now() < deadline) {
      states = cluster.store.ofJob('allocs', 'default', 'web').map((a) => a.ClientStatus);
      if (states.length === 2 && states.every((s) => s === 'running')) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(states).toEqual(['running', 'running']);
    await cluster.close();
  });
});

describe('node and batch writes', () => {
  it('replaces the allocations of a deregistered node elsewhere', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: serviceJob('web') });
    t.run(500);
    const [first] = t.cluster.store.ofJob('allocs', 'default', 'web');
    t.cluster.deregisterNode({ nodeId: first!.NodeID });
    t.run(500);
    const allocs = t.cluster.store.ofJob('allocs', 'default', 'web');
    expect(allocs.find((a) => a.ID === first!.ID)?.ClientStatus).toBe('lost');
    const live = allocs.filter((a) => a.DesiredStatus === 'run');
    expect(live).toHaveLength(2);
    expect(live.every((a) => a.NodeID !== first!.NodeID && a.ClientStatus === 'running')).toBe(true);
    expect(t.cluster.store.nodes.size).toBe(2);
    const types = t.batches.flatMap((b) => b.Events).map((e) => e.Type);
    expect(types).toContain('NodeDeregistration');
    expect(t.cluster.store.summaries.get(jobKey('default', 'web'))?.Summary['web']?.Lost).toBe(1);
    expect(() => t.cluster.deregisterNode({ nodeId: first!.NodeID })).toThrow('node not found');
    await t.cluster.close();
  });

  it('deregisters several jobs in one write, all or nothing', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: serviceJob('a') });
    t.cluster.registerJob({ job: serviceJob('b') });
    const index = t.cluster.store.index;
    expect(() =>
      t.cluster.batchDeregisterJobs({
        jobs: [
          { namespace: 'default', id: 'a' },
          { namespace: 'default', id: 'zz' },
        ],
      }),
    ).toThrow('job not found');
    expect(t.cluster.store.index).toBe(index);
    expect(t.cluster.store.jobs.get(jobKey('default', 'a'))?.Stop).toBe(false);
    const r = t.cluster.batchDeregisterJobs({
      jobs: [
        { namespace: 'default', id: 'a' },
        { namespace: 'default', id: 'b' },
      ],
      purge: true,
    });
    expect(Object.keys(r.JobEvals)).toEqual(['default.a', 'default.b']);
    expect(t.cluster.store.jobs.size).toBe(0);
    const last = t.batches.at(-1)!;
    expect(last.Events.filter((e) => e.Type === 'JobBatchDeregistered').map((e) => e.Key)).toEqual([
      'a',
      'b',
    ]);
    await t.cluster.close();
  });
});

describe('task lifecycle hooks', () => {
  it('runs prestart tasks to completion before the main task, and stops sidecars after it', async () => {
    const t = testCluster();
    const job = batchJob('hooks', undefined, {
      TaskGroups: [
        makeTaskGroup({
          Name: 'work',
          Tasks: [
            makeTask({ Name: 'job', Config: { run_for: '2s' } }),
            {
              Name: 'init',
              Driver: 'mock',
              Config: { run_for: '1s' },
              Lifecycle: { Hook: 'prestart', Sidecar: false },
            },
            { Name: 'proxy', Driver: 'mock', Config: {}, Lifecycle: { Hook: 'prestart', Sidecar: true } },
          ],
        }),
      ],
    });
    t.cluster.registerJob({ job });
    t.run(600);
    let a = t.cluster.store.ofJob('allocs', 'default', 'hooks')[0]!;
    expect(a.TaskStates!['init']!.State).toBe('running');
    expect(a.TaskStates!['job']!.State).toBe('pending');
    t.run(1000);
    a = t.cluster.store.ofJob('allocs', 'default', 'hooks')[0]!;
    expect(a.TaskStates!['init']).toMatchObject({ State: 'dead', Failed: false, Restarts: 0 });
    expect(a.TaskStates!['job']!.State).toBe('running');
    expect(a.TaskStates!['proxy']!.State).toBe('running');
    t.run(3000);
    a = t.cluster.store.ofJob('allocs', 'default', 'hooks')[0]!;
    expect(a.TaskStates!['proxy']!.Events.map((e) => e.Type).slice(-2)).toEqual(['Killing', 'Killed']);
    expect(a.ClientStatus).toBe('complete');
    await t.cluster.close();
  });
});

describe('drivers', () => {
  it('reports a failure once when the driver already sent its Driver Failure event', async () => {
    const failing = {
      name: 'broken',
      start(
        _spec: unknown,
        sink: {
          event(e: { Type: string; DriverError?: string }): void;
          exited(r: { exitCode: number; failed: boolean; error?: string }): void;
        },
      ) {
        sink.event({ Type: 'Driver Failure', DriverError: 'no binary' });
        sink.exited({ exitCode: -1, failed: true, error: 'no binary' });
        return { signal: () => undefined, stop: () => Promise.resolve() };
      },
    };
    const t = testCluster({ drivers: [failing] });
    const job = batchJob(
      'b',
      {},
      { group: { RestartPolicy: { Attempts: 0, Mode: 'fail' } }, task: { Driver: 'broken' } },
    );
    t.cluster.registerJob({ job });
    t.run(300);
    const ts = t.cluster.store.ofJob('allocs', 'default', 'b')[0]!.TaskStates!['job']!;
    expect(ts.Events.map((e) => e.Type)).toEqual([
      'Received',
      'Task Setup',
      'Driver Failure',
      'Not Restarting',
    ]);
    await t.cluster.close();
  });

  it('fails a task whose driver no node offers at placement time', async () => {
    const t = testCluster();
    const job = batchJob('d', {}, { task: { Driver: 'docker' } });
    const r = t.cluster.registerJob({ job });
    t.run(100);
    expect(t.cluster.store.evals.get(r.EvalID)?.FailedTGAllocs?.['work']?.ConstraintFiltered).toEqual({
      'missing drivers': 3,
    });
    await t.cluster.close();
  });
});

describe('dispatch payload', () => {
  it('is written into the task directory of the dispatched allocation', async () => {
    const t = testCluster();
    const job = batchJob(
      'render',
      { run_for: '10s' },
      { ParameterizedJob: { Payload: 'required' }, task: { DispatchPayload: { File: 'input.json' } } },
    );
    t.cluster.registerJob({ job });
    const r = t.cluster.dispatchJob({
      namespace: 'default',
      id: 'render',
      payload: Buffer.from('{"a":1}'),
    });
    t.run(500);
    const [alloc] = t.cluster.store.ofJob('allocs', 'default', r.DispatchedJobID);
    const fs = await import('node:fs');
    const path = await import('node:path');
    expect(
      fs.readFileSync(path.join(t.cluster.taskDir(alloc!.ID, 'job'), 'local', 'input.json'), 'utf8'),
    ).toBe('{"a":1}');
    await t.cluster.close();
  });
});

describe('promoteDeployment', () => {
  it('promotes canaries waiting for a manual promotion, then the rollout completes', async () => {
    const t = testCluster();
    const update = { MaxParallel: 1, MinHealthyTime: 1e9, Canary: 1 };
    t.cluster.registerJob({ job: serviceJob('web', { Update: update }) });
    t.run(3000);
    t.cluster.registerJob({ job: serviceJob('web', { Update: update }, { Config: { run_for: '2h' } }) });
    t.run(3000);
    let dep = t.cluster.store.ofJob('deployments', 'default', 'web').at(-1)!;
    expect(dep.Status).toBe('running');
    expect(dep.StatusDescription).toBe('Deployment is running but requires manual promotion');
    expect(() => t.cluster.promoteDeployment({ deploymentId: 'nope' })).toThrow('deployment not found');
    t.cluster.promoteDeployment({ deploymentId: dep.ID });
    t.run(15000);
    dep = t.cluster.store.deployments.get(dep.ID)!;
    expect(dep.Status).toBe('successful');
    expect(() => t.cluster.promoteDeployment({ deploymentId: dep.ID })).toThrow(
      `Deployment "${dep.ID}" is successful, not running`,
    );
    await t.cluster.close();
  });
});
