import { beforeAll, describe, expect, it } from 'vitest';
import {
  ensureOk,
  eventually,
  jobInput,
  registerJob,
  startTestServer,
  type TestServer,
} from '../../../test/server.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});

describe('GET /v1/job/:job_id and sub-resources', () => {
  beforeAll(async () => {
    await registerJob(t, jobInput('read-me', { Meta: { v: '1' } }), {
      Submission: { Source: 'job "read-me" {}', Format: 'hcl2', VariableFlags: { a: 'b' } },
    });
  });

  it('reads the full job', async () => {
    const res = await t.request('GET', '/v1/job/read-me');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-svc-knownleader']).toBe('true');
    const job = res.json();
    expect(job).toMatchObject({ ID: 'read-me', Namespace: 'default', Region: 'global', Version: 0 });
    expect(job.TaskGroups[0].Name).toBe('g');
  });

  it('answers 404 "job not found" for an unknown job, and in another namespace', async () => {
    for (const url of ['/v1/job/nope', '/v1/job/read-me?namespace=other', '/v1/job/nope/summary']) {
      const res = await t.request('GET', url);
      expect([res.statusCode, res.body]).toEqual([404, 'job not found']);
    }
  });

  it('reads the submission of a version', async () => {
    const res = await t.request('GET', '/v1/job/read-me/submission?version=0');
    ensureOk(res);
    expect(res.json()).toMatchObject({
      JobID: 'read-me',
      Version: 0,
      Source: 'job "read-me" {}',
      Format: 'hcl2',
    });
    const missing = await t.request('GET', '/v1/job/read-me/submission');
    expect([missing.statusCode, missing.body]).toEqual([400, 'The "version" query parameter is required']);
    const bad = await t.request('GET', '/v1/job/read-me/submission?version=x');
    expect([bad.statusCode, bad.body]).toEqual([
      400,
      'Failed to parse value of "version" ("x") as an integer',
    ]);
    const unknown = await t.request('GET', '/v1/job/read-me/submission?version=9');
    expect([unknown.statusCode, unknown.body]).toEqual([404, 'job source not found']);
  });

  it('lists versions newest first, with diffs on request', async () => {
    await registerJob(t, jobInput('read-me', { Meta: { v: '2' } }));
    const res = await t.request('GET', '/v1/job/read-me/versions?diffs=true');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.Versions.map((v: { Version: number }) => v.Version)).toEqual([1, 0]);
    expect(body.Diffs).toHaveLength(1);
    expect(body.Diffs[0].Type).toBe('Edited');
    expect(body).toMatchObject({ KnownLeader: true, LastContact: 0 });
    const plain = (await t.request('GET', '/v1/job/read-me/versions')).json();
    expect(plain.Diffs).toBeNull();
  });

  it('lists allocations, evaluations, deployments and the summary', async () => {
    const allocs = await eventually(async () => {
      const list = (await t.request('GET', '/v1/job/read-me/allocations')).json() as Record<
        string,
        unknown
      >[];
      return list.length > 0 ? list : undefined;
    });
    expect(allocs[0]).not.toHaveProperty('Job');
    expect(allocs[0]?.['JobID']).toBe('read-me');
    const evals = (await t.request('GET', '/v1/job/read-me/evaluations')).json() as { TriggeredBy: string }[];
    expect(evals.map((e) => e.TriggeredBy)).toContain('job-register');
    const deployments = await t.request('GET', '/v1/job/read-me/deployments');
    expect(deployments.statusCode).toBe(200);
    expect(Array.isArray(deployments.json())).toBe(true);
    const latest = await t.request('GET', '/v1/job/read-me/deployment');
    expect(latest.statusCode).toBe(200);
    const summary = await t.request('GET', '/v1/job/read-me/summary');
    expect(summary.statusCode).toBe(200);
    expect(summary.json()).toMatchObject({ JobID: 'read-me', Namespace: 'default' });
    expect(summary.json().Summary).toHaveProperty('g');
  });

  it('answers empty lists for the sub-resources of an unknown job', async () => {
    for (const path of ['allocations', 'evaluations', 'deployments']) {
      const res = await t.request('GET', `/v1/job/nope/${path}`);
      expect([res.statusCode, res.json()]).toEqual([200, []]);
    }
  });
});

