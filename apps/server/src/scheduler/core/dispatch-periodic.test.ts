import type { JobInput } from '@sked/model';
import { describe, expect, it } from 'vitest';

import { decodeDispatchPayload } from './internal/dispatch-payload.js';
import { jobKey } from './state/store.js';
import { batchJob, expectError, serviceJob, testCluster } from './test/helpers.js';

describe('dispatchJob', () => {
  const param = (payload = 'optional'): JobInput =>
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
      payload: decodeDispatchPayload(Buffer.from('hi').toString('base64')),
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
    // the payload is decoded at the edge (the route), the rest is checked by the dispatch itself
    const { payload, ...rest } = input as { payload?: string; meta: Record<string, string> };
    expectError(
      () =>
        t.cluster.dispatchJob({
          namespace: 'default',
          id: 'report',
          ...rest,
          ...(payload === undefined ? {} : { payload: decodeDispatchPayload(payload) }),
        }),
      400,
      message,
    );
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
        t.cluster.dispatchJob({
          namespace: 'default',
          id: 'forb',
          meta: { customer: 'a' },
          payload: decodeDispatchPayload('aGk='),
        }),
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
    const next = serviceJob('web', { group: { Count: 3 } }, { Config: { run_for: '1h' } });
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
    const big = serviceJob('big', { group: { Count: 5 } }, { Resources: { CPU: 3000, MemoryMB: 64 } });
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

  it('launches on the wall clock of its TimeZone across daylight saving changes', async () => {
    // Arrange: 01:30 and 02:30 in New York, around the spring-forward (03-08) and fall-back (11-01) days
    const launchesFrom = async (start: string): Promise<{ next: string | null; launches: string[] }> => {
      // dead children are kept (no job GC within the test's two days), so each launch is counted
      const t = testCluster({ startMs: Date.parse(start), gc: { jobThresholdMs: 7 * 86_400_000 } });
      const periodic = { Spec: '30 1,2 * * *', TimeZone: 'America/New_York' };
      const job = batchJob('nightly', { run_for: '1s' }, { Periodic: periodic });
      const next = t.cluster.planJob({ job }).NextPeriodicLaunch;
      t.cluster.registerJob({ job });
      // Act
      t.clock.advance(2 * 86_400_000);
      const launches = [...t.cluster.store.jobs.items.values()]
        .filter((j) => j.ParentID === 'nightly')
        .map((j) => new Date(Number(/periodic-(\d+)$/.exec(j.ID)?.[1]) * 1000).toISOString())
        .sort();
      await t.cluster.close();
      return { next, launches };
    };

    // Assert
    expect(await launchesFrom('2026-03-07T12:00:00Z')).toEqual({
      next: '2026-03-08T06:30:00.000Z', // 01:30 EST
      launches: [
        '2026-03-08T06:30:00.000Z',
        '2026-03-08T07:00:00.000Z', // 02:30 does not exist that day: once, at 03:00 EDT
        '2026-03-09T05:30:00.000Z', // 01:30 EDT
        '2026-03-09T06:30:00.000Z', // 02:30 EDT
      ],
    });
    expect(await launchesFrom('2026-10-31T12:00:00Z')).toEqual({
      next: '2026-11-01T05:30:00.000Z', // 01:30 EDT
      launches: [
        '2026-11-01T05:30:00.000Z', // 01:30 comes twice that day: launched the first time only
        '2026-11-01T07:30:00.000Z', // 02:30 EST
        '2026-11-02T06:30:00.000Z',
        '2026-11-02T07:30:00.000Z',
      ],
    });
  });

  it('rejects an unknown TimeZone, naming the field', async () => {
    const t = testCluster();
    const periodic = { Spec: '0 3 * * *', TimeZone: 'Europe/Atlantis' };
    expectError(
      () => t.cluster.registerJob({ job: batchJob('bad', {}, { Periodic: periodic }) }),
      400,
      'Job validation failed: Periodic job has an invalid Periodic.TimeZone: "Europe/Atlantis" is not a known IANA time zone name (such as "America/New_York" or "UTC").',
    );
    expect(t.cluster.store.jobs.size).toBe(0);
    await t.cluster.close();
  });
});
