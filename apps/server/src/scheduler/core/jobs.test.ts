import { describe, expect, it } from 'vitest';

import { ClusterError } from './errors.js';
import { jobKey } from './state/store.js';
import { batchJob, serviceJob, testCluster } from './test/helpers.js';

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

function expectError(fn: () => unknown, status: number, message: string | RegExp): void {
  const error = caught(fn);
  expect(ClusterError.is(error)).toBe(true);
  expect(error).toMatchObject({ status, message });
}

describe('registerJob', () => {
  it('stores version 0, creates a job-register evaluation and places Count allocations', async () => {
    const t = testCluster();
    const r = t.cluster.registerJob({ job: serviceJob('web') });
    const job = t.cluster.store.jobs.get(jobKey('default', 'web'));
    expect(job?.Version).toBe(0);
    expect(job?.JobModifyIndex).toBe(r.JobModifyIndex);
    const ev = t.cluster.store.evals.get(r.EvalID);
    expect(ev?.TriggeredBy).toBe('job-register');
    expect(ev?.Status).toBe('pending');
    t.run(1000);
    expect(t.cluster.store.evals.get(r.EvalID)?.Status).toBe('complete');
    const allocs = t.cluster.store.ofJob('allocs', 'default', 'web');
    expect(allocs.map((a) => a.Name).sort()).toEqual(['web.web[0]', 'web.web[1]']);
    expect(allocs.every((a) => a.ClientStatus === 'running')).toBe(true);
    expect(t.cluster.store.summaries.get(jobKey('default', 'web'))?.Summary['web']?.Running).toBe(2);
    await t.cluster.close();
  });

  it('keeps the version when the spec is unchanged but still evaluates', async () => {
    const t = testCluster();
    const a = t.cluster.registerJob({ job: serviceJob('web') });
    const b = t.cluster.registerJob({ job: serviceJob('web') });
    expect(b.JobModifyIndex).toBe(a.JobModifyIndex);
    expect(b.EvalID).not.toBe(a.EvalID);
    expect(t.cluster.store.ofJob('jobVersions', 'default', 'web')).toHaveLength(1);
    const c = t.cluster.registerJob({ job: serviceJob('web', { Priority: 70 }) });
    expect(c.JobModifyIndex).toBeGreaterThan(a.JobModifyIndex);
    expect(t.cluster.store.jobs.get(jobKey('default', 'web'))?.Version).toBe(1);
    await t.cluster.close();
  });

  it('enforces the job modify index (check-and-set) and writes nothing on a conflict', async () => {
    const t = testCluster();
    expectError(
      () => t.cluster.registerJob({ job: serviceJob('web'), enforceIndex: true, jobModifyIndex: 5 }),
      400,
      'Enforcing job modify index 5: job does not exist',
    );
    const r = t.cluster.registerJob({ job: serviceJob('web'), enforceIndex: true, jobModifyIndex: 0 });
    const index = t.cluster.store.index;
    expectError(
      () => t.cluster.registerJob({ job: serviceJob('web'), enforceIndex: true, jobModifyIndex: 0 }),
      400,
      `Enforcing job modify index 0: job already exists with job modify index ${r.JobModifyIndex}`,
    );
    expectError(
      () =>
        t.cluster.registerJob({
          job: serviceJob('web', { Priority: 60 }),
          enforceIndex: true,
          jobModifyIndex: r.JobModifyIndex + 7,
        }),
      400,
      `Enforcing job modify index ${r.JobModifyIndex + 7}: job exists with conflicting job modify index: ${r.JobModifyIndex}`,
    );
    expect(t.cluster.store.index).toBe(index);
    const ok = t.cluster.registerJob({
      job: serviceJob('web', { Priority: 60 }),
      enforceIndex: true,
      jobModifyIndex: r.JobModifyIndex,
    });
    expect(ok.JobModifyIndex).toBeGreaterThan(r.JobModifyIndex);
    await t.cluster.close();
  });

  it('preserves counts and uses the eval priority', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: serviceJob('web') });
    const next = serviceJob('web', { Priority: 80 });
    (next['TaskGroups'] as { Count: number }[])[0]!.Count = 5;
    const r = t.cluster.registerJob({ job: next, preserveCounts: true, evalPriority: 90 });
    expect(t.cluster.store.jobs.get(jobKey('default', 'web'))?.TaskGroups[0]?.Count).toBe(2);
    expect(t.cluster.store.evals.get(r.EvalID)?.Priority).toBe(90);
    await t.cluster.close();
  });

  it('rejects invalid jobs with every problem named and stores nothing', async () => {
    const t = testCluster();
    const index = t.cluster.store.index;
    expectError(
      () => t.cluster.registerJob({ job: { ID: 'bad job', Type: 'cron', TaskGroups: [] } }),
      400,
      'Job validation failed: Job ID "bad job" contains a space. Invalid job type "cron": expected one of service, batch, sysbatch, system. Missing job task groups.',
    );
    expectError(
      () =>
        t.cluster.registerJob({
          job: { ID: 'x', TaskGroups: [{ Name: 'g', Count: -1, Tasks: [{ Name: 't', Driver: '' }] }] },
        }),
      400,
      /Task group "g" count must be a non-negative integer, got -1\. Task group "g" task "t" is missing a driver\./,
    );
    expectError(
      () => t.cluster.registerJob({ job: serviceJob('r', { Region: 'mars' }) }),
      400,
      'No path to region "mars"',
    );
    expect(t.cluster.store.index).toBe(index);
    await t.cluster.close();
  });

  it('retains the 6 most recent submissions', async () => {
    const t = testCluster();
    for (let i = 0; i < 8; i++)
      t.cluster.registerJob({
        job: serviceJob('web', { Priority: 10 + i }),
        submission: { Format: 'hcl2', Source: `job ${i}` },
      });
    const subs = t.cluster.store.ofJob('submissions', 'default', 'web');
    expect(subs.map((s) => s.Version)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(subs.at(-1)?.Source).toBe('job 7');
    await t.cluster.close();
  });
});