describe('job writes', () => {
  it('updates through POST /v1/job/:job_id and refuses a mismatched ID', async () => {
    await registerJob(t, jobInput('upd'), {}, '/v1/job/upd');
    const before = t.index();
    const res = await t.request('POST', '/v1/job/other-id', { body: { Job: jobInput('upd') } });
    expect([res.statusCode, res.body]).toEqual([
      400,
      'Job ID "upd" does not match the job ID in the path "other-id"',
    ]);
    expect(t.index()).toBe(before);
  });

  it('plans without storing anything', async () => {
    await registerJob(t, jobInput('plan-me'));
    const before = t.index();
    const res = await t.request('POST', '/v1/job/plan-me/plan', {
      body: {
        Job: jobInput('plan-me', { group: { Count: 3 } }),
        Diff: true,
      },
    });
    expect({ status: res.statusCode, body: res.body }).toMatchObject({ status: 200 });
    const plan = res.json();
    expect(plan.Diff.Type).toBe('Edited');
    expect(plan.Annotations.DesiredTGUpdates.g).toBeDefined();
    expect(t.index()).toBe(before);
  });

  it("plans the next periodic launch in the job's TimeZone, and refuses an unknown zone", async () => {
    // Arrange: 03:00 every day in New York (03:00 exists on every day there, DST or not)
    const periodic = (TimeZone: string) =>
      jobInput('nightly', { Type: 'batch', Periodic: { Spec: '0 3 * * *', TimeZone } });
    const hourMinute = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      hourCycle: 'h23',
      hour: '2-digit',
      minute: '2-digit',
    });
    // Act
    const plan = await t.request('POST', '/v1/job/nightly/plan', {
      body: { Job: periodic('America/New_York') },
    });
    const before = t.index();
    const bad = await t.request('PUT', '/v1/jobs', { body: { Job: periodic('America/Gotham') } });
    // Assert
    expect(plan.statusCode).toBe(200);
    const next = Date.parse(plan.json().NextPeriodicLaunch);
    expect(hourMinute.format(next)).toBe('03:00');
    expect(next - Date.now()).toBeGreaterThan(0);
    expect(next - Date.now()).toBeLessThanOrEqual(25 * 3_600_000);
    expect([bad.statusCode, bad.headers['content-type'], bad.body]).toEqual([
      400,
      'text/plain; charset=utf-8',
      'Job validation failed: Periodic job has an invalid Periodic.TimeZone: "America/Gotham" is not a known IANA time zone name (such as "America/New_York" or "UTC").',
    ]);
    expect(t.index()).toBe(before);
  });

  it('dispatches a parameterized job and enforces the payload limit', async () => {
    await registerJob(
      t,
      jobInput('param', {
        Type: 'batch',
        ParameterizedJob: { Payload: 'optional', MetaRequired: ['input'] },
      }),
    );
    const ok = await t.request('POST', '/v1/job/param/dispatch', {
      body: { Payload: Buffer.from('hello').toString('base64'), Meta: { input: 'a.mp4' } },
    });
    expect({ status: ok.statusCode, body: ok.body }).toMatchObject({ status: 200 });
    expect(ok.json().DispatchedJobID).toMatch(/^param\/dispatch-/);
    const child = await t.request('GET', `/v1/job/${encodeURIComponent(ok.json().DispatchedJobID)}`);
    expect(child.statusCode).toBe(200);
    expect(child.json()).toMatchObject({ ParentID: 'param', Dispatched: true });
    expect(ok.json()).toHaveProperty('EvalID');
    const before = t.index();
    const big = await t.request('POST', '/v1/job/param/dispatch', {
      body: { Payload: Buffer.alloc(16_385).toString('base64'), Meta: { input: 'x' } },
    });
    expect(big.statusCode).toBe(400);
    expect(t.index()).toBe(before);
    const missingMeta = await t.request('POST', '/v1/job/param/dispatch', { body: { Meta: {} } });
    expect(missingMeta.statusCode).toBe(400);
    expect(missingMeta.body).toMatch(/input/);
    const notParam = await t.request('POST', '/v1/job/plan-me/dispatch', { body: {} });
    expect(notParam.statusCode).toBe(400);
    const unknown = await t.request('POST', '/v1/job/nope/dispatch', { body: {} });
    expect([unknown.statusCode, unknown.body]).toEqual([404, 'job not found']);
    expect(t.index()).toBe(before);
  });

  it('reverts, with EnforcePriorVersion as check-and-set', async () => {
    await registerJob(t, jobInput('rev', { Meta: { v: '0' } }));
    await registerJob(t, jobInput('rev', { Meta: { v: '1' } }));
    const before = t.index();
    const conflict = await t.request('POST', '/v1/job/rev/revert', {
      body: { JobID: 'rev', JobVersion: 0, EnforcePriorVersion: 5 },
    });
    expect(conflict.statusCode).toBe(400);
    expect(conflict.body).toMatch(/5/);
    expect(t.index()).toBe(before);
    const ok = await t.request('POST', '/v1/job/rev/revert', {
      body: { JobID: 'rev', JobVersion: 0, EnforcePriorVersion: 1 },
    });
    expect({ status: ok.statusCode, body: ok.body }).toMatchObject({ status: 200 });
    expect(ok.json()).toHaveProperty('EvalID');
    const job = (await t.request('GET', '/v1/job/rev')).json();
    expect([job.Version, job.Meta]).toEqual([2, { v: '0' }]);
    const mismatch = await t.request('POST', '/v1/job/rev/revert', {
      body: { JobID: 'other', JobVersion: 0 },
    });
    expect([mismatch.statusCode, mismatch.body]).toEqual([
      400,
      'JobID "other" does not match the job ID in the path "rev"',
    ]);
  });

  it('marks a version stable', async () => {
    await registerJob(t, jobInput('stab'));
    const res = await t.request('POST', '/v1/job/stab/stable', {
      body: { JobID: 'stab', JobVersion: 0, Stable: true },
    });
    expect({ status: res.statusCode, body: res.body }).toMatchObject({ status: 200 });
    expect(res.json()).toHaveProperty('JobModifyIndex');
    expect((await t.request('GET', '/v1/job/stab')).json().Stable).toBe(true);
  });

  it('creates an evaluation, with or without a body', async () => {
    await registerJob(t, jobInput('evalme'));
    const res = await t.request('POST', '/v1/job/evalme/evaluate', {
      body: { JobID: 'evalme', EvalOptions: { ForceReschedule: true } },
    });
    expect({ status: res.statusCode, body: res.body }).toMatchObject({ status: 200 });
    expect(res.json().EvalID).toMatch(/^[0-9a-f-]{36}$/);
    const bare = await t.request('POST', '/v1/job/evalme/evaluate');
    expect({ status: bare.statusCode, body: bare.body }).toMatchObject({ status: 200 });
    const unknown = await t.request('POST', '/v1/job/nope/evaluate', { body: { JobID: 'nope' } });
    expect([unknown.statusCode, unknown.body]).toEqual([404, 'job not found']);
  });

  it('forces a periodic instance', async () => {
    await registerJob(
      t,
      jobInput('cron', { Type: 'batch', Periodic: { Enabled: true, Spec: '0 3 * * *', SpecType: 'cron' } }),
    );
    const res = await t.request('POST', '/v1/job/cron/periodic/force');
    expect({ status: res.statusCode, body: res.body }).toMatchObject({ status: 200 });
    expect(res.json()).toHaveProperty('EvalID');
    expect(res.json()).toHaveProperty('EvalCreateIndex');
    const notPeriodic = await t.request('POST', '/v1/job/stab/periodic/force');
    expect(notPeriodic.statusCode).toBe(400);
  });

  it('stops a job, and purges it', async () => {
    await registerJob(t, jobInput('stopme'));
    const stop = await t.request('DELETE', '/v1/job/stopme');
    expect({ status: stop.statusCode, body: stop.body }).toMatchObject({ status: 200 });
    expect(stop.json()).toHaveProperty('EvalID');
    expect((await t.request('GET', '/v1/job/stopme')).json().Stop).toBe(true);
    const purge = await t.request(
      'DELETE',
      '/v1/job/stopme?purge=true&no_shutdown_delay=true&eval_priority=60',
    );
    expect({ status: purge.statusCode, body: purge.body }).toMatchObject({ status: 200 });
    expect((await t.request('GET', '/v1/job/stopme')).statusCode).toBe(404);
    const unknown = await t.request('DELETE', '/v1/job/nope');
    expect([unknown.statusCode, unknown.body]).toEqual([404, 'job not found']);
    const badPurge = await t.request('DELETE', '/v1/job/stab?purge=perhaps');
    expect([badPurge.statusCode, badPurge.body]).toEqual([
      400,
      'Failed to parse value of "purge" ("perhaps") as a bool',
    ]);
  });

  it('parses HCL to a job without storing it', async () => {
    const before = t.index();
    const hcl =
      'job "parsed" {\n  datacenters = ["dc1"]\n  group "g" {\n    task "t" {\n      driver = "mock"\n    }\n  }\n}\n';
    const res = await t.request('POST', '/v1/jobs/parse', { body: { JobHCL: hcl, Canonicalize: true } });
    expect({ status: res.statusCode, body: res.body }).toMatchObject({ status: 200 });
    const job = res.json();
    expect(job.ID).toBe('parsed');
    expect(job.TaskGroups[0].Tasks[0].Driver).toBe('mock');
    expect(t.index()).toBe(before);
    const broken = await t.request('POST', '/v1/jobs/parse', { body: { JobHCL: 'job "x" {' } });
    expect(broken.statusCode).toBe(400);
  });
});

