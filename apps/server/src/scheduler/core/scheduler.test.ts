import { describe, expect, it } from 'vitest';

import { jobKey } from './state/store.js';
import { batchJob, serviceJob, testCluster } from './test/helpers.js';

const withCount = (job: Record<string, unknown>, count: number): Record<string, unknown> => {
  (job['TaskGroups'] as { Count: number }[])[0]!.Count = count;
  return job;
};

describe('placement', () => {
  it('spreads a group over the nodes and respects constraints', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: withCount(serviceJob('web'), 3) });
    t.run(100);
    const nodes = new Set(t.cluster.store.ofJob('allocs', 'default', 'web').map((a) => a.NodeID));
    expect(nodes.size).toBe(3);
    const node = [...t.cluster.store.nodes.items.values()][1]!;
    t.cluster.registerJob({
      job: withCount(
        serviceJob('pinned', {
          Constraints: [{ LTarget: '${node.unique.id}', Operand: '=', RTarget: node.ID }],
        }),
        2,
      ),
    });
    t.run(100);
    expect(t.cluster.store.ofJob('allocs', 'default', 'pinned').map((a) => a.NodeID)).toEqual([
      node.ID,
      node.ID,
    ]);
    await t.cluster.close();
  });

  it('blocks the evaluation with metrics when a constraint filters every node', async () => {
    const t = testCluster();
    const r = t.cluster.registerJob({
      job: serviceJob('win', {
        Constraints: [{ LTarget: '${attr.kernel.name}', Operand: '=', RTarget: 'windows' }],
      }),
    });
    t.run(100);
    const ev = t.cluster.store.evals.get(r.EvalID)!;
    expect(ev.Status).toBe('complete');
    expect(ev.FailedTGAllocs?.['web']).toMatchObject({
      NodesEvaluated: 3,
      NodesFiltered: 3,
      ConstraintFiltered: { '${attr.kernel.name} = windows': 3 },
      CoalescedFailures: 1,
    });
    const blocked = t.cluster.store.evals.get(ev.BlockedEval)!;
    expect(blocked.Status).toBe('blocked');
    expect(blocked.StatusDescription).toBe('created to place remaining allocations');
    expect(t.cluster.store.summaries.get(jobKey('default', 'win'))?.Summary['web']?.Queued).toBe(2);
    expect(t.cluster.store.jobs.get(jobKey('default', 'win'))?.Status).toBe('pending');
    await t.cluster.close();
  });

  it('honours distinct_hosts', async () => {
    const t = testCluster();
    const r = t.cluster.registerJob({
      job: withCount(
        serviceJob('d', { Constraints: [{ LTarget: '', Operand: 'distinct_hosts', RTarget: 'true' }] }),
        4,
      ),
    });
    t.run(100);
    const allocs = t.cluster.store.ofJob('allocs', 'default', 'd');
    expect(new Set(allocs.map((a) => a.NodeID)).size).toBe(3);
    expect(allocs).toHaveLength(3);
    expect(t.cluster.store.evals.get(r.EvalID)?.FailedTGAllocs?.['web']?.ConstraintFiltered).toEqual({
      distinct_hosts: 3,
    });
    await t.cluster.close();
  });

  it('honours distinct_property on node meta', async () => {
    const t = testCluster();
    t.cluster.registerJob({
      job: withCount(
        serviceJob('p', {
          Constraints: [{ LTarget: '${meta.rack}', Operand: 'distinct_property', RTarget: '1' }],
        }),
        3,
      ),
    });
    t.run(100);
    const racks = t.cluster.store
      .ofJob('allocs', 'default', 'p')
      .map((a) => t.cluster.store.nodes.get(a.NodeID)?.Meta['rack']);
    expect(racks.sort((a, b) => String(a).localeCompare(String(b)))).toEqual(['r1', 'r2']);
    await t.cluster.close();
  });

  it('blocks on exhausted resources and places once capacity frees up', async () => {
    const t = testCluster({ nodes: 1 });
    t.cluster.registerJob({
      job: withCount(serviceJob('hog', {}, { Resources: { CPU: 3000, MemoryMB: 64 } }), 1),
    });
    t.run(500);
    const r = t.cluster.registerJob({
      job: withCount(serviceJob('late', {}, { Resources: { CPU: 2000, MemoryMB: 64 } }), 1),
    });
    t.run(500);
    const ev = t.cluster.store.evals.get(r.EvalID)!;
    expect(ev.FailedTGAllocs?.['web']).toMatchObject({ NodesExhausted: 1, DimensionExhausted: { cpu: 1 } });
    const blockedId = ev.BlockedEval;
    expect(t.cluster.store.evals.get(blockedId)?.Status).toBe('blocked');
    expect(t.cluster.store.ofJob('allocs', 'default', 'late')).toHaveLength(0);
    // Act: free the capacity
    t.cluster.deregisterJob({ namespace: 'default', id: 'hog' });
    t.run(7000);
    // Assert
    expect(t.cluster.store.evals.get(blockedId)?.Status).toBe('complete');
    const late = t.cluster.store.ofJob('allocs', 'default', 'late');
    expect(late.map((a) => a.ClientStatus)).toEqual(['running']);
    await t.cluster.close();
  });

  it('stops extra allocations when the count goes down, and updates in place when only the count changes', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: withCount(serviceJob('web'), 3) });
    t.run(500);
    t.cluster.registerJob({ job: withCount(serviceJob('web'), 1) });
    t.run(7000);
    const allocs = t.cluster.store.ofJob('allocs', 'default', 'web');
    const live = allocs.filter((a) => a.DesiredStatus === 'run');
    expect(live.map((a) => a.Name)).toEqual(['web.web[0]']);
    expect(live[0]?.JobVersion).toBe(1);
    expect(allocs.filter((a) => a.DesiredStatus === 'stop').every((a) => a.ClientStatus === 'complete')).toBe(
      true,
    );
    await t.cluster.close();
  });

  it('runs one allocation per node for a system job', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: { ...serviceJob('agent'), Type: 'system' } });
    t.run(300);
    expect(t.cluster.store.ofJob('allocs', 'default', 'agent')).toHaveLength(3);
    await t.cluster.close();
  });
});

