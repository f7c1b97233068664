import { beforeAll, describe, expect, it } from 'vitest';
import { ensureOk, eventually, jobInput, startTestServer, type TestServer } from '../../../test/server.js';

let t: TestServer;

const tokens = {
  tokens: [
    { name: 'ops', secret: 'ops-secret', management: true },
    { name: 'reader', secret: 'reader-secret', namespaces: { default: ['list-jobs', 'read-job'] } },
    {
      name: 'writer',
      secret: 'writer-secret',
      namespaces: { default: ['list-jobs', 'read-job', 'submit-job'] },
    },
    { name: 'teams', secret: 'teams-secret', namespaces: { 'team-*': ['list-jobs', 'read-job'] } },
    {
      name: 'volumes',
      secret: 'volumes-secret',
      namespaces: { default: ['csi-list-volume', 'csi-read-volume'] },
    },
    { name: 'parser', secret: 'parser-secret', namespaces: { default: ['parse-job'] } },
    {
      name: 'lifecycle',
      secret: 'lifecycle-secret',
      namespaces: { default: ['read-job', 'alloc-lifecycle'] },
    },
  ],
};

beforeAll(async () => {
  t = await startTestServer({ acl: true, aclConfig: tokens });
  for (const [id, ns] of [
    ['a', 'default'],
    ['b', 'team-x'],
    ['c', 'secret'],
  ] as const) {
    const res = await t.request('POST', '/v1/jobs', {
      body: { Job: jobInput(id, { Namespace: ns }) },
      token: 'ops-secret',
    });
    ensureOk(res);
  }
});

