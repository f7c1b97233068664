import { beforeAll, describe, expect, it } from 'vitest';
import { ensureOk, eventually, jobInput, startTestServer, type TestServer } from '../../../test/server.js';

/**
 * What third-party clients of the scheduling service expect on their first requests: the status
 * endpoints, submissions kept, `region` honoured everywhere, and index headers that agree.
 */

let t: TestServer;
let acl: TestServer;

beforeAll(async () => {
  t = await startTestServer();
  acl = await startTestServer({
    acl: true,
    aclConfig: {
      tokens: [{ name: 'reader', secret: 'reader-secret', namespaces: { default: ['read-job'] } }],
    },
  });
});

const readHeaders = (headers: Record<string, unknown>): Record<string, unknown> => ({
  index: headers['x-svc-index'],
  lastContact: headers['x-svc-lastcontact'],
  knownLeader: headers['x-svc-knownleader'],
});

describe('GET /v1/status/leader and /v1/status/peers', () => {
  it("answer the server's own RPC address, as a string and as a list", async () => {
    const leader = await t.request('GET', '/v1/status/leader');
    expect([leader.statusCode, leader.json()]).toEqual([200, '127.0.0.1:4647']);
    expect(leader.headers['content-type']).toMatch(/^application\/json/);
    const peers = await t.request('GET', '/v1/status/peers');
    expect([peers.statusCode, peers.json()]).toEqual([200, ['127.0.0.1:4647']]);
  });

  it('need no token with ACLs on, and check the region', async () => {
    expect((await acl.request('GET', '/v1/status/leader')).statusCode).toBe(200);
    const elsewhere = await t.request('GET', '/v1/status/peers?region=mars');
    expect([elsewhere.statusCode, elsewhere.body]).toEqual([400, 'No path to region "mars"']);
  });
});

describe('a submission given with an unchanged job', () => {
  it('is kept for the current version, not dropped', async () => {
    const job = jobInput('same-again');
    ensureOk(await t.request('POST', '/v1/jobs', { body: { Job: job } }));
    const none = await t.request('GET', '/v1/job/same-again/submission?version=0');
    expect(none.statusCode).toBe(404);
    const source = 'job "same-again" { group "g" {} }';
    const again = await t.request('POST', '/v1/jobs', {
      body: { Job: job, Submission: { Source: source, Format: 'hcl2' } },
    });
    expect(again.statusCode).toBe(200);
    const kept = await t.request('GET', '/v1/job/same-again/submission?version=0');
    expect([kept.statusCode, kept.json()]).toEqual([
      200,
      expect.objectContaining({ JobID: 'same-again', Version: 0, Source: source, Format: 'hcl2' }),
    ]);
    const versions = (await t.request('GET', '/v1/job/same-again/versions')).json() as {
      Versions: unknown[];
    };
    expect(versions.Versions).toHaveLength(1);
  });
});

describe('a service job without an update block', () => {
  it('gets the default update strategy, so its first registration creates a deployment', async () => {
    ensureOk(await t.request('POST', '/v1/jobs', { body: { Job: jobInput('rolling') } }));
    const job = (await t.request('GET', '/v1/job/rolling')).json() as {
      Update: unknown;
      TaskGroups: { Update: unknown }[];
    };
    const defaults = { MaxParallel: 1, HealthCheck: 'checks', MinHealthyTime: 10e9, HealthyDeadline: 300e9 };
    expect(job.Update).toMatchObject({ ...defaults, ProgressDeadline: 600e9, Stagger: 30e9, Canary: 0 });
    expect(job.TaskGroups[0]?.Update).toMatchObject(defaults);
    const deployments = await eventually(async () => {
      const list = (await t.request('GET', '/v1/job/rolling/deployments')).json() as { JobID: string }[];
      return list.length > 0 ? list : undefined;
    });
    expect(deployments).toEqual([expect.objectContaining({ JobID: 'rolling', JobVersion: 0 })]);
  });
});

