import { describe, expect, it } from 'vitest';

import { jobKey } from './state/store.js';
import { serviceJob, testCluster, withCount } from './test/helpers.js';

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

  it('writes the health reports that fall due together as one write, counting each allocation once', async () => {
    // Arrange: five allocations placed by one evaluation start together, so their clients report
    // them healthy at the same moment (MinHealthyTime after they run)
    const t = testCluster();
    t.cluster.registerJob({
      job: withCount(serviceJob('web', { Update: { ...update, MaxParallel: 5 } }), 5),
    });
    // Act
    t.run(3000);
    // Assert: one write made them healthy, with one health event, and the deployment counted five
    const allocs = t.cluster.store.ofJob('allocs', 'default', 'web');
    expect(allocs.map((a) => a.DeploymentStatus?.Healthy)).toEqual([true, true, true, true, true]);
    expect(new Set(allocs.map((a) => a.DeploymentStatus?.ModifyIndex)).size).toBe(1);
    const healthEvents = t.batches.flatMap((b) => b.Events).filter((e) => e.Type === 'DeploymentAllocHealth');
    expect(healthEvents).toHaveLength(1);
    const [d] = t.cluster.store.ofJob('deployments', 'default', 'web');
    expect([d?.Status, d?.TaskGroups['web']?.HealthyAllocs, d?.TaskGroups['web']?.UnhealthyAllocs]).toEqual([
      'successful',
      5,
      0,
    ]);
    await t.cluster.close();
  });

  it('fails a deployment whose allocations fail and reverts to the last stable version', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: serviceJob('web', { Update: update }) });
    t.run(3000);
    const bad = serviceJob(
      'web',
      { Update: update, group: { RestartPolicy: { Attempts: 0, Mode: 'fail' } } },
      { Config: { start_error: 'image not found' } },
    );
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

describe('failed deployments without auto-revert', () => {
  it('halt the rollout: the old allocations keep running and failed ones are not rescheduled', async () => {
    const t = testCluster();
    const update = { MaxParallel: 1, MinHealthyTime: 1e9, HealthyDeadline: 60e9, ProgressDeadline: 120e9 };
    t.cluster.registerJob({ job: withCount(serviceJob('web', { Update: update }), 3) });
    t.run(3000);
    const bad = serviceJob(
      'web',
      { Update: update, group: { Count: 3, RestartPolicy: { Attempts: 0, Mode: 'fail' } } },
      { Config: { start_error: 'boom' } },
    );
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