describe('ACL enforcement', () => {
  it('answers 403 "ACL token not found" without a token or with an unknown one', async () => {
    for (const headers of [{}, { 'x-svc-token': 'nope' }, { authorization: 'Bearer nope' }]) {
      const res = await t.request('GET', '/v1/jobs', { headers });
      expect([res.statusCode, res.body]).toEqual([403, 'ACL token not found']);
    }
  });

  it('accepts X-Svc-Token and Authorization: Bearer', async () => {
    expect((await t.request('GET', '/v1/jobs', { token: 'reader-secret' })).statusCode).toBe(200);
    expect(
      (await t.request('GET', '/v1/jobs', { headers: { authorization: 'Bearer reader-secret' } })).statusCode,
    ).toBe(200);
  });

  it('answers 403 "Permission denied" without the capability, storing nothing', async () => {
    const before = t.index();
    const res = await t.request('POST', '/v1/jobs', {
      body: { Job: jobInput('denied') },
      token: 'reader-secret',
    });
    expect([res.statusCode, res.body]).toEqual([403, 'Permission denied']);
    expect(t.index()).toBe(before);
    const other = await t.request('GET', '/v1/job/b?namespace=team-x', { token: 'reader-secret' });
    expect([other.statusCode, other.body]).toEqual([403, 'Permission denied']);
    const volumes = await t.request('GET', '/v1/volumes?type=csi', { token: 'reader-secret' });
    expect([volumes.statusCode, volumes.body]).toEqual([403, 'Permission denied']);
  });

  it('lets a token with submit-job register', async () => {
    const res = await t.request('POST', '/v1/jobs', {
      body: { Job: jobInput('allowed') },
      token: 'writer-secret',
    });
    expect({ status: res.statusCode, body: res.body }).toMatchObject({ status: 200 });
  });

  it('skips namespaces the token may not read with namespace=*', async () => {
    const all = (await t.request('GET', '/v1/jobs?namespace=*', { token: 'ops-secret' })).json() as {
      ID: string;
    }[];
    expect(all.map((j) => j.ID).sort()).toEqual(['a', 'allowed', 'b', 'c']);
    const teams = (await t.request('GET', '/v1/jobs?namespace=*', { token: 'teams-secret' })).json() as {
      ID: string;
    }[];
    expect(teams.map((j) => j.ID)).toEqual(['b']);
    const noList = await t.request('GET', '/v1/jobs?namespace=*', { token: 'volumes-secret' });
    expect([noList.statusCode, noList.body]).toEqual([403, 'Permission denied']);
  });

  it('matches namespace globs', async () => {
    expect((await t.request('GET', '/v1/job/b?namespace=team-x', { token: 'teams-secret' })).statusCode).toBe(
      200,
    );
    expect((await t.request('GET', '/v1/job/c?namespace=secret', { token: 'teams-secret' })).statusCode).toBe(
      403,
    );
  });

  it('checks volume capabilities', async () => {
    expect((await t.request('GET', '/v1/volumes?type=csi', { token: 'volumes-secret' })).statusCode).toBe(
      200,
    );
    const put = await t.request('PUT', '/v1/volume/csi/v1', {
      body: { Volumes: [{ ID: 'v1' }] },
      token: 'volumes-secret',
    });
    expect([put.statusCode, put.body]).toEqual([403, 'Permission denied']);
  });

  it('lets parse-job alone parse', async () => {
    const hcl = 'job "p" {\n  group "g" {\n    task "t" {\n      driver = "mock"\n    }\n  }\n}\n';
    const ok = await t.request('POST', '/v1/jobs/parse', { body: { JobHCL: hcl }, token: 'parser-secret' });
    expect(ok.statusCode).toBe(200);
    const denied = await t.request('POST', '/v1/jobs/parse', {
      body: { JobHCL: hcl },
      token: 'volumes-secret',
    });
    expect([denied.statusCode, denied.body]).toEqual([403, 'Permission denied']);
  });

  it('checks allocation capabilities against the allocation namespace', async () => {
    // running: a signal to an allocation whose task has not started yet is a 400 (no running tasks)
    const alloc = await eventually(async () => {
      const list = (await t.request('GET', '/v1/job/a/allocations', { token: 'ops-secret' })).json() as {
        ID: string;
        ClientStatus: string;
      }[];
      return list.find((a) => a.ClientStatus === 'running');
    });
    expect(
      (await t.request('GET', `/v1/allocation/${alloc.ID}`, { token: 'reader-secret' })).statusCode,
    ).toBe(200);
    const noToken = await t.request('GET', `/v1/allocation/${alloc.ID}`);
    expect([noToken.statusCode, noToken.body]).toEqual([403, 'ACL token not found']);
    const before = t.index();
    const denied = await t.request('POST', `/v1/client/allocation/${alloc.ID}/restart`, {
      body: {},
      token: 'reader-secret',
    });
    expect([denied.statusCode, denied.body]).toEqual([403, 'Permission denied']);
    const stopDenied = await t.request('POST', `/v1/allocation/${alloc.ID}/stop`, { token: 'teams-secret' });
    expect([stopDenied.statusCode, stopDenied.body]).toEqual([403, 'Permission denied']);
    expect(t.index()).toBe(before);
    const signal = await t.request('POST', `/v1/client/allocation/${alloc.ID}/signal`, {
      body: { Signal: 'SIGHUP' },
      token: 'lifecycle-secret',
    });
    expect(signal.statusCode).toBe(200);
  });

  it('reports the management token name and never a secret', () => {
    expect(t.server.acl).toEqual({ enabled: true, managementName: 'ops' });
  });
});

describe('ACL start-up', () => {
  it('refuses an invalid configuration with the reason', async () => {
    await expect(
      startTestServer({
        acl: true,
        aclConfig: { tokens: [{ name: 'x', secret: 'y', namespaces: { default: ['fly'] } }] },
      }),
    ).rejects.toThrow(/namespaces\.default\[0\]: expected one of .* but got the string "fly"/);
  });

  it('creates a bootstrap management token when --acl has no file', async () => {
    const server = await startTestServer({ acl: true });
    expect(server.server.acl.enabled).toBe(true);
    const secret = server.server.acl.enabled ? server.server.acl.bootstrapSecret : undefined;
    expect(secret).toMatch(/^[0-9a-f-]{36}$/);
    expect((await server.request('GET', '/v1/jobs', { token: secret! })).statusCode).toBe(200);
    expect((await server.request('GET', '/v1/jobs')).statusCode).toBe(403);
  });
});
