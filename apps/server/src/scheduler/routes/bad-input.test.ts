import { beforeAll, describe, expect, it } from 'vitest';
import { ensureOk, eventually, jobInput, startTestServer, type TestServer } from '../../../test/server.js';
import { rawRequest } from '../../../test/raw-http.js';

let t: TestServer;
let allocId: string;
const MAX_BODY = 64 * 1024;

beforeAll(async () => {
  t = await startTestServer({ maxBody: MAX_BODY });
  for (const job of [
    jobInput('bad-svc', { Name: `${'a'.repeat(100)}!` }),
    jobInput('bad-param', { Type: 'batch', ParameterizedJob: { Payload: 'optional' } }),
  ]) {
    const res = await t.request('POST', '/v1/jobs', { body: { Job: job } });
    ensureOk(res);
  }
  const res = await t.request('PUT', '/v1/volume/csi/bad-vol', {
    body: { Volumes: [{ ID: 'bad-vol', PluginID: 'p' }] },
  });
  ensureOk(res);
  allocId = await eventually(async () => {
    const list = (await t.request('GET', '/v1/job/bad-svc/allocations')).json() as { ID: string }[];
    return list[0]?.ID;
  });
});

/** Every endpoint that takes a JSON body. */
const bodyEndpoints = (): [string, 'POST' | 'PUT', string][] => [
  ['create job', 'POST', '/v1/jobs'],
  ['update job', 'POST', '/v1/job/bad-svc'],
  ['parse job', 'POST', '/v1/jobs/parse'],
  ['plan job', 'POST', '/v1/job/bad-svc/plan'],
  ['dispatch job', 'POST', '/v1/job/bad-param/dispatch'],
  ['revert job', 'POST', '/v1/job/bad-svc/revert'],
  ['job stability', 'POST', '/v1/job/bad-svc/stable'],
  ['evaluate job', 'POST', '/v1/job/bad-svc/evaluate'],
  ['signal alloc', 'POST', `/v1/client/allocation/${allocId}/signal`],
  ['restart alloc', 'POST', `/v1/client/allocation/${allocId}/restart`],
  ['register volume', 'PUT', '/v1/volume/csi/new-vol'],
];

describe('malformed and oversized bodies', () => {
  it('answers malformed JSON 400 on every body endpoint and stores nothing', async () => {
    for (const [name, method, url] of bodyEndpoints()) {
      const before = t.index();
      const res = await t.request(method, url, { raw: '{"Job": {"ID": "x",' });
      expect({
        name,
        status: res.statusCode,
        type: res.headers['content-type'],
        body: res.body,
        state: t.index(),
      }).toEqual({
        name,
        status: 400,
        type: 'text/plain; charset=utf-8',
        body: expect.stringMatching(/^Failed to parse the request body as JSON: /),
        state: before,
      });
    }
  });

  it('answers an oversized body 413 on every body endpoint and stores nothing', async () => {
    const huge = JSON.stringify({ Job: jobInput('huge', { Meta: { blob: 'x'.repeat(MAX_BODY) } }) });
    for (const [name, method, url] of bodyEndpoints()) {
      const before = t.index();
      const res = await t.request(method, url, { raw: huge });
      expect({ name, status: res.statusCode, body: res.body, state: t.index() }).toEqual({
        name,
        status: 413,
        body: `Request body is larger than the limit of ${MAX_BODY} bytes`,
        state: before,
      });
    }
  });

  it('answers a body that is not an object 400', async () => {
    for (const [name, method, url] of bodyEndpoints()) {
      const before = t.index();
      const res = await t.request(method, url, { raw: '[1,2,3]' });
      expect({ name, status: res.statusCode, state: t.index() }).toEqual({
        name,
        status: 400,
        state: before,
      });
    }
  });
});