describe('conventions over a real socket', () => {
  it('frees the waiter of a client that disconnects', async () => {
    const { request: httpRequest } = await import('node:http');
    const watch = t.server.scheduler.cluster.store.volumes.watch;
    const index = watch.current;
    const waitingBefore = watch.waiting;
    const req = httpRequest(`${t.server.scheduler.url}/v1/volumes?type=csi&index=${index}&wait=10m`);
    req.on('error', () => undefined);
    req.end();
    await eventually(() => (watch.waiting > waitingBefore ? true : undefined));
    req.destroy();
    await eventually(() => (watch.waiting === waitingBefore ? true : undefined));
    expect(watch.waiting).toBe(waitingBefore);
  });

  it('gzips and pretty-prints real answers', async () => {
    const res = await fetch(`${t.server.scheduler.url}/v1/job/read-me?pretty`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const text = await res.text();
    expect(text).toMatch(/^\{\n {4}"/);
    expect(JSON.parse(text).ID).toBe('read-me');
  });

  it('answers 404 with the read headers for an unknown job', async () => {
    const res = await t.request('GET', '/v1/job/missing-job');
    expect(res.statusCode).toBe(404);
    expect(Number(res.headers['x-svc-index'])).toBeGreaterThanOrEqual(1);
    expect(res.headers['x-svc-knownleader']).toBe('true');
  });
});
