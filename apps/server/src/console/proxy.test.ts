import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../test/raw-http.js';
import { startServer, type RunningServer } from '../wiring/server.js';
import { dialTarget } from './proxy.js';

/**
 * The console's way to the secrets and mesh listeners through the scheduling listener
 * (`/ui/api/{secrets,mesh}/v1/…`), attacked: no token, a token without the permission, another
 * origin, paths that leave `/v1/`, and the answer of the service passed back as it is.
 */

const ROOT = 'console-proxy-root-token';
const ACL = {
  tokens: [
    { name: 'admin', secret: 'admin-secret', management: true, namespaces: {} },
    { name: 'jobs-only', secret: 'jobs-secret', management: false, namespaces: { default: ['read-job'] } },
    {
      name: 'peer-reader',
      secret: 'peer-secret',
      management: false,
      namespaces: {},
      peering: { '*': 'read' },
    },
  ],
};
let server: RunningServer;
let base: string;
let origin: string;

beforeAll(async () => {
  server = await startServer({ schedulerPort: 0, nodes: 1, aclConfig: ACL, secretsRootToken: ROOT });
  base = server.scheduler.url;
  origin = base;
});
afterAll(async () => {
  await server?.close();
});

const json = (body: Buffer): unknown => JSON.parse(body.toString()) as unknown;

/** Writes group `name` with `policies` through the console's proxy, with the root token and `headers`. */
const writeGroup = (name: string, policies: string, headers: Record<string, string>) =>
  rawRequest(
    base,
    'POST',
    `/ui/api/secrets/v1/auth/ldap/groups/${name}`,
    { 'x-secrets-token': ROOT, ...headers },
    JSON.stringify({ policies }),
  );

describe('the secrets service through the console', () => {
  it('reads the LDAP configuration with the root token, in the service own envelope', async () => {
    const direct = await rawRequest(server.secrets.url, 'GET', '/v1/auth/ldap/config', {
      'x-secrets-token': ROOT,
    });
    const proxied = await rawRequest(base, 'GET', '/ui/api/secrets/v1/auth/ldap/config', {
      'x-secrets-token': ROOT,
    });
    expect(proxied.status).toBe(200);
    expect(proxied.headers['content-type']).toBe(direct.headers['content-type']);
    const data = (body: Buffer): unknown => (json(body) as { data: unknown }).data;
    expect(data(proxied.body)).toEqual(data(direct.body));
    expect(data(proxied.body)).toMatchObject({ url: 'ldap://127.0.0.1', bindpass: '' });
  });

  it("passes the service's refusal back: no token, a wrong token", async () => {
    const none = await rawRequest(base, 'GET', '/ui/api/secrets/v1/auth/ldap/config');
    const wrong = await rawRequest(base, 'GET', '/ui/api/secrets/v1/auth/ldap/config', {
      'x-secrets-token': 'not-the-root',
    });
    for (const answer of [none, wrong]) {
      expect(answer.status).toBe(403);
      expect(json(answer.body)).toEqual({ errors: ['permission denied'] });
    }
  });

  it('writes a group from the same origin (JSON body), and lists with GET ?list=true', async () => {
    const write = await writeGroup('devs', 'dev,shared', { origin, 'content-type': 'application/json' });
    expect(write.status).toBe(204);
    const list = await rawRequest(base, 'GET', '/ui/api/secrets/v1/auth/ldap/groups?list=true', {
      'x-secrets-token': ROOT,
    });
    expect(json(list.body)).toMatchObject({ data: { keys: ['devs'] } });
  });

  it('refuses a write from another origin before it reaches the service', async () => {
    const answer = await writeGroup('evil', 'root', {
      origin: 'http://evil.example',
      'content-type': 'application/json',
    });
    expect(answer.status).toBe(403);
    expect(answer.body.toString()).toMatch(/^Origin "http:\/\/evil.example" is not allowed/);
    const read = await rawRequest(server.secrets.url, 'GET', '/v1/auth/ldap/groups/evil', {
      'x-secrets-token': ROOT,
    });
    expect(read.status).toBe(404);
  });

  it('refuses a browser body that is not JSON (415) and a foreign Host (403)', async () => {
    const plain = await writeGroup('plain', 'x', { origin, 'content-type': 'text/plain' });
    expect(plain.status).toBe(415);
    const rebound = await rawRequest(base, 'GET', '/ui/api/secrets/v1/auth/ldap/config', {
      'x-secrets-token': ROOT,
      host: 'rebind.evil.example',
    });
    expect(rebound.status).toBe(403);
  });
});