describe('schema violations name the field', () => {
  it.each([
    ['missing Job', 'POST', '/v1/jobs', {}, /Job/],
    ['Job.ID of the wrong type', 'POST', '/v1/jobs', { Job: { ...jobInput('x'), ID: 5 } }, /Job\.ID/],
    [
      'a task group without Name',
      'POST',
      '/v1/jobs',
      { Job: { ...jobInput('x'), TaskGroups: [{ Count: 1, Tasks: [{ Name: 't', Driver: 'mock' }] }] } },
      /TaskGroups\[0\]\.Name|TaskGroups\/0\/Name/,
    ],
    [
      'a string Count',
      'POST',
      '/v1/jobs',
      {
        Job: {
          ...jobInput('x'),
          TaskGroups: [{ Name: 'g', Count: 'x', Tasks: [{ Name: 't', Driver: 'mock' }] }],
        },
      },
      /Count/,
    ],
    [
      'a task without Driver',
      'POST',
      '/v1/jobs',
      { Job: { ...jobInput('x'), TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't' }] }] } },
      /Driver/,
    ],
    // the route is the one place a job's shape is checked: the core takes the typed value
    [
      'a Type outside the job types',
      'POST',
      '/v1/jobs',
      { Job: { ...jobInput('x'), Type: 'cron' } },
      /Job\.Type/,
    ],
    ['a system job', 'POST', '/v1/jobs', { Job: { ...jobInput('x'), Type: 'system' } }, /Job\.Type/],
    [
      'a plan of a Type outside the job types',
      'POST',
      '/v1/job/bad-svc/plan',
      { Job: { ...jobInput('bad-svc'), Type: 'cron' } },
      /Job\.Type/,
    ],
    [
      'EnforceIndex not a bool',
      'POST',
      '/v1/jobs',
      { Job: jobInput('x'), EnforceIndex: 'yes' },
      /EnforceIndex/,
    ],
    ['missing JobHCL', 'POST', '/v1/jobs/parse', {}, /JobHCL/],
    ['plan without Job', 'POST', '/v1/job/bad-svc/plan', { Diff: true }, /Job/],
    ['dispatch Meta not strings', 'POST', '/v1/job/bad-param/dispatch', { Meta: { a: 1 } }, /Meta/],
    ['dispatch Payload not base64', 'POST', '/v1/job/bad-param/dispatch', { Payload: '***' }, /Payload/],
    ['revert without JobID', 'POST', '/v1/job/bad-svc/revert', { JobVersion: 0 }, /JobID/],
    [
      'revert JobVersion a string',
      'POST',
      '/v1/job/bad-svc/revert',
      { JobID: 'bad-svc', JobVersion: 'one' },
      /JobVersion/,
    ],
    ['stable without JobID', 'POST', '/v1/job/bad-svc/stable', { Stable: true }, /JobID/],
    ['evaluate JobID a number', 'POST', '/v1/job/bad-svc/evaluate', { JobID: 7 }, /JobID/],
    ['signal Signal a number', 'POST', '/v1/client/allocation/ALLOC/signal', { Signal: 9 }, /Signal/],
    ['restart Task a bool', 'POST', '/v1/client/allocation/ALLOC/restart', { Task: true }, /Task/],
    ['volume without Volumes', 'PUT', '/v1/volume/csi/new-vol', {}, /Volumes/],
    ['volume without ID', 'PUT', '/v1/volume/csi/new-vol', { Volumes: [{ Name: 'n' }] }, /ID/],
  ] as const)('%s is 400 and stores nothing', async (_name, method, url, body, message) => {
    const before = t.index();
    const res = await t.request(method, url.replace('ALLOC', allocId), { body });
    expect({ status: res.statusCode, body: res.body }).toMatchObject({ status: 400 });
    expect(res.body).toMatch(message);
    expect(t.index()).toBe(before);
  });
});

