import { beforeAll, describe, expect, it } from 'vitest';
import { ensureOk, jobInput, startTestServer, type TestServer } from '../../../test/server.js';

/**
 * Every write checks the namespace it really writes to against the token: a body naming another
 * namespace than the request is refused (volumes) or checked itself (jobs), and `*` is never a
 * namespace a write can create.
 */

const WRITE = [
  'list-jobs',
  'read-job',
  'submit-job',
  'dispatch-job',
  'csi-list-volume',
  'csi-read-volume',
  'csi-write-volume',
];
const tokens = {
  tokens: [
    { name: 'ops', secret: 'ops-secret', management: true },
    { name: 'default-only', secret: 'default-secret', namespaces: { default: WRITE } },
    { name: 'team-a-only', secret: 'team-a-secret', namespaces: { 'team-a': WRITE } },
  ],
};
const OPS = 'ops-secret';
const DEFAULT_ONLY = 'default-secret';
const TEAM_A_ONLY = 'team-a-secret';

let t: TestServer;

const volume = (id: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  Volumes: [{ ID: id, PluginID: 'plugin', ...extra }],
});

/** Sends a write and checks its status and that the stored state did not change. */
async function refused(
  method: 'POST' | 'PUT' | 'DELETE',
  url: string,
  token: string,
  status: number,
  body?: unknown,
): Promise<string> {
  const before = t.index();
  const res = await t.request(method, url, { token, ...(body === undefined ? {} : { body }) });
  expect({ method, url, status: res.statusCode, body: res.body }).toMatchObject({ status });
  expect({ url, state: t.index() }).toEqual({ url, state: before });
  return res.body;
}

beforeAll(async () => {
  t = await startTestServer({ acl: true, aclConfig: tokens });
  for (const namespace of ['default', 'team-a']) {
    const params = `?namespace=${namespace}`;
    const jobs = [
      jobInput('web', { Namespace: namespace }),
      jobInput('param', { Namespace: namespace, Type: 'batch', ParameterizedJob: {} }),
      jobInput('cron', { Namespace: namespace, Type: 'batch', Periodic: { Spec: '0 0 1 1 *' } }),
    ];
    for (const job of jobs) ensureOk(await t.request('POST', '/v1/jobs', { body: { Job: job }, token: OPS }));
    ensureOk(
      await t.request('POST', `/v1/job/web${params}`, {
        body: { Job: jobInput('web', { Namespace: namespace, Meta: { v: '2' } }) },
        token: OPS,
      }),
    );
    ensureOk(await t.request('PUT', `/v1/volume/csi/vol${params}`, { body: volume('vol'), token: OPS }));
  }
});

describe('volume registration', () => {
  it('refuses a body namespace other than the request namespace, whatever the token', async () => {
    const body = volume('sneaky', { Namespace: 'team-a' });
    const message = await refused('PUT', '/v1/volume/csi/sneaky', DEFAULT_ONLY, 400, body);
    expect(message).toBe('Volume "sneaky" namespace "team-a" does not match the request namespace "default"');
    await refused('POST', '/v1/volume/csi/sneaky', OPS, 400, body);
    await refused('PUT', '/v1/volume/csi/sneaky?namespace=team-a', TEAM_A_ONLY, 400, {
      Volumes: [{ ID: 'sneaky', PluginID: 'p', Namespace: 'default' }],
    });
    const read = await t.request('GET', '/v1/volume/csi/sneaky?namespace=team-a', { token: OPS });
    expect(read.statusCode).toBe(404);
  });

  it("checks the token against the request's namespace, and stores a volume there", async () => {
    await refused('PUT', '/v1/volume/csi/mine', TEAM_A_ONLY, 403, volume('mine'));
    const stored = await t.request('PUT', '/v1/volume/csi/mine?namespace=team-a', {
      body: volume('mine', { Namespace: 'team-a' }),
      token: TEAM_A_ONLY,
    });
    expect(stored.statusCode).toBe(200);
    const absent = await t.request('PUT', '/v1/volume/csi/mine2?namespace=team-a', {
      body: volume('mine2'),
      token: TEAM_A_ONLY,
    });
    expect(absent.statusCode).toBe(200);
    const list = await t.request('GET', '/v1/volumes?type=csi&namespace=team-a', { token: TEAM_A_ONLY });
    expect((list.json() as { ID: string; Namespace: string }[]).map((v) => `${v.Namespace}/${v.ID}`)).toEqual(
      ['team-a/mine', 'team-a/mine2', 'team-a/vol'],
    );
  });

  it('deregister and detach check the request namespace', async () => {
    expect(await refused('DELETE', '/v1/volume/csi/vol', TEAM_A_ONLY, 403)).toBe('Permission denied');
    expect(await refused('DELETE', '/v1/volume/csi/vol/detach?node=00', TEAM_A_ONLY, 403)).toBe(
      'Permission denied',
    );
  });
});