describe('deployments', () => {
  const update = {
    MaxParallel: 1,
    MinHealthyTime: 1e9,
    HealthyDeadline: 60e9,
    ProgressDeadline: 120e9,
    AutoRevert: true,
  };

  it('rolls a destructive update one by one to a successful deployment, marking the version stable', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: serviceJob('web', { Update: update }) });
    t.run(3000);
    const first = t.cluster.store.ofJob('deployments', 'default', 'web');
    expect(first.map((d) => [d.JobVersion, d.Status])).toEqual([[0, 'successful']]);
    expect(first[0]?.TaskGroups['web']).toMatchObject({ DesiredTotal: 2, PlacedAllocs: 2, HealthyAllocs: 2 });
    expect(t.cluster.store.jobs.get(jobKey('default', 'web'))?.Stable).toBe(true);
    // Act: a new config is destructive
    t.cluster.registerJob({ job: serviceJob('web', { Update: update }, { Config: { run_for: '1h' } }) });
    t.run(600);
    const mid = t.cluster.store.ofJob('allocs', 'default', 'web').filter((a) => a.DesiredStatus === 'run');
    expect(mid.filter((a) => a.JobVersion === 1)).toHaveLength(1);
    t.run(10000);
    // Assert
    const deps = t.cluster.store.ofJob('deployments', 'default', 'web');
    expect(deps.map((d) => [d.JobVersion, d.Status])).toEqual([
      [0, 'successful'],
      [1, 'successful'],
    ]);
    const live = t.cluster.store.ofJob('allocs', 'default', 'web').filter((a) => a.DesiredStatus === 'run');
    expect(live.map((a) => a.JobVersion)).toEqual([1, 1]);
    expect(live.every((a) => a.DeploymentStatus?.Healthy === true)).toBe(true);
    const types = t.batches.flatMap((b) => b.Events).map((e) => e.Type);
    expect(types).toContain('DeploymentAllocHealth');
    expect(types).toContain('DeploymentStatusUpdate');
    await t.cluster.close();
  });

  it('fails a deployment whose allocations fail and reverts to the last stable version', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: serviceJob('web', { Update: update }) });
    t.run(3000);
    const bad = serviceJob('web', { Update: update }, { Config: { start_error: 'image not found' } });
    (bad['TaskGroups'] as Record<string, unknown>[])[0]!['RestartPolicy'] = { Attempts: 0, Mode: 'fail' };
    t.cluster.registerJob({ job: bad });
    t.run(3000);
    const deps = t.cluster.store.ofJob('deployments', 'default', 'web');
    const failed = deps.find((d) => d.JobVersion === 1)!;
    expect(failed.Status).toBe('failed');
    expect(failed.StatusDescription).toBe(
      'Failed due to unhealthy allocations - rolling back to job version 0',
    );
    const job = t.cluster.store.jobs.get(jobKey('default', 'web'))!;
    expect(job.Version).toBe(2);
    expect(job.TaskGroups[0]?.Tasks[0]?.Config).toEqual({});
    // The failed allocation is rescheduled after the service policy's 30 s delay, on version 2.
    t.run(40000);
    const live = t.cluster.store
      .ofJob('allocs', 'default', 'web')
      .filter((a) => a.DesiredStatus === 'run' && a.ClientStatus === 'running');
    expect(live.map((a) => a.JobVersion)).toEqual([2, 2]);
    const last = t.cluster.store.ofJob('deployments', 'default', 'web').at(-1)!;
    expect([last.JobVersion, last.Status]).toEqual([2, 'successful']);
    await t.cluster.close();
  });
});

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
    const job = batchJob('flaky', { run_for: '1s', exit_code: 3 });
    const group = (job['TaskGroups'] as Record<string, unknown>[])[0]!;
    group['RestartPolicy'] = { Attempts: 2, Interval: 3600e9, Delay: 1e9, Mode: 'fail' };
    group['ReschedulePolicy'] = { Attempts: 0, Unlimited: false };
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
    const job = batchJob('resched', { start_error: 'boom' });
    const group = (job['TaskGroups'] as Record<string, unknown>[])[0]!;
    group['RestartPolicy'] = { Attempts: 0, Mode: 'fail' };
    group['ReschedulePolicy'] = {
      Attempts: 1,
      Interval: 3600e9,
      Delay: 5e9,
      DelayFunction: 'constant',
      Unlimited: false,
    };
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