describe('unknown IDs and identifiers', () => {
  it.each([
    ['GET', '/v1/job/none', 'job not found'],
    ['GET', '/v1/job/none/summary', 'job not found'],
    ['GET', '/v1/job/none/versions', 'job not found'],
    ['POST', '/v1/job/none/dispatch', 'job not found'],
    ['POST', '/v1/job/none/periodic/force', 'job not found'],
    ['DELETE', '/v1/job/none', 'job not found'],
    ['GET', '/v1/allocation/00000000-0000-4000-8000-000000000000', 'alloc not found'],
    ['POST', '/v1/allocation/00000000-0000-4000-8000-000000000000/stop', 'alloc not found'],
    ['GET', '/v1/volume/csi/none', 'volume not found'],
    ['DELETE', '/v1/volume/csi/none', 'volume not found'],
    ['GET', '/v1/nothing/here', 'resource not found'],
  ] as const)('%s %s is 404 %s', async (method, url, message) => {
    const before = t.index();
    const res = await t.request(method, url, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
    expect([res.statusCode, res.body]).toEqual([404, message]);
    expect(t.index()).toBe(before);
  });

  it.each([
    '/v1/allocation/abcd1234',
    '/v1/allocation/abcd1234-0000',
    '/v1/allocation/not-a-uuid-at-all-not-a-uuid-at-all12',
  ])('%s (a short or malformed allocation ID) is 400', async (url) => {
    const res = await t.request('GET', url);
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/^allocation ID must be a full UUID \(36 characters\), not "/);
  });

  it.each([
    ['/v1/allocations?prefix=a', 'Invalid prefix "a": a hex prefix must have an even number of characters'],
    [
      '/v1/allocations?prefix=abcde',
      'Invalid prefix "abcde": a hex prefix must have an even number of characters',
    ],
    [
      '/v1/volumes?type=csi&node_id=f',
      'Invalid node_id "f": a hex prefix must have an even number of characters',
    ],
  ])('%s (odd-length hex) is 400', async (url, message) => {
    const res = await t.request('GET', url);
    expect([res.statusCode, res.body]).toEqual([400, message]);
  });
});

describe('hostile filters', () => {
  const lists = ['/v1/jobs', '/v1/allocations', '/v1/volumes?type=csi'];
  const join = (url: string, filter: string): string =>
    `${url}${url.includes('?') ? '&' : '?'}filter=${encodeURIComponent(filter)}`;

  it('refuses a 1 MB expression with a 400 naming the limit', async () => {
    const filter = `ID == "${'a'.repeat(1024 * 1024)}"`;
    for (const url of lists) {
      const res = await t.request('GET', join(url, filter));
      expect(res.statusCode).toBe(400);
      expect(res.body).toMatch(/^failed to read filter expression: /);
      expect(res.body.length).toBeLessThan(2000);
    }
  });

  it('refuses a 1 MB expression over a real socket too', async () => {
    const filter = encodeURIComponent(`ID == "${'a'.repeat(1024 * 1024)}"`);
    const { status, body } = await rawRequest(t.server.scheduler.url, 'GET', `/v1/jobs?filter=${filter}`);
    expect(status).toBe(400);
    expect(body.toString()).toMatch(/^failed to read filter expression: /);
  });

  it('refuses deep nesting', async () => {
    const filter = `${'('.repeat(10_000)}ID == "x"${')'.repeat(10_000)}`;
    for (const url of lists) {
      const res = await t.request('GET', join(url, filter));
      expect(res.statusCode).toBe(400);
      expect(res.body).toMatch(/^failed to read filter expression: /);
    }
  });

  it('evaluates (a+)+$ in linear time', async () => {
    const started = Date.now();
    const res = await t.request('GET', join('/v1/jobs', 'Name matches "(a+)+$"'));
    expect(Date.now() - started).toBeLessThan(5000);
    expect({ status: res.statusCode, body: res.body }).toMatchObject({ status: 200 });
  });

  it('answers a filter that is not UTF-8 text of the grammar 400', async () => {
    const res = await t.request('GET', `/v1/jobs?filter=${encodeURIComponent('\u0000\u0001 == ')}`);
    expect(res.statusCode).toBe(400);
  });
});

describe('query parameters of writes', () => {
  it.each([
    ['DELETE', '/v1/job/bad-svc?purge=x', 'Failed to parse value of "purge" ("x") as a bool'],
    ['DELETE', '/v1/job/bad-svc?global=x', 'Failed to parse value of "global" ("x") as a bool'],
    [
      'DELETE',
      '/v1/job/bad-svc?eval_priority=x',
      'Failed to parse value of "eval_priority" ("x") as an integer',
    ],
    ['DELETE', '/v1/job/bad-svc?eval_priority=101', 'eval_priority must be between 1 and 100, not 101'],
    ['DELETE', '/v1/volume/csi/bad-vol?force=x', 'Failed to parse value of "force" ("x") as a bool'],
    ['DELETE', '/v1/job/bad-svc?region=mars', 'No path to region "mars"'],
  ] as const)('%s %s is 400', async (method, url, message) => {
    const before = t.index();
    const res = await t.request(method, url);
    expect([res.statusCode, res.body]).toEqual([400, message]);
    expect(t.index()).toBe(before);
  });
});

describe('requests Node cannot take', () => {
  it('answers a 3 MB URL 431 in plain text', async () => {
    const answer = await rawRequest(
      t.server.scheduler.url,
      'GET',
      `/v1/jobs?filter=${'a'.repeat(3 * 1024 * 1024)}`,
    );
    const { status, body } = answer;
    const type = String(answer.headers['content-type']);
    expect({ status, type, body: body.toString() }).toEqual({
      status: 431,
      type: 'text/plain; charset=utf-8',
      body: 'Request line and headers are larger than the limit of 2097152 bytes',
    });
  });
});
