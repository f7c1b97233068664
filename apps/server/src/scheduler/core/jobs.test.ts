import type { SchedulerJobInput } from '@sked/model';
import { describe, expect, it } from 'vitest';

import { jobKey } from './state/store.js';
import { expectError, serviceJob, testCluster } from './test/helpers.js';

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
    const next = serviceJob('web', { Priority: 80, group: { Count: 5 } });
    const r = t.cluster.registerJob({ job: next, preserveCounts: true, evalPriority: 90 });
    expect(t.cluster.store.jobs.get(jobKey('default', 'web'))?.TaskGroups[0]?.Count).toBe(2);
    expect(t.cluster.store.evals.get(r.EvalID)?.Priority).toBe(90);
    await t.cluster.close();
  });

  it('rejects invalid jobs with every problem named and stores nothing', async () => {
    const t = testCluster();
    const index = t.cluster.store.index;
    // A type outside SchedulerJobType never passes a route (the body schema refuses it, see
    // routes/bad-input.test.ts); a job that skipped validation (JSON as read) still gets the semantic check.
    const untyped: SchedulerJobInput = JSON.parse('{ "ID": "bad job", "Type": "cron", "TaskGroups": [] }');
    expectError(
      () => t.cluster.registerJob({ job: untyped }),
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