describe('job writes with a token limited to one namespace', () => {
  it('register: the namespace written in the job is the one checked', async () => {
    // the job names team-a, the request names none: the job's namespace wins and is checked
    await refused('POST', '/v1/jobs', DEFAULT_ONLY, 403, { Job: jobInput('x', { Namespace: 'team-a' }) });
    await refused('PUT', '/v1/job/x', DEFAULT_ONLY, 403, { Job: jobInput('x', { Namespace: 'team-a' }) });
    // the request names default explicitly, the job team-a: refused, never silently one of them
    const message = await refused('POST', '/v1/jobs?namespace=default', DEFAULT_ONLY, 400, {
      Job: jobInput('x', { Namespace: 'team-a' }),
    });
    expect(message).toBe('Job namespace "team-a" does not match the request namespace "default"');
    await refused('POST', '/v1/jobs?namespace=team-a', DEFAULT_ONLY, 403, { Job: jobInput('x') });
    await refused('POST', '/v1/job/web/plan', DEFAULT_ONLY, 403, {
      Job: jobInput('web', { Namespace: 'team-a' }),
    });
    const ok = await t.request('POST', '/v1/jobs', {
      body: { Job: jobInput('x', { Namespace: 'team-a' }) },
      token: TEAM_A_ONLY,
    });
    expect(ok.statusCode).toBe(200);
    const read = await t.request('GET', '/v1/job/x?namespace=team-a', { token: TEAM_A_ONLY });
    expect(read.json()).toMatchObject({ ID: 'x', Namespace: 'team-a' });
  });

  it.each([
    ['POST', '/v1/job/param/dispatch', {}],
    ['POST', '/v1/job/web/revert', { JobID: 'web', JobVersion: 0 }],
    ['POST', '/v1/job/web/stable', { JobID: 'web', JobVersion: 1, Stable: true }],
    ['POST', '/v1/job/web/evaluate', { JobID: 'web' }],
    ['POST', '/v1/job/cron/periodic/force', undefined],
    ['DELETE', '/v1/job/web?purge=true', undefined],
  ] as const)('%s %s is checked in the request namespace', async (method, url, body) => {
    const sep = url.includes('?') ? '&' : '?';
    const messages = [
      await refused(method, url, TEAM_A_ONLY, 403, body),
      await refused(method, `${url}${sep}namespace=default`, TEAM_A_ONLY, 403, body),
      await refused(method, `${url}${sep}namespace=team-a`, DEFAULT_ONLY, 403, body),
    ];
    expect(messages).toEqual(['Permission denied', 'Permission denied', 'Permission denied']);
  });
});

describe('a write naming the namespace *', () => {
  it.each([
    ['POST', '/v1/jobs?namespace=*', { Job: jobInput('star') }],
    ['PUT', '/v1/jobs', { Job: jobInput('star', { Namespace: '*' }) }],
    ['POST', '/v1/job/star?namespace=*', { Job: jobInput('star') }],
    ['POST', '/v1/job/web/plan?namespace=*', { Job: jobInput('web') }],
    ['POST', '/v1/job/param/dispatch?namespace=*', {}],
    ['POST', '/v1/job/web/revert?namespace=*', { JobID: 'web', JobVersion: 0 }],
    ['POST', '/v1/job/web/stable?namespace=*', { JobID: 'web', JobVersion: 1, Stable: true }],
    ['POST', '/v1/job/web/evaluate?namespace=*', { JobID: 'web' }],
    ['POST', '/v1/job/cron/periodic/force?namespace=*', undefined],
    ['DELETE', '/v1/job/web?namespace=*', undefined],
    ['PUT', '/v1/volume/csi/star?namespace=*', volume('star')],
    ['POST', '/v1/volume/csi/star', volume('star', { Namespace: '*' })],
    ['DELETE', '/v1/volume/csi/vol?namespace=*', undefined],
    ['DELETE', '/v1/volume/csi/vol/detach?namespace=*&node=00', undefined],
  ] as const)('%s %s is 400 and stores nothing', async (method, url, body) => {
    const message = await refused(method, url, OPS, 400, body);
    expect(message).toMatch(/namespace "\*"/);
  });

  it('leaves no namespace named * behind', async () => {
    const jobs = await t.request('GET', '/v1/jobs?namespace=*', { token: OPS });
    const volumes = await t.request('GET', '/v1/volumes?type=csi&namespace=*', { token: OPS });
    const namespaces = [
      ...(jobs.json() as { Namespace: string }[]),
      ...(volumes.json() as { Namespace: string }[]),
    ];
    expect(namespaces.map((item) => item.Namespace)).not.toContain('*');
  });
});