describe('deregisterJob', () => {
  it('stops the job and its allocations, with a job-deregister evaluation', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: serviceJob('web') });
    t.run(500);
    const r = t.cluster.deregisterJob({ namespace: 'default', id: 'web' });
    expect(t.cluster.store.evals.get(r.EvalID)?.TriggeredBy).toBe('job-deregister');
    const job = t.cluster.store.jobs.get(jobKey('default', 'web'));
    expect(job?.Stop).toBe(true);
    t.run(7000);
    const allocs = t.cluster.store.ofJob('allocs', 'default', 'web');
    expect(allocs.every((a) => a.DesiredStatus === 'stop' && a.ClientStatus === 'complete')).toBe(true);
    const states = allocs[0]?.TaskStates?.['server'];
    expect(states?.State).toBe('dead');
    expect(states?.Events.map((e) => e.Type).slice(-2)).toEqual(['Killing', 'Killed']);
    expect(t.cluster.store.jobs.get(jobKey('default', 'web'))?.Status).toBe('dead');
    expect(t.batches.flatMap((b) => b.Events).some((e) => e.Type === 'JobDeregistered')).toBe(true);
    await t.cluster.close();
  });

  it('purges the job at once, and answers 404 for an unknown job', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: serviceJob('web') });
    t.cluster.deregisterJob({ namespace: 'default', id: 'web', purge: true });
    expect(t.cluster.store.jobs.get(jobKey('default', 'web'))).toBeUndefined();
    expect(t.cluster.store.ofJob('jobVersions', 'default', 'web')).toEqual([]);
    expectError(() => t.cluster.deregisterJob({ namespace: 'default', id: 'web' }), 404, 'job not found');
    await t.cluster.close();
  });
});

