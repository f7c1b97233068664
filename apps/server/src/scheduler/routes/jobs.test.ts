import { beforeAll, describe, expect, it } from 'vitest';
import { ensureOk, eventually, jobInput, startTestServer, type TestServer } from '../../../test/server.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});

async function register(
  job: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  url = '/v1/jobs',
): Promise<Record<string, unknown>> {
  const res = await t.request('POST', url, { body: { Job: job, ...extra } });
  expect({ status: res.statusCode, body: res.body }).toMatchObject({ status: 200 });
  return res.json();
}

describe('POST /v1/jobs', () => {
  it('registers a job and answers the register response with headers', async () => {
    const before = t.server.scheduler.cluster.store.index;
    const res = await t.request('POST', '/v1/jobs', { body: { Job: jobInput('reg-1') } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body).toMatchObject({ KnownLeader: true, LastContact: 0, Warnings: '' });
    expect(body.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.EvalCreateIndex).toBeGreaterThan(before);
    expect(body.JobModifyIndex).toBeGreaterThan(before);
    expect(body.Index).toBeGreaterThan(before);
    expect(Number(res.headers['x-svc-index'])).toBeGreaterThan(before);
  });

  it('accepts PUT as well', async () => {
    const res = await t.request('PUT', '/v1/jobs', { body: { Job: jobInput('reg-put') } });
    expect(res.statusCode).toBe(200);
  });

  it('enforces the index as check-and-set and stores nothing on conflict', async () => {
    const first = await register(jobInput('cas'), { EnforceIndex: true, JobModifyIndex: 0 });
    const before = t.index();
    const conflict = await t.request('POST', '/v1/jobs', {
      body: { Job: jobInput('cas', { Meta: { v: '2' } }), EnforceIndex: true, JobModifyIndex: 1 },
    });
    expect(conflict.statusCode).toBe(400);
    expect(conflict.body).toMatch(/index/i);
    expect(t.index()).toBe(before);
    const ok = await t.request('POST', '/v1/jobs', {
      body: {
        Job: jobInput('cas', { Meta: { v: '2' } }),
        EnforceIndex: true,
        JobModifyIndex: first.JobModifyIndex,
      },
    });
    expect({ status: ok.statusCode, body: ok.body }).toMatchObject({ status: 200 });
  });

  it('refuses a job of another region', async () => {
    const res = await t.request('POST', '/v1/jobs', {
      body: { Job: jobInput('elsewhere', { Region: 'mars' }) },
    });
    expect([res.statusCode, res.body]).toEqual([400, 'No path to region "mars"']);
  });
});

describe('GET /v1/jobs', () => {
  beforeAll(async () => {
    for (const [id, team] of [
      ['list-a', 'red'],
      ['list-b', 'blue'],
      ['list-c', 'red'],
      ['list-d', 'red'],
      ['list-e', 'blue'],
    ] as const) {
      await register(jobInput(id, { Meta: { team }, Priority: team === 'red' ? 70 : 50 }));
    }
    await register(jobInput('list-other', { Namespace: 'other', Meta: { team: 'red' } }));
  });

  it('lists job list items of the namespace with the read headers', async () => {
    const res = await t.request('GET', '/v1/jobs?prefix=list-');
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['x-svc-index'])).toBeGreaterThanOrEqual(1);
    expect(res.headers['x-svc-lastcontact']).toBe('0');
    expect(res.headers['x-svc-knownleader']).toBe('true');
    const items = res.json() as Record<string, unknown>[];
    expect(items.map((i) => i['ID'])).toEqual(['list-a', 'list-b', 'list-c', 'list-d', 'list-e']);
    const item = items[0] ?? {};
    for (const field of [
      'ID',
      'ParentID',
      'Name',
      'Namespace',
      'Type',
      'Priority',
      'Status',
      'StatusDescription',
      'Datacenters',
      'Multiregion',
      'ParameterizedJob',
      'Periodic',
      'Stop',
      'SubmitTime',
      'JobSummary',
      'CreateIndex',
      'ModifyIndex',
      'JobModifyIndex',
    ]) {
      expect(item).toHaveProperty(field);
    }
    expect(item).not.toHaveProperty('Meta');
    expect(item).not.toHaveProperty('TaskGroups');
  });

  it('adds Meta with meta=true', async () => {
    const items = (await t.request('GET', '/v1/jobs?prefix=list-a&meta=true')).json();
    expect(items[0].Meta).toEqual({ team: 'red' });
  });

  it('lists every namespace with namespace=*', async () => {
    const items = (await t.request('GET', '/v1/jobs?namespace=*')).json() as {
      ID: string;
      Namespace: string;
    }[];
    expect(items.some((i) => i.ID === 'list-other' && i.Namespace === 'other')).toBe(true);
    expect(items.some((i) => i.ID === 'list-a')).toBe(true);
    const other = (await t.request('GET', '/v1/jobs?namespace=other')).json() as { ID: string }[];
    expect(other.map((i) => i.ID)).toEqual(['list-other']);
  });

  it('filters on the full stored job, not the list item', async () => {
    const res = await t.request(
      'GET',
      `/v1/jobs?filter=${encodeURIComponent('Priority == 70 and TaskGroups is not empty')}`,
    );
    ensureOk(res);
    expect((res.json() as { ID: string }[]).map((i) => i.ID)).toEqual(['list-a', 'list-c', 'list-d']);
  });

  it('pages through a filtered list, exactly the filtered set', async () => {
    const filter = encodeURIComponent('Priority == 70');
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = await t.request(
        'GET',
        `/v1/jobs?per_page=1&filter=${filter}${token === undefined ? '' : `&next_token=${encodeURIComponent(token)}`}`,
      );
      expect(res.statusCode).toBe(200);
      const items = res.json() as { ID: string }[];
      expect(items.length).toBeLessThanOrEqual(1);
      seen.push(...items.map((i) => i.ID));
      token = res.headers['x-svc-nexttoken'] as string | undefined;
      expect(token ?? 'default.end').toMatch(/^default\./);
      pages++;
    } while (token !== undefined && pages < 20);
    expect(seen).toEqual(['list-a', 'list-c', 'list-d']);
    expect(pages).toBe(3);
  });

  it('gives the first item of the next page as the token, and reverses', async () => {
    const first = await t.request('GET', '/v1/jobs?prefix=list-&per_page=2');
    expect(first.headers['x-svc-nexttoken']).toBe('default.list-c');
    const reversed = (await t.request('GET', '/v1/jobs?prefix=list-&reverse=true')).json() as {
      ID: string;
    }[];
    expect(reversed.map((i) => i.ID)).toEqual(['list-e', 'list-d', 'list-c', 'list-b', 'list-a']);
    const last = await t.request('GET', '/v1/jobs?prefix=list-&per_page=5');
    expect(last.headers['x-svc-nexttoken']).toBeUndefined();
  });

  it.each([
    ['filter=a%20%3D%3D&prefix=x', 'Filter expression cannot be used with other filter parameters'],
    ['per_page=abc', 'Expect a number for `per_page` query string parameter'],
    ['per_page=-1', 'Expect a number for `per_page` query string parameter'],
    ['index=x', 'Invalid index'],
    ['index=1&wait=soon', 'Invalid wait time'],
    ['region=mars', 'No path to region "mars"'],
    ['meta=maybe', 'Failed to parse value of "meta" ("maybe") as a bool'],
  ])('?%s is 400 %s', async (query, message) => {
    const res = await t.request('GET', `/v1/jobs?${query}`);
    expect([res.statusCode, res.body]).toEqual([400, message]);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('reports a filter that does not parse, one naming an unknown field and one that fails on an item', async () => {
    const syntax = await t.request('GET', `/v1/jobs?filter=${encodeURIComponent('Meta.team ==')}`);
    expect(syntax.statusCode).toBe(400);
    expect(syntax.body).toMatch(/^failed to read filter expression: .*\d+:\d+/);
    const unknown = await t.request('GET', `/v1/jobs?filter=${encodeURIComponent('Nothere == 1')}`);
    expect([unknown.statusCode, unknown.body]).toEqual([
      400,
      expect.stringMatching(/^failed to read filter expression: 1:1: .*"Nothere"/),
    ]);
    // Periodic is a struct that is null on a job that is not periodic: going through it fails
    const evaluation = await t.request(
      'GET',
      `/v1/jobs?filter=${encodeURIComponent('Periodic.Spec == "x"')}`,
    );
    expect(evaluation.statusCode).toBe(400);
    expect(evaluation.body).toMatch(/^failed to read result page: /);
  });

  it('answers 405 for a verb the path does not take', async () => {
    const res = await t.request('PATCH', '/v1/jobs');
    expect([res.statusCode, res.body]).toEqual([405, 'Invalid method']);
  });
});

