import { describe, expect, it } from 'vitest';
import { ensureOk, eventually, jobInput, startTestServer } from '../../../test/server.js';

describe('PUT /v1/system/gc', () => {
  it('collects a stopped job at once (forced: the age thresholds do not apply) and answers the new index', async () => {
    const t = await startTestServer();
    ensureOk(await t.request('PUT', '/v1/jobs', { body: { Job: jobInput('gone', { Type: 'batch' }) } }));
    ensureOk(await t.request('PUT', '/v1/jobs', { body: { Job: jobInput('kept') } }));
    ensureOk(await t.request('DELETE', '/v1/job/gone'));
    const store = t.server.scheduler.cluster.store;
    // Collectable once everything of the job is finished: its allocations, its evaluations, its status.
    await eventually(() =>
      store
        .ofJob('allocs', 'default', 'gone')
        .every((a) => a.ClientStatus !== 'running' && a.ClientStatus !== 'pending') &&
      store.ofJob('evals', 'default', 'gone').every((e) => e.Status === 'complete') &&
      [...store.jobs.items.values()].find((j) => j.ID === 'gone')?.Status === 'dead'
        ? true
        : undefined,
    );
    const res = await t.request('PUT', '/v1/system/gc');
    expect([res.statusCode, res.body]).toEqual([200, '']);
    expect(Number(res.headers['x-svc-index'])).toBe(store.index);
    const list = (await t.request('GET', '/v1/jobs')).json() as { ID: string }[];
    expect(list.map((j) => j.ID)).toEqual(['kept']);
    expect(store.ofJob('allocs', 'default', 'gone')).toEqual([]);
    expect((await t.request('GET', '/v1/job/gone')).statusCode).toBe(404);
    expect((await t.request('GET', '/v1/job/kept')).statusCode).toBe(200);
  });

  it('needs a management token, and only PUT', async () => {
    const t = await startTestServer({
      acl: true,
      aclConfig: {
        tokens: [
          { name: 'ops', secret: 'ops-secret', management: true },
          { name: 'ci', secret: 'ci-secret', namespaces: { '*': ['submit-job', 'read-job'] } },
        ],
      },
    });
    expect((await t.request('PUT', '/v1/system/gc')).body).toBe('ACL token not found');
    const denied = await t.request('PUT', '/v1/system/gc', { token: 'ci-secret' });
    expect([denied.statusCode, denied.body]).toEqual([403, 'Permission denied']);
    expect((await t.request('PUT', '/v1/system/gc', { token: 'ops-secret' })).statusCode).toBe(200);
    const get = await t.request('GET', '/v1/system/gc', { token: 'ops-secret' });
    expect([get.statusCode, get.body]).toEqual([405, 'Invalid method']);
    const region = await t.request('PUT', '/v1/system/gc?region=mars', { token: 'ops-secret' });
    expect([region.statusCode, region.body]).toEqual([400, 'No path to region "mars"']);
  });
});