describe('volumes', () => {
  const vol = {
    ID: 'data',
    Name: 'data',
    PluginID: 'ebs',
    AccessMode: 'single-node-writer',
    AttachmentMode: 'file-system',
  };
  const withVolume = (id: string): Record<string, unknown> => {
    const job = withCount(serviceJob(id), 1);
    (job['TaskGroups'] as Record<string, unknown>[])[0]!['Volumes'] = {
      data: { Type: 'csi', Source: 'data', ReadOnly: false },
    };
    return job;
  };

  it('registers, refuses duplicates and in-use deletes, and frees after force', async () => {
    const t = testCluster();
    t.cluster.registerVolume({ namespace: 'default', volumes: [vol] });
    expect(() => t.cluster.registerVolume({ namespace: 'default', volumes: [vol] })).toThrow(
      'volume "data" already exists',
    );
    t.cluster.registerJob({ job: withVolume('db') });
    t.run(500);
    const claims = Object.values(t.cluster.store.volumes.get(jobKey('default', 'data'))!.Claims);
    expect(claims.map((c) => c.Mode)).toEqual(['write']);
    expect(() => t.cluster.deregisterVolume({ namespace: 'default', id: 'data' })).toThrow(
      'volume "data" is in use',
    );
    expect(() => t.cluster.deregisterVolume({ namespace: 'default', id: 'data', force: true })).toThrow(
      'volume "data" is in use',
    );
    expect(() =>
      t.cluster.detachVolume({ namespace: 'default', id: 'data', node: claims[0]!.NodeID }),
    ).toThrow('volume "data" is in use');
    // A second writer cannot be placed.
    const second = t.cluster.registerJob({ job: withVolume('db2') });
    t.run(100);
    expect(t.cluster.store.evals.get(second.EvalID)?.FailedTGAllocs?.['web']?.ConstraintFiltered).toEqual({
      'CSI volume data has exhausted its available writer claims': 3,
    });
    t.cluster.deregisterJob({ namespace: 'default', id: 'db2', purge: true });
    t.cluster.deregisterJob({ namespace: 'default', id: 'db' });
    t.run(200);
    // The alloc is terminal but its claim is still held: force drops it.
    expect(() => t.cluster.deregisterVolume({ namespace: 'default', id: 'data' })).toThrow(
      'volume "data" is in use',
    );
    t.cluster.deregisterVolume({ namespace: 'default', id: 'data', force: true });
    expect(t.cluster.store.volumes.size).toBe(0);
    expect(() => t.cluster.deregisterVolume({ namespace: 'default', id: 'data' })).toThrow(
      'volume not found',
    );
    await t.cluster.close();
  });

  it('validates registrations without storing anything', async () => {
    const t = testCluster();
    const index = t.cluster.store.index;
    expect(() => t.cluster.registerVolume({ namespace: 'default', volumes: [{ ID: 'x' }] })).toThrow(
      'Volume "x" is missing a PluginID',
    );
    expect(() =>
      t.cluster.registerVolume({
        namespace: 'default',
        volumes: [{ ID: 'y', PluginID: 'p' }, { PluginID: 'p' }],
      }),
    ).toThrow('Volume ID is required');
    expect(t.cluster.store.index).toBe(index);
    expect(t.cluster.store.volumes.size).toBe(0);
    await t.cluster.close();
  });
});