describe('blocking queries', () => {
  it('a write wakes a waiting query', async () => {
    const list = await t.request('GET', '/v1/volumes?type=csi');
    const index = Number(list.headers['x-svc-index']);
    const pending = t.request('GET', `/v1/volumes?type=csi&index=${index}&wait=5m`);
    let settled = false;
    void pending.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false);
    const put = await t.request('PUT', '/v1/volume/csi/wake-me', {
      body: { Volumes: [{ ID: 'wake-me', PluginID: 'p' }] },
    });
    expect({ status: put.statusCode, body: put.body }).toMatchObject({ status: 200 });
    const res = await pending;
    expect(Number(res.headers['x-svc-index'])).toBeGreaterThan(index);
    expect((res.json() as { ID: string }[]).map((v) => v.ID)).toContain('wake-me');
  });

  it('a new job wakes a waiting job list', async () => {
    const list = await t.request('GET', '/v1/jobs');
    const index = Number(list.headers['x-svc-index']);
    const pending = t.request('GET', `/v1/jobs?index=${index}&wait=5m`);
    await register(jobInput('wake-me'));
    const res = await pending;
    expect(Number(res.headers['x-svc-index'])).toBeGreaterThan(index);
    const again = (await t.request('GET', '/v1/jobs')).json() as { ID: string }[];
    expect(again.map((i) => i.ID)).toContain('wake-me');
  });

  it('wait=1s answers after about a second with the same index', async () => {
    const volumes = await t.request('GET', '/v1/volumes?type=csi');
    const index = Number(volumes.headers['x-svc-index']);
    const started = Date.now();
    const res = await t.request('GET', `/v1/volumes?type=csi&index=${index}&wait=1s`);
    const elapsed = Date.now() - started;
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['x-svc-index'])).toBe(index);
    expect(elapsed).toBeGreaterThanOrEqual(950);
    // 1 s plus up to 1/16 s of jitter; generous above for a loaded machine.
    expect(elapsed).toBeLessThan(3000);
  });

  it('a write to another table does not wake a watcher of volumes', async () => {
    const volumes = await t.request('GET', '/v1/volumes?type=csi');
    const index = Number(volumes.headers['x-svc-index']);
    const pending = t.request('GET', `/v1/volumes?type=csi&index=${index}&wait=1s`);
    await register(jobInput('other-table'));
    const res = await pending;
    expect(Number(res.headers['x-svc-index'])).toBe(index);
  });
});