describe('the mesh service through the console', () => {
  it('checks the ACL token as the mesh listener does', async () => {
    const path = '/ui/api/mesh/v1/peerings';
    expect((await rawRequest(base, 'GET', path)).status).toBe(403);
    expect((await rawRequest(base, 'GET', path, { 'x-mesh-token': 'jobs-secret' })).status).toBe(403);
    const reader = await rawRequest(base, 'GET', path, { 'x-mesh-token': 'peer-secret' });
    expect(reader.status).toBe(200);
    expect(json(reader.body)).toEqual([]);
    expect(reader.headers['x-mesh-index']).toMatch(/^\d+$/);
    const generate = (token: string): Promise<{ status: number }> =>
      rawRequest(
        base,
        'POST',
        '/ui/api/mesh/v1/peering/token',
        { 'x-mesh-token': token, origin, 'content-type': 'application/json' },
        JSON.stringify({ PeerName: 'other' }),
      );
    expect((await generate('peer-secret')).status).toBe(403);
    expect((await generate('admin-secret')).status).toBe(200);
  });

  it('waits on a blocking read and ends it when the browser goes away', async () => {
    const first = await rawRequest(base, 'GET', '/ui/api/mesh/v1/peerings', {
      'x-mesh-token': 'admin-secret',
    });
    const index = String(first.headers['x-mesh-index']);
    const controller = new AbortController();
    const { hostname, port } = new URL(base);
    const { request } = await import('node:http');
    const waiting = new Promise<string>((resolve) => {
      const req = request(
        {
          hostname,
          port,
          path: `/ui/api/mesh/v1/peerings?index=${index}&wait=30s`,
          headers: { 'x-mesh-token': 'admin-secret' },
          signal: controller.signal,
        },
        () => resolve('answered'),
      );
      req.on('error', () => resolve('aborted'));
      req.end();
    });
    const early = await Promise.race([
      waiting,
      new Promise((resolve) => setTimeout(resolve, 300, 'waiting')),
    ]);
    expect(early).toBe('waiting');
    controller.abort();
    expect(await waiting).toBe('aborted');
  });
});

describe('paths', () => {
  it.each([
    '/ui/api/secrets/v1/../v1/auth/ldap/config',
    '/ui/api/secrets/v1/%2e%2e/sys/health',
    '/ui/api/secrets/v1/auth%2fldap/config',
    '/ui/api/secrets//evil.example/v1/x',
    '/ui/api/secrets/v2/auth/ldap/config',
    '/ui/api/secrets/',
    '/ui/api/mesh/peerings',
    '/ui/api/other/v1/jobs',
  ])('%s is not passed on (404)', async (path) => {
    const answer = await rawRequest(base, 'GET', path, {
      'x-secrets-token': ROOT,
      'x-mesh-token': 'admin-secret',
    });
    expect(answer.status).toBe(404);
    // the scheduling listener's own plain-text 404, not an answer of the other service
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('answers an over-long path with a plain-text 4xx of this listener, sending nothing on', async () => {
    const answer = await rawRequest(base, 'GET', `/ui/api/mesh/v1/peering/${'x'.repeat(20_000)}`, {
      'x-mesh-token': 'admin-secret',
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('dials a wildcard bind address on loopback', () => {
    expect(dialTarget('http://0.0.0.0:8200')).toEqual({ hostname: '127.0.0.1', port: 8200 });
    expect(dialTarget('http://[::]:8500')).toEqual({ hostname: '::1', port: 8500 });
    expect(dialTarget('http://127.0.0.1:1')).toEqual({ hostname: '127.0.0.1', port: 1 });
  });
});