describe('dispatchJob', () => {
  const param = (payload = 'optional'): Record<string, unknown> =>
    batchJob(
      'report',
      { run_for: '1s' },
      { ParameterizedJob: { Payload: payload, MetaRequired: ['customer'], MetaOptional: ['mode'] } },
    );

  it('creates a child job with the payload and meta, and an evaluation', async () => {
    const t = testCluster();
    const reg = t.cluster.registerJob({ job: param() });
    expect(reg.EvalID).toBe('');
    const r = t.cluster.dispatchJob({
      namespace: 'default',
      id: 'report',
      payload: Buffer.from('hi').toString('base64'),
      meta: { customer: 'acme' },
      idPrefixTemplate: 'nightly',
    });
    expect(r.DispatchedJobID).toMatch(/^report\/dispatch-nightly-\d+-[0-9a-f]{8}$/);
    const child = t.cluster.store.jobs.get(jobKey('default', r.DispatchedJobID));
    expect(child?.ParentID).toBe('report');
    expect(child?.Dispatched).toBe(true);
    expect(child?.Meta?.['customer']).toBe('acme');
    expect(child?.Payload).toBe(Buffer.from('hi').toString('base64'));
    expect(t.cluster.store.evals.get(r.EvalID)?.JobID).toBe(r.DispatchedJobID);
    t.run(3000);
    expect(t.cluster.store.jobs.get(jobKey('default', r.DispatchedJobID))?.Status).toBe('dead');
    expect(t.cluster.store.summaries.get(jobKey('default', 'report'))?.Children.Dead).toBe(1);
    await t.cluster.close();
  });

  it('returns the same child for the same idempotency token', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: param() });
    const a = t.cluster.dispatchJob({
      namespace: 'default',
      id: 'report',
      meta: { customer: 'a' },
      idempotencyToken: 'tok',
    });
    const b = t.cluster.dispatchJob({
      namespace: 'default',
      id: 'report',
      meta: { customer: 'a' },
      idempotencyToken: 'tok',
    });
    expect(b.DispatchedJobID).toBe(a.DispatchedJobID);
    expect(b.EvalID).toBe('');
    await t.cluster.close();
  });

  it.each([
    [{ meta: {} }, 'Dispatch did not provide required meta keys: [customer]'],
    [{ meta: { customer: 'a', color: 'red' } }, 'Dispatch provided unpermitted meta keys: [color]'],
    [
      { meta: { customer: 'a' }, payload: Buffer.alloc(16385).toString('base64') },
      'Payload exceeds maximum size; 16385 > 16384',
    ],
    [{ meta: { customer: 'a' }, payload: '!!!' }, 'Payload must be base64-encoded'],
  ])('rejects %j', async (input, message) => {
    const t = testCluster();
    t.cluster.registerJob({ job: param() });
    const index = t.cluster.store.index;
    expectError(() => t.cluster.dispatchJob({ namespace: 'default', id: 'report', ...input }), 400, message);
    expect(t.cluster.store.index).toBe(index);
    await t.cluster.close();
  });

  it('enforces the payload mode and the parameterized type', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: { ...param('required'), ID: 'req' } });
    t.cluster.registerJob({ job: { ...param('forbidden'), ID: 'forb' } });
    t.cluster.registerJob({ job: serviceJob('plain') });
    expectError(
      () => t.cluster.dispatchJob({ namespace: 'default', id: 'req', meta: { customer: 'a' } }),
      400,
      'Payload is not provided but required',
    );
    expectError(
      () =>
        t.cluster.dispatchJob({ namespace: 'default', id: 'forb', meta: { customer: 'a' }, payload: 'aGk=' }),
      400,
      'Payload is not allowed for this job',
    );
    expectError(
      () => t.cluster.dispatchJob({ namespace: 'default', id: 'plain' }),
      400,
      'Specified job "plain" is not a parameterized job',
    );
    expectError(() => t.cluster.dispatchJob({ namespace: 'default', id: 'nope' }), 404, 'job not found');
    expect(t.cluster.store.jobs.size).toBe(3);
    await t.cluster.close();
  });
});