describe('GET /v1/job/:job_id and sub-resources', () => {
  beforeAll(async () => {
    await register(jobInput('read-me', { Meta: { v: '1' } }), {
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
    await register(jobInput('read-me', { Meta: { v: '2' } }));
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
    await register(jobInput('upd'), {}, '/v1/job/upd');
    const before = t.index();
    const res = await t.request('POST', '/v1/job/other-id', { body: { Job: jobInput('upd') } });
    expect([res.statusCode, res.body]).toEqual([
      400,
      'Job ID "upd" does not match the job ID in the path "other-id"',
    ]);
    expect(t.index()).toBe(before);
  });

  it('plans without storing anything', async () => {
    await register(jobInput('plan-me'));
    const before = t.index();
    const res = await t.request('POST', '/v1/job/plan-me/plan', {
      body: {
        Job: jobInput('plan-me', {
          TaskGroups: [
            { Name: 'g', Count: 3, Tasks: [{ Name: 't', Driver: 'mock', Config: { run_for: '1h' } }] },
          ],
        }),
        Diff: true,
      },
    });
    expect({ status: res.statusCode, body: res.body }).toMatchObject({ status: 200 });
    const plan = res.json();
    expect(plan.Diff.Type).toBe('Edited');
    expect(plan.Annotations.DesiredTGUpdates.g).toBeDefined();
    expect(t.index()).toBe(before);
  });

  it('dispatches a parameterized job and enforces the payload limit', async () => {
    await register(
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
    await register(jobInput('rev', { Meta: { v: '0' } }));
    await register(jobInput('rev', { Meta: { v: '1' } }));
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
    await register(jobInput('stab'));
    const res = await t.request('POST', '/v1/job/stab/stable', {
      body: { JobID: 'stab', JobVersion: 0, Stable: true },
    });
    expect({ status: res.statusCode, body: res.body }).toMatchObject({ status: 200 });
    expect(res.json()).toHaveProperty('JobModifyIndex');
    expect((await t.request('GET', '/v1/job/stab')).json().Stable).toBe(true);
  });

  it('creates an evaluation, with or without a body', async () => {
    await register(jobInput('evalme'));
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
    await register(
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
    await register(jobInput('stopme'));
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