describe('region on the event stream and exec', () => {
  it('the event stream refuses another region and serves its own', async () => {
    const elsewhere = await t.request('GET', '/v1/event/stream?region=mars');
    expect([elsewhere.statusCode, elsewhere.body]).toEqual([400, 'No path to region "mars"']);
    const controller = new AbortController();
    const own = await fetch(`${t.server.scheduler.url}/v1/event/stream?region=global`, {
      signal: controller.signal,
    });
    expect(own.status).toBe(200);
    controller.abort();
  });

  it('exec closes the socket with 1008 for another region', async () => {
    const base = t.server.scheduler.url.replace(/^http/, 'ws');
    const alloc = '5b1f6d3e-9f0a-4c5e-8d7b-2a9c0e1f3b4d';
    const query = new URLSearchParams({ command: '["/bin/sh"]', task: 't', region: 'mars' });
    const socket = new WebSocket(`${base}/v1/client/allocation/${alloc}/exec?${query.toString()}`);
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => {
      socket.addEventListener('close', (event) => resolve({ code: event.code, reason: event.reason }));
    });
    expect(closed).toEqual({ code: 1008, reason: 'No path to region "mars"' });
  });
});

describe('index reporting', () => {
  it("a write's body Index equals its X-Svc-Index, and a write that changes nothing keeps the index", async () => {
    // a server where nothing runs in the background: periodic jobs (no allocations) and volumes only
    const quiet = await startTestServer();
    const store = quiet.server.scheduler.cluster.store;
    const write = async (method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<number> => {
      const res = ensureOk(await quiet.request(method, url, body === undefined ? {} : { body }));
      const index = Number(res.headers['x-svc-index']);
      const answer = res.json() as { Index?: number };
      expect({ url, body: answer.Index }).toEqual({ url, body: index });
      return index;
    };
    const cron = jobInput('yearly', { Type: 'batch', Periodic: { Spec: '0 0 1 1 *' } });
    const first = await write('POST', '/v1/jobs', { Job: cron });
    // the same periodic job again writes nothing (no version, no evaluation)
    expect(await write('POST', '/v1/jobs', { Job: cron })).toBe(first);
    const stable = { JobID: 'yearly', JobVersion: 0, Stable: true };
    const marked = await write('POST', '/v1/job/yearly/stable', stable);
    expect(marked).toBeGreaterThan(first);
    // marking it stable again changes nothing
    expect(await write('POST', '/v1/job/yearly/stable', stable)).toBe(marked);
    const volume = { Volumes: [{ ID: 'idx-vol', PluginID: 'p' }] };
    const registered = await write('PUT', '/v1/volume/csi/idx-vol', volume);
    expect(registered).toBeGreaterThan(marked);
    const nodeId = [...store.nodes.items.values({})][0]?.ID as string;
    // detaching a volume from a node it is not attached to changes nothing
    expect(await write('DELETE', `/v1/volume/csi/idx-vol/detach?node=${nodeId}`)).toBe(registered);
    // writes that do change something: each answers the index it committed at
    expect(await write('POST', '/v1/job/yearly/periodic/force')).toBeGreaterThan(registered);
    await write('DELETE', '/v1/volume/csi/idx-vol');
    await write('DELETE', '/v1/job/yearly');
  });

  it('a read that fails with 400 before blocking still carries the read headers', async () => {
    for (const url of [
      '/v1/jobs?per_page=x',
      '/v1/jobs?index=x',
      '/v1/allocations?prefix=abc',
      '/v1/job/x/versions?wait=forever',
      '/v1/event/stream?index=-1',
      '/v1/jobs?region=mars',
    ]) {
      const res = await t.request('GET', url);
      expect({ url, status: res.statusCode, ...readHeaders(res.headers) }).toEqual({
        url,
        status: 400,
        index: String(t.server.scheduler.cluster.store.index),
        lastContact: '0',
        knownLeader: 'true',
      });
    }
  });

  it('a read refused with 403 still carries the read headers', async () => {
    for (const [url, token] of [
      ['/v1/jobs', undefined],
      ['/v1/volumes?type=csi', 'reader-secret'],
      ['/v1/event/stream', 'reader-secret'],
    ] as const) {
      const res = await acl.request('GET', url, token === undefined ? {} : { token });
      expect({ url, status: res.statusCode, ...readHeaders(res.headers) }).toEqual({
        url,
        status: 403,
        index: String(acl.server.scheduler.cluster.store.index),
        lastContact: '0',
        knownLeader: 'true',
      });
    }
  });
});