describe('events and nodes', () => {
  it('registers the simulated nodes with NodeRegistration events', async () => {
    const t = testCluster({ nodes: 2 });
    const nodes = [...t.cluster.store.nodes.items.values()];
    expect(nodes.map((n) => n.Attributes['driver.mock'])).toEqual(['1', '1']);
    expect(nodes[0]?.NodeResources.Cpu.CpuShares).toBe(4000);
    const r = t.cluster.setNodeEligibility({ nodeId: nodes[0]!.ID, eligible: false });
    expect(r.Index).toBe(t.cluster.store.index);
    expect(t.batches.flatMap((b) => b.Events).map((e) => e.Type)).toEqual(['NodeEligibility', 'NodeEvent']);
    await t.cluster.close();
  });

  it('emits job, evaluation and allocation events with filter keys, allocations without the job', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: withCount(serviceJob('web'), 1) });
    t.run(300);
    const events = t.batches.flatMap((b) => b.Events);
    const created = events.find((e) => e.Type === 'AllocationCreated')!;
    const alloc = created.Payload['Allocation'] as Record<string, unknown>;
    expect(alloc['Job']).toBeUndefined();
    // a service job gets the default update strategy, so its first allocations belong to a deployment
    expect(alloc['DeploymentID']).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.FilterKeys).toEqual([alloc['JobID'], alloc['EvalID'], alloc['DeploymentID']]);
    expect(events.slice(0, 2).map((e) => e.Type)).toEqual(['JobRegistered', 'EvaluationUpdated']);
    const indexes = t.batches.map((b) => b.Index);
    expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
    await t.cluster.close();
  });
});

