// The OpenAPI description the server serves at GET /v1/openapi.json, checked against the server's
// real answers: every endpoint the e2e suite calls is walked again here through a recording fetch,
// and each answer (status, media type, body, headers) must match what the description says. A
// service's walk must cover every operation the description lists for it (the other methods of one
// endpoint, ids `<id>_<method>`, are the same handler and count with it), so a new endpoint or
// listener is covered by adding its calls. The walks make tens of calls each: their time limits
// leave room for a loaded machine.
import type { IncomingMessage } from 'node:http';
import { LdapConfigDefaults } from '@sked/model';
import { createClient, type SchedulerClient } from '@sked/scheduler-client';
import { startServer } from '@sked/server';
import { startSlapd } from '@sked/testkit/slapd';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  OpenApiChecker,
  recordingFetch,
  type RecordedExchange,
  type RecordedWebSocket,
} from './openapi-check.js';
import { eventually, rejection, serviceJob } from './support.js';

type Server = Awaited<ReturnType<typeof startServer>>;
let server: Server;
let checker: OpenApiChecker;
let document: { paths: Record<string, Record<string, { operationId: string; tags: string[] }>> };

beforeAll(async () => {
  server = await startServer({
    bind: '127.0.0.1',
    schedulerPort: 0,
    secretsPort: 0,
    meshPort: 0,
    nodes: 3,
    demo: true,
  });
  const response = await fetch(`${server.scheduler.url}/v1/openapi.json`);
  if (response.status !== 200) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
  document = (await response.json()) as typeof document;
  checker = new OpenApiChecker(document);
});

afterAll(async () => {
  await server?.close();
});

/** The operation ids of one service (tag), the other-method twins of an endpoint left out. */
function operationsOf(tag: string): string[] {
  const ids = Object.values(document.paths)
    .flatMap((item) => Object.values(item))
    .filter((op) => op.tags.includes(tag))
    .map((op) => op.operationId);
  return ids
    .filter((id) => !/_(get|post|put|delete)$/.test(id) || !ids.includes(id.replace(/_\w+$/, '')))
    .sort();
}

/** The endpoints an exchange reached: its operation id without the method twin suffix. */
function coveredOf(tag: string): string[] {
  const wanted = new Set(operationsOf(tag));
  return [...new Set([...checker.covered.keys()].map((id) => id.replace(/_(get|post|put|delete)$/, '')))]
    .filter((id) => wanted.has(id))
    .sort();
}

/** A raw request, recorded. */
async function call(
  log: RecordedExchange[],
  base: string,
  method: string,
  path: string,
  init: RequestInit = {},
): Promise<RecordedExchange> {
  const response = await fetch(`${base}${path}`, { ...init, method });
  const exchange = {
    method,
    path: path.split('?')[0] ?? path,
    status: response.status,
    headers: response.headers,
    body: await response.text(),
  };
  log.push(exchange);
  return exchange;
}

/**
 * Opens a WebSocket (a real RFC 6455 handshake, by `ws`), records the 101 answer as an exchange,
 * collects every frame until the server closes.
 */
