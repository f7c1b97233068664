import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@sked/scheduler-client';

import { collect, rejection, serviceJob, startTestServer, type TestServer } from './support.js';

describe('namespaces, regions and per-table indexes', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ region: 'eu-west' });
  });

  afterAll(async () => {
    await server.close();
  });

  // First, while no job exists: nothing else writes to the jobs table.
  it('a write to volumes does not move the index of the jobs list', async () => {
    const { client } = server;
    const before = await client.jobs.list();
    await client.volumes.register({ ID: 'index-probe', Name: 'p', PluginID: 'p0' } as never);
    // A blocking query on jobs at the current index waits out its (short) wait: nothing changed.
    const after = client.jobs.list.watch({
      index: before.meta.index ?? 0,
      wait: '200ms',
      maxRetries: 0,
    });
    const iterator = after[Symbol.asyncIterator]();
    const race = await Promise.race([
      iterator.next().then(() => 'woken'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 1_000)),
    ]);
    await iterator.return?.();
    expect(race).toBe('still waiting');
    // The volumes list did move.
    const volumes = await client.volumes.list();
    expect(volumes.meta.index).toBeGreaterThan(before.meta.index ?? 0);
  });

  it("registers a job in the namespace written in the job, and lists it with '*'", async () => {
    const { client } = server;
    await client.jobs.create(serviceJob('shared-name'));
    await client.jobs.create(serviceJob('shared-name', { namespace: 'prod' }));
    await client.jobs.create(serviceJob('prod-only', { namespace: 'prod' }));

    expect((await client.jobs.list()).data.map((j) => j.ID)).toEqual(['shared-name']);
    const prod = client.withDefaults({ namespace: 'prod' });
    expect((await prod.jobs.list()).data.map((j) => j.ID)).toEqual(['prod-only', 'shared-name']);
    const everywhere = await client.jobs.list({ namespace: '*' });
    expect(everywhere.data.map((j) => `${j.Namespace}/${j.ID}`)).toEqual([
      'default/shared-name',
      'prod/prod-only',
      'prod/shared-name',
    ]);
    // Pages across namespaces carry <namespace>.<id> tokens.
    const pages = await collect(client.jobs.list.pages({ namespace: '*', perPage: 2 }));
    expect(pages[0]?.meta.nextToken).toBe('prod.shared-name');
    expect(pages.flatMap((p) => p.data.map((j) => j.ID))).toEqual([
      'shared-name',
      'prod-only',
      'shared-name',
    ]);

    expect((await prod.jobs.read('prod-only')).data.Namespace).toBe('prod');
    expect(await rejection(client.jobs.read('prod-only'))).toMatchObject({ status: 404 });
  });

  it('a single blocking read with index and wait, and a stale read', async () => {
    const { client } = server;
    // Only the first test writes to volumes, so the volumes table is quiet here.
    const now = await client.volumes.list({ stale: true });
    expect(now.meta.knownLeader).toBe(true);
    // Nothing changes: the blocking read answers after its wait with the same index.
    const later = await client.volumes.list({ index: now.meta.index ?? 0, wait: '100ms' });
    expect(later.meta.index).toBe(now.meta.index);
    expect(later.data.map((v) => v.ID)).toEqual(['index-probe']);
  });

  it('accepts its own region and refuses another one', async () => {
    const { client } = server;
    expect((await client.jobs.list({ region: 'eu-west' })).meta.knownLeader).toBe(true);
    const error = await rejection(client.jobs.list({ region: 'us-east' }));
    expect(error).toMatchObject({
      status: 400,
      message: expect.stringContaining('No path to region "us-east"'),
    });
  });
});

describe('ACL tokens', () => {
  let server: TestServer;
  const management = 'e2e-management-secret';
  const reader = 'e2e-reader-secret';

  beforeAll(async () => {
    server = await startTestServer({
      acl: true,
      aclConfig: {
        tokens: [
          { name: 'ops', secret: management, management: true },
          { name: 'ci', secret: reader, namespaces: { default: ['list-jobs', 'read-job'] } },
        ],
      },
    });
  });

  afterAll(async () => {
    await server.close();
  });

  it('sends the token in X-Svc-Token or as a Bearer token, and reports 403s with the server message', async () => {
    const anonymous = createClient({ address: server.url, env: false });
    const missing = await rejection(anonymous.jobs.list());
    expect(missing).toMatchObject({ status: 403, message: expect.stringContaining('ACL token not found') });

    const ops = createClient({ address: server.url, env: false, token: management });
    await ops.jobs.create(serviceJob('secured'));

    const ci = createClient({ address: server.url, env: false, token: reader, tokenHeader: 'Authorization' });
    expect((await ci.jobs.list()).data.map((j) => j.ID)).toEqual(['secured']);
    const denied = await rejection(ci.jobs.stop('secured'));
    expect(denied).toMatchObject({ status: 403, message: expect.stringContaining('Permission denied') });
    expect(JSON.stringify({ message: denied.message, url: denied['url'] })).not.toContain(reader);

    const unknown = createClient({ address: server.url, env: false, token: 'not-a-real-token' });
    expect(await rejection(unknown.jobs.read('secured'))).toMatchObject({ status: 403 });
  });

  it('withDefaults switches the token without touching the original client', async () => {
    const ci = createClient({ address: server.url, env: false, token: reader });
    const ops = ci.withDefaults({ token: management });
    await ops.volumes.register({ ID: 'acl-vol', Name: 'v', PluginID: 'p' } as never);
    expect((await ops.volumes.read('acl-vol')).data.ID).toBe('acl-vol');
    expect(await rejection(ci.volumes.read('acl-vol'))).toMatchObject({ status: 403 });
  });
});