describe('revertJob and setJobStability', () => {
  it('reverts to an older version as a new version, with check-and-set on the current version', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: serviceJob('web', { Priority: 10 }) });
    t.cluster.registerJob({ job: serviceJob('web', { Priority: 20 }) });
    expectError(
      () => t.cluster.revertJob({ namespace: 'default', id: 'web', version: 0, enforcePriorVersion: 0 }),
      400,
      'Current job has version 1; enforcing version 0',
    );
    expectError(
      () => t.cluster.revertJob({ namespace: 'default', id: 'web', version: 1 }),
      400,
      "can't revert to current version 1",
    );
    expectError(
      () => t.cluster.revertJob({ namespace: 'default', id: 'web', version: 9 }),
      400,
      'job "web" in namespace "default" at version 9 not found',
    );
    const r = t.cluster.revertJob({ namespace: 'default', id: 'web', version: 0, enforcePriorVersion: 1 });
    const job = t.cluster.store.jobs.get(jobKey('default', 'web'));
    expect(job?.Version).toBe(2);
    expect(job?.Priority).toBe(10);
    expect(t.cluster.store.evals.get(r.EvalID)?.TriggeredBy).toBe('job-register');
    await t.cluster.close();
  });

  it('marks a version stable', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: serviceJob('web') });
    t.cluster.setJobStability({ namespace: 'default', id: 'web', version: 0, stable: true });
    expect(t.cluster.store.jobs.get(jobKey('default', 'web'))?.Stable).toBe(true);
    expect(t.cluster.store.ofJob('jobVersions', 'default', 'web')[0]?.Stable).toBe(true);
    expectError(
      () => t.cluster.setJobStability({ namespace: 'default', id: 'web', version: 4, stable: true }),
      400,
      'job "web" in namespace "default" at version 4 not found',
    );
    await t.cluster.close();
  });
});

describe('jobVersions', () => {
  it('lists versions newest first with the diff to the previous one', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: serviceJob('web', { Priority: 10 }) });
    t.cluster.registerJob({ job: serviceJob('web', { Priority: 20, Meta: { team: 'a' } }) });
    const v = t.cluster.jobVersions({ namespace: 'default', id: 'web', diffs: true });
    expect(v.Versions.map((j) => j.Version)).toEqual([1, 0]);
    expect(v.Diffs).toHaveLength(1);
    const d = v.Diffs![0]!;
    expect(d.Type).toBe('Edited');
    expect(d.Fields).toEqual(
      expect.arrayContaining([
        { Type: 'Edited', Name: 'Priority', Old: '10', New: '20', Annotations: null },
        { Type: 'Added', Name: 'Meta[team]', Old: '', New: 'a', Annotations: null },
      ]),
    );
    await t.cluster.close();
  });
});

describe('evaluateJob and forcePeriodic', () => {
  it('evaluates a job, and refuses periodic and parameterized parents', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: serviceJob('web') });
    t.cluster.registerJob({
      job: batchJob('cron', { run_for: '1s' }, { Periodic: { Spec: '*/5 * * * *' } }),
    });
    const r = t.cluster.evaluateJob({ namespace: 'default', id: 'web' });
    expect(t.cluster.store.evals.get(r.EvalID)?.TriggeredBy).toBe('job-register');
    expectError(
      () => t.cluster.evaluateJob({ namespace: 'default', id: 'cron' }),
      400,
      "can't evaluate periodic job",
    );
    const f = t.cluster.forcePeriodic({ namespace: 'default', id: 'cron' });
    const ev = t.cluster.store.evals.get(f.EvalID);
    expect(ev?.TriggeredBy).toBe('periodic-job');
    expect(ev?.JobID).toMatch(/^cron\/periodic-\d+$/);
    expectError(
      () => t.cluster.forcePeriodic({ namespace: 'default', id: 'web' }),
      400,
      "can't force launch non-periodic job",
    );
    await t.cluster.close();
  });
});