async function webSocket(
  log: RecordedExchange[],
  base: string,
  path: string,
): Promise<RecordedWebSocket & { exchange: RecordedExchange }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}${path}`);
    const frames: unknown[] = [];
    let exchange: RecordedExchange | undefined;
    socket.on('upgrade', (response: IncomingMessage) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        if (typeof value === 'string') headers.set(name, value);
      }
      exchange = { method: 'GET', path: path.split('?')[0] ?? path, status: 101, headers, body: '' };
      log.push(exchange);
    });
    socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString('utf8')) as unknown));
    socket.on('error', reject);
    socket.on('close', (closeCode) => {
      if (exchange === undefined) reject(new Error(`no upgrade for ${path}`));
      else resolve({ exchange, frames, closeCode });
    });
  });
}

describe('the OpenAPI description against the real server', () => {
  it('is served at GET /v1/openapi.json as OpenAPI 3.1 covering the three APIs', () => {
    expect((document as unknown as { openapi: string }).openapi).toMatch(/^3\.1\./);
    expect(operationsOf('scheduler').length).toBeGreaterThan(30);
    expect(operationsOf('secrets').length).toBeGreaterThan(10);
    expect(operationsOf('mesh').length).toBe(5);
  });

  it('scheduling service: every operation answers as described', async () => {
    const log: RecordedExchange[] = [];
    const base = server.scheduler.url;
    const client: SchedulerClient = createClient({
      address: base,
      env: false,
      fetch: recordingFetch(log, ['/v1/event/stream']),
    });
    // jobs
    await client.jobs.list();
    await client.jobs.list({ perPage: 2 });
    await client.jobs.create(serviceJob('oas-web', { count: 2 }), {
      submission: { Format: 'json', Source: '{}' },
    });
    await client.jobs.parse(
      'job "parsed" {\n  group "g" {\n    task "t" {\n      driver = "mock"\n    }\n  }\n}\n',
    );
    await client.jobs.read('oas-web');
    await client.jobs.submission('oas-web', 0);
    await client.jobs.plan(serviceJob('oas-web', { count: 3 }), { diff: true });
    await client.jobs.update('oas-web', serviceJob('oas-web', { count: 3 }));
    await client.jobs.versions('oas-web', { diffs: true });
    await client.jobs.evaluations('oas-web');
    await client.jobs.deployments('oas-web');
    await client.jobs.latestDeployment('oas-web');
    await client.jobs.summary('oas-web');
    await client.jobs.stable('oas-web', { version: 0, stable: true });
    await client.jobs.revert('oas-web', 0);
    await client.jobs.evaluate('oas-web', { forceReschedule: true });
    await client.jobs.dispatch('transcode', { meta: { input: 'a.mp4' } });
    await client.jobs.periodicForce('nightly-backup');
    // allocations
    const allocs = await eventually(
      async () => {
        const { data } = await client.jobs.allocations('oas-web');
        return data.some((a) => a.ClientStatus === 'running') ? data : undefined;
      },
      'a running allocation of oas-web',
      15_000,
    );
    const alloc = allocs.find((a) => a.ClientStatus === 'running');
    if (alloc === undefined) throw new Error('no running allocation');
    await client.allocations.list({ perPage: 3 });
    await client.allocations.read(alloc.ID);
    // exec: a plain GET is refused (400, plain text); the WebSocket upgrade is 101 with the
    // handshake headers, then frames as x-websocket describes, closed 1000 after `exited`, or 1008
    const execPath = `/v1/client/allocation/${alloc.ID}/exec`;
    await call(log, base, 'GET', `${execPath}?task=server&command=%5B%22true%22%5D`);
    const ran = await webSocket(log, base, `${execPath}?task=server&command=%5B%22true%22%5D`);
    expect(ran.frames).toContainEqual({ exited: true, result: { exit_code: 0 } });
    expect(ran.closeCode).toBe(1000);
    const refused = await webSocket(log, base, `${execPath}?task=nope&command=%5B%22true%22%5D`);
    expect(refused.closeCode).toBe(1008);
    const sessionProblems = [ran, refused].flatMap((session) =>
      checker.webSocketProblems(session.exchange, session),
    );
    await client.allocations.signal(alloc.ID, 'SIGHUP', { task: 'server' });
    await client.allocations.restart(alloc.ID, { task: 'server' });
    await client.allocations.stop(alloc.ID);
    // volumes
    const volume = {
      ID: 'oas-vol',
      Name: 'oas-vol',
      ExternalID: 'ext-oas-vol',
      Namespace: 'default',
      PluginID: 'ebs0',
      AccessMode: 'multi-node-single-writer',
      AttachmentMode: 'file-system',
      Topologies: [],
    } as never;
    await client.volumes.register(volume);
    await client.volumes.list({ type: 'csi' });
    await client.volumes.read('oas-vol');
    await client.volumes.detach('oas-vol', alloc.NodeID);
    await client.volumes.delete('oas-vol');
    await client.jobs.stop('oas-web', { purge: true });
    // errors: plain text, as described
    await rejection(client.jobs.read('no-such-job'));
    await call(log, base, 'GET', '/v1/jobs?per_page=x');
    // status and the description itself
    await call(log, base, 'GET', '/v1/status/leader');
    await call(log, base, 'GET', '/v1/status/peers');
    await call(log, base, 'GET', '/v1/openapi.json');
    await call(log, base, 'PUT', '/v1/system/gc');
    // the event stream: one line of the stream, validated as the described object
    const controller = new AbortController();
    const stream = await fetch(`${base}/v1/event/stream?topic=Job`, { signal: controller.signal });
    const reader = stream.body?.getReader();
    let text = '';
    while (reader !== undefined && !text.includes('\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    const streamExchange = {
      method: 'GET',
      path: '/v1/event/stream',
      status: stream.status,
      headers: stream.headers,
      body: '',
    };
    const problems = log.flatMap((exchange) => checker.problems(exchange));
    problems.push(...checker.problems(streamExchange, text.split('\n')[0]));
    expect([...problems, ...sessionProblems]).toEqual([]);
    expect(log.length).toBeGreaterThan(35);
    const statuses = log.map((exchange) => exchange.status);
    expect(statuses).toEqual(expect.arrayContaining([101, 200, 400, 404]));
    expect(coveredOf('scheduler')).toEqual(operationsOf('scheduler'));
  }, 120_000);

  it('secrets service: every operation answers as described, errors as {"errors": [...]}', async () => {
    const log: RecordedExchange[] = [];
    const base = server.secrets.url;
    const root = { 'x-secrets-token': server.secrets.rootToken, 'content-type': 'application/json' };
    const ldap = '/v1/auth/ldap';
    await call(log, base, 'POST', `${ldap}/config`, {
      headers: root,
      body: JSON.stringify({
        url: 'ldap://127.0.0.1:1',
        userdn: 'ou=users,dc=example,dc=org',
        userattr: 'uid',
      }),
    });
    await call(log, base, 'GET', `${ldap}/config`, { headers: root });
    await call(log, base, 'POST', `${ldap}/groups/devs`, {
      headers: root,
      body: JSON.stringify({ policies: 'dev,shared' }),
    });
    await call(log, base, 'GET', `${ldap}/groups/devs`, { headers: root });
    await call(log, base, 'GET', `${ldap}/groups?list=true`, { headers: root });
    await call(log, base, 'DELETE', `${ldap}/groups/devs`, { headers: root });
    await call(log, base, 'GET', `${ldap}/groups?list=true`, { headers: root }); // empty: 404 {"errors":[]}
    await call(log, base, 'POST', `${ldap}/users/ada`, {
      headers: root,
      body: JSON.stringify({ policies: 'dev', groups: 'devs' }),
    });
    await call(log, base, 'GET', `${ldap}/users/ada`, { headers: root });
    await call(log, base, 'GET', `${ldap}/users?list=true`, { headers: root });
    await call(log, base, 'DELETE', `${ldap}/users/ada`, { headers: root });
    await call(log, base, 'GET', '/v1/auth/token/lookup-self', { headers: root });
    await call(log, base, 'POST', '/v1/auth/token/lookup-self', { headers: root });
    // the directory is unreachable: login fails with 400 in the described error shape
    await call(log, base, 'POST', `${ldap}/login/ada`, { body: JSON.stringify({ password: 'pw' }) });
    await call(log, base, 'GET', `${ldap}/config`); // no token: 403
    // a real directory (Debian's slapd): a login that succeeds answers the described envelope
    const slapd = await startSlapd();
    try {
      await call(log, base, 'POST', `${ldap}/config`, {
        headers: root,
        body: JSON.stringify({ ...LdapConfigDefaults, ...slapd.authConfig, request_timeout: 10 }),
      });
      await call(log, base, 'POST', `${ldap}/groups/admins`, {
        headers: root,
        body: JSON.stringify({ policies: 'admin' }),
      });
      const login = await call(log, base, 'POST', `${ldap}/login/alice`, {
        body: JSON.stringify({ password: 'alice-pw' }),
      });
      expect(login.status).toBe(200);
      const answer = JSON.parse(login.body) as { auth: Record<string, unknown> };
      expect(answer).toMatchObject({
        auth: { policies: ['admin', 'default'], metadata: { username: 'alice' } },
        data: null,
      });
      // every field of the answer's auth is described, not only allowed
      const described = Object.keys(
        (document as unknown as { components: { schemas: Record<string, { properties: object }> } })
          .components.schemas['LdapAuth']?.properties ?? {},
      );
      expect(Object.keys(answer.auth).filter((field) => !described.includes(field))).toEqual([]);
      const put = await call(log, base, 'PUT', `${ldap}/login/alice`, {
        body: JSON.stringify({ password: 'alice-pw' }),
      });
      expect(put.status).toBe(200);
    } finally {
      await slapd.stop();
    }
    expect(log.flatMap((exchange) => checker.problems(exchange))).toEqual([]);
    expect(log.map((exchange) => exchange.status)).toEqual(expect.arrayContaining([200, 204, 400, 403, 404]));
    expect(coveredOf('secrets')).toEqual(operationsOf('secrets'));
  }, 120_000);

  it('mesh service: every operation answers as described, errors as plain text', async () => {
    const log: RecordedExchange[] = [];
    const base = server.mesh.url;
    const peer = await startServer({
      bind: '127.0.0.1',
      schedulerPort: 0,
      secretsPort: 0,
      meshPort: 0,
      nodes: 0,
      datacenter: 'dc2',
    });
    try {
      const json = { 'content-type': 'application/json' };
      const token = await call(log, base, 'POST', '/v1/peering/token', {
        headers: json,
        body: JSON.stringify({ PeerName: 'dc2' }),
      });
      const { PeeringToken } = JSON.parse(token.body) as { PeeringToken: string };
      await call(log, peer.mesh.url, 'POST', '/v1/peering/establish', {
        headers: json,
        body: JSON.stringify({ PeerName: 'dc1', PeeringToken }),
      });
      await call(log, base, 'GET', '/v1/peering/dc2');
      await call(log, base, 'GET', '/v1/peerings');
      await call(log, base, 'GET', '/v1/peering/nowhere'); // 404, plain text
      await call(log, base, 'POST', '/v1/peering/establish', {
        headers: json,
        body: JSON.stringify({ PeerName: 'x', PeeringToken: 'bm90IGEgdG9rZW4=' }),
      });
      await call(log, base, 'POST', '/v1/peering/token', {
        headers: json,
        body: JSON.stringify({ PeerName: 'Not A Label' }),
      }); // 400
      await call(log, base, 'DELETE', '/v1/peering/dc2');
      await call(log, base, 'DELETE', '/v1/peering/dc2'); // idempotent
    } finally {
      await peer.close();
    }
    expect(log.flatMap((exchange) => checker.problems(exchange))).toEqual([]);
    expect(log.map((exchange) => exchange.status)).toEqual(expect.arrayContaining([200, 400, 404]));
    expect(coveredOf('mesh')).toEqual(operationsOf('mesh'));
  }, 60_000);
});
