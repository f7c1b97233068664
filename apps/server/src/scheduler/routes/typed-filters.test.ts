import { beforeAll, describe, expect, it } from 'vitest';
import { ensureOk, eventually, jobInput, startTestServer, type TestServer } from '../../../test/server.js';

/**
 * BEHAVIOUR.md "Filtering": the filter sees the stored objects as the service's typed records
 * (the model's Job, Allocation and CsiVolume schemas): a null map or list is empty, a field the
 * type does not have is a 400 at compile time naming it and its position, integers compare as
 * integers.
 */

let t: TestServer;

const list = async (
  path: string,
  filter: string,
): Promise<{ status: number; body: string; ids: string[] }> => {
  const sep = path.includes('?') ? '&' : '?';
  const res = await t.request('GET', `${path}${sep}filter=${encodeURIComponent(filter)}`);
  const ids = res.statusCode === 200 ? (res.json() as { ID: string }[]).map((item) => item.ID).sort() : [];
  return { status: res.statusCode, body: res.body, ids };
};

beforeAll(async () => {
  t = await startTestServer();
  // 'bare' has Meta: null and Datacenters given; 'tagged' has Meta
  ensureOk(await t.request('POST', '/v1/jobs', { body: { Job: jobInput('bare') } }));
  ensureOk(
    await t.request('POST', '/v1/jobs', {
      body: { Job: jobInput('tagged', { Meta: { team: 'frontend' } }) },
    }),
  );
  ensureOk(
    await t.request('PUT', '/v1/volume/csi/vol', {
      body: { Volumes: [{ ID: 'vol', PluginID: 'aws-ebs' }] },
    }),
  );
  await eventually(async () => {
    const allocs = (await t.request('GET', '/v1/allocations')).json() as unknown[];
    return allocs.length >= 2 ? allocs : undefined;
  });
});

describe('typed filters on GET /v1/jobs', () => {
  it('read a null Meta as an empty map for every operator', async () => {
    expect(await list('/v1/jobs', 'Meta.team == "frontend"')).toMatchObject({ status: 200, ids: ['tagged'] });
    expect(await list('/v1/jobs', 'Meta.team != "frontend"')).toMatchObject({ status: 200, ids: ['bare'] });
    expect(await list('/v1/jobs', 'Meta is empty')).toMatchObject({ status: 200, ids: ['bare'] });
    expect(await list('/v1/jobs', '"team" in Meta')).toMatchObject({ status: 200, ids: ['tagged'] });
    expect(await list('/v1/jobs', 'any Meta as k, v { v == "frontend" }')).toMatchObject({ ids: ['tagged'] });
    expect(await list('/v1/jobs', 'all Meta as k, v { v == "frontend" }')).toMatchObject({
      ids: ['bare', 'tagged'],
    });
  });

  it('refuse a field the Job does not have at compile time, with its position and a suggestion', async () => {
    const res = await list('/v1/jobs', 'Type == "service" and Prioirty == 50');
    expect(res.status).toBe(400);
    expect(res.body).toMatch(/^failed to read filter expression: 1:23: .*"Prioirty".*"Priority"/);
  });

  it('compare an integer field as the service does', async () => {
    expect(await list('/v1/jobs', 'Priority == "0x32"')).toMatchObject({
      status: 200,
      ids: ['bare', 'tagged'],
    });
    const float = await list('/v1/jobs', 'Priority == 50.5');
    expect([float.status, float.body]).toEqual([400, expect.stringMatching(/^failed to read result page: /)]);
  });
});

describe('typed filters on allocations and volumes', () => {
  it('filter allocations as the model Allocation (with its Job)', async () => {
    const byJobMeta = await list('/v1/allocations', 'Job.Meta.team == "frontend"');
    expect(byJobMeta.status).toBe(200);
    expect(byJobMeta.ids).toHaveLength(1);
    const unknown = await list('/v1/allocations', 'ClientStatuss == "running"');
    expect([unknown.status, unknown.body]).toEqual([
      400,
      expect.stringMatching(/^failed to read filter expression: 1:1: .*"ClientStatus"/),
    ]);
  });

  it('filter volumes as the model CsiVolume', async () => {
    expect(await list('/v1/volumes?type=csi', 'Topologies is empty')).toMatchObject({
      status: 200,
      ids: ['vol'],
    });
    const unknown = await list('/v1/volumes?type=csi', 'PluginId == "aws-ebs"');
    expect([unknown.status, unknown.body]).toEqual([
      400,
      expect.stringMatching(/^failed to read filter expression: 1:1: .*"PluginID"/),
    ]);
  });
});