describe('planJob', () => {
  it('is a dry run: annotations and diff, nothing stored', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: serviceJob('web') });
    t.run(500);
    const index = t.cluster.store.index;
    const allocsBefore = t.cluster.store.allocs.size;
    const next = serviceJob('web', {}, { Config: { run_for: '1h' } });
    (next['TaskGroups'] as { Count: number }[])[0]!.Count = 3;
    const plan = t.cluster.planJob({ job: next, diff: true });
    expect(t.cluster.store.index).toBe(index);
    expect(t.cluster.store.allocs.size).toBe(allocsBefore);
    expect(t.cluster.store.jobs.get(jobKey('default', 'web'))?.Version).toBe(0);
    // the default update strategy rolls one allocation at a time: one destructive update, one left
    expect(plan.Annotations.DesiredTGUpdates['web']).toMatchObject({
      Place: 1,
      DestructiveUpdate: 1,
      Ignore: 1,
    });
    expect(plan.Diff?.Type).toBe('Edited');
    const tg = plan.Diff?.TaskGroups?.[0];
    expect(tg?.Updates).toEqual({ create: 1, 'create/destroy update': 1, ignore: 1 });
    expect(tg?.Tasks?.[0]?.Annotations).toEqual(['forces create/destroy update']);
    expect(plan.FailedTGAllocs).toBeNull();
    await t.cluster.close();
  });

  it('reports allocations that would not fit', async () => {
    const t = testCluster();
    const big = serviceJob('big', {}, { Resources: { CPU: 3000, MemoryMB: 64 } });
    (big['TaskGroups'] as { Count: number }[])[0]!.Count = 5;
    const plan = t.cluster.planJob({ job: big });
    expect(plan.Annotations.DesiredTGUpdates['web']?.Place).toBe(3);
    expect(plan.FailedTGAllocs?.['web']?.DimensionExhausted).toEqual({ cpu: 3 });
    expect(plan.FailedTGAllocs?.['web']?.CoalescedFailures).toBe(1);
    expect(plan.CreatedEvals?.[0]?.Status).toBe('blocked');
    expect(t.cluster.store.jobs.size).toBe(0);
    await t.cluster.close();
  });
});

describe('periodic jobs', () => {
  it('launches children on the cron schedule, and plans the next launch', async () => {
    const t = testCluster();
    const start = t.clock.now();
    t.cluster.registerJob({
      job: batchJob('tick', { run_for: '1s' }, { Periodic: { Spec: '*/5 * * * *' } }),
    });
    const plan = t.cluster.planJob({
      job: batchJob('tick', { run_for: '1s' }, { Periodic: { Spec: '*/5 * * * *' } }),
    });
    const next = Date.parse(plan.NextPeriodicLaunch!);
    expect(next).toBeGreaterThan(start);
    expect(new Date(next).getUTCMinutes() % 5).toBe(0);
    t.clock.advance(next - start + 5000);
    const children = [...t.cluster.store.jobs.items.values()].filter((j) => j.ParentID === 'tick');
    expect(children).toHaveLength(1);
    t.clock.advance(5 * 60_000);
    expect([...t.cluster.store.jobs.items.values()].filter((j) => j.ParentID === 'tick')).toHaveLength(2);
    t.cluster.deregisterJob({ namespace: 'default', id: 'tick' });
    t.clock.advance(10 * 60_000);
    expect([...t.cluster.store.jobs.items.values()].filter((j) => j.ParentID === 'tick')).toHaveLength(2);
    await t.cluster.close();
  });

  it('rejects an invalid cron spec', async () => {
    const t = testCluster();
    expectError(
      () => t.cluster.registerJob({ job: batchJob('bad', {}, { Periodic: { Spec: '61 * * * *' } }) }),
      400,
      'Job validation failed: Periodic job has an invalid cron spec "61 * * * *": minute value "61" is out of range 0-59.',
    );
    expect(t.cluster.store.jobs.size).toBe(0);
    await t.cluster.close();
  });
});