describe('failed deployments without auto-revert', () => {
  it('halt the rollout: the old allocations keep running and failed ones are not rescheduled', async () => {
    const t = testCluster();
    const update = { MaxParallel: 1, MinHealthyTime: 1e9, HealthyDeadline: 60e9, ProgressDeadline: 120e9 };
    t.cluster.registerJob({ job: withCount(serviceJob('web', { Update: update }), 3) });
    t.run(3000);
    const bad = withCount(serviceJob('web', { Update: update }, { Config: { start_error: 'boom' } }), 3);
    (bad['TaskGroups'] as Record<string, unknown>[])[0]!['RestartPolicy'] = { Attempts: 0, Mode: 'fail' };
    t.cluster.registerJob({ job: bad });
    t.run(120_000);
    const dep = t.cluster.store.ofJob('deployments', 'default', 'web').at(-1)!;
    expect([dep.JobVersion, dep.Status]).toEqual([1, 'failed']);
    const allocs = t.cluster.store.ofJob('allocs', 'default', 'web');
    expect(allocs.filter((a) => a.JobVersion === 1)).toHaveLength(1);
    expect(allocs.filter((a) => a.JobVersion === 0 && a.ClientStatus === 'running')).toHaveLength(2);
    await t.cluster.close();
  });
});

describe('affinities', () => {
  it('prefer the nodes that match, without excluding the others', async () => {
    const t = testCluster();
    const node = [...t.cluster.store.nodes.items.values()][2]!;
    t.cluster.registerJob({
      job: withCount(
        serviceJob('aff', {
          Affinities: [{ LTarget: '${node.unique.id}', Operand: '=', RTarget: node.ID, Weight: 100 }],
        }),
        1,
      ),
    });
    t.run(100);
    expect(t.cluster.store.ofJob('allocs', 'default', 'aff')[0]?.NodeID).toBe(node.ID);
    t.cluster.registerJob({
      job: withCount(
        serviceJob('anti', {
          Affinities: [{ LTarget: '${node.unique.id}', Operand: '=', RTarget: node.ID, Weight: -100 }],
        }),
        2,
      ),
    });
    t.run(100);
    const nodes = t.cluster.store.ofJob('allocs', 'default', 'anti').map((a) => a.NodeID);
    expect(nodes).toHaveLength(2);
    expect(nodes).not.toContain(node.ID);
    await t.cluster.close();
  });
});

describe('ports', () => {
  it('gives dynamic ports, refuses reserved port collisions and passes the ports in the environment', async () => {
    const envs: Record<string, string>[] = [];
    const capture = {
      name: 'capture',
      start(spec: { env: Readonly<Record<string, string>> }, sink: { event(e: { Type: string }): void }) {
        envs.push({ ...spec.env });
        sink.event({ Type: 'Started' });
        return { signal: () => undefined, stop: () => Promise.resolve() };
      },
    };
    const t = testCluster({ drivers: [capture] });
    const job = withCount(serviceJob('ports', {}, { Driver: 'capture' }), 4);
    (job['TaskGroups'] as Record<string, unknown>[])[0]!['Networks'] = [
      { ReservedPorts: [{ Label: 'admin', Value: 9000 }], DynamicPorts: [{ Label: 'http', To: 8080 }] },
    ];
    const r = t.cluster.registerJob({ job });
    t.run(300);
    const allocs = t.cluster.store.ofJob('allocs', 'default', 'ports');
    expect(allocs).toHaveLength(3);
    expect(t.cluster.store.evals.get(r.EvalID)?.FailedTGAllocs?.['web']?.ConstraintFiltered).toEqual({
      'network: reserved port collision admin=9000': 3,
    });
    const ports = (allocs[0]!.AllocatedResources!['Shared'] as { Ports: { Label: string; Value: number }[] })
      .Ports;
    expect(ports.map((p) => [p.Label, p.Value])).toEqual([
      ['admin', 9000],
      ['http', 20000],
    ]);
    expect(envs[0]).toMatchObject({
      SKED_PORT_http: '8080',
      SKED_HOST_PORT_http: '20000',
      SKED_PORT_admin: '9000',
    });
    expect(envs[0]!['SKED_ADDR_http']).toMatch(/^127\.0\.0\.\d+:20000$/);
    await t.cluster.close();
  });
});

describe('spreads', () => {
  const rackOf = (t: ReturnType<typeof testCluster>, job: string): string[] =>
    t.cluster.store
      .ofJob('allocs', 'default', job)
      .map((a) => t.cluster.store.nodes.get(a.NodeID)!.Meta['rack']!)
      .sort((a, b) => a.localeCompare(b));

  it.each([
    [undefined, ['r2', 'r2']],
    [[{ Attribute: '${meta.rack}', Weight: 100 }], ['r1', 'r2']],
  ])('with spreads %j the group lands on racks %j', async (spreads, want) => {
    // Arrange: 4 nodes on racks r1, r2, r1, r2; the r2 nodes are busy, so bin packing prefers them.
    const t = testCluster({ nodes: 4 });
    t.cluster.registerJob({
      job: withCount(
        serviceJob(
          'filler',
          { Constraints: [{ LTarget: '${meta.rack}', Operand: '=', RTarget: 'r2' }] },
          {
            Resources: { CPU: 3000, MemoryMB: 4000 },
          },
        ),
        2,
      ),
    });
    t.run(100);
    // Act
    t.cluster.registerJob({ job: withCount(serviceJob('s', spreads ? { Spreads: spreads } : {}), 2) });
    t.run(100);
    // Assert
    expect(rackOf(t, 's')).toEqual(want);
    await t.cluster.close();
  });
});

describe('volume detach', () => {
  it('drops the claims of finished allocations on a node, and names unknown volumes and nodes', async () => {
    const t = testCluster();
    t.cluster.registerVolume({ namespace: 'default', volumes: [{ ID: 'data', PluginID: 'ebs' }] });
    const job = withCount(serviceJob('db'), 1);
    (job['TaskGroups'] as Record<string, unknown>[])[0]!['Volumes'] = {
      data: { Type: 'csi', Source: 'data', ReadOnly: true },
    };
    t.cluster.registerJob({ job });
    t.run(500);
    const claim = Object.values(t.cluster.store.volumes.get(jobKey('default', 'data'))!.Claims)[0]!;
    expect(claim.Mode).toBe('read');
    expect(() => t.cluster.detachVolume({ namespace: 'default', id: 'nope', node: claim.NodeID })).toThrow(
      'volume not found',
    );
    expect(() => t.cluster.detachVolume({ namespace: 'default', id: 'data', node: 'ffff' })).toThrow(
      'node not found',
    );
    t.cluster.deregisterJob({ namespace: 'default', id: 'db' });
    t.run(200);
    t.cluster.detachVolume({ namespace: 'default', id: 'data', node: claim.NodeID.slice(0, 8) });
    expect(t.cluster.store.volumes.get(jobKey('default', 'data'))!.Claims).toEqual({});
    t.cluster.deregisterVolume({ namespace: 'default', id: 'data' });
    expect(t.cluster.store.volumes.size).toBe(0);
    await t.cluster.close();
  });

  it('releases the claims of finished allocations by itself after a moment', async () => {
    const t = testCluster();
    t.cluster.registerVolume({ namespace: 'default', volumes: [{ ID: 'data', PluginID: 'ebs' }] });
    const job = withCount(serviceJob('db'), 1);
    (job['TaskGroups'] as Record<string, unknown>[])[0]!['Volumes'] = {
      data: { Type: 'csi', Source: 'data', ReadOnly: false },
    };
    t.cluster.registerJob({ job });
    t.run(500);
    t.cluster.deregisterJob({ namespace: 'default', id: 'db' });
    t.run(2000);
    expect(t.cluster.store.volumes.get(jobKey('default', 'data'))!.Claims).toEqual({});
    await t.cluster.close();
  });
});
