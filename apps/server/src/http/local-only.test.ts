import { makeJob } from '@sked/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, type RawAnswer } from '../../test/raw-http.js';
import { checkLocalOnly, hostnameOf, isLoopbackHost } from './local-only.js';
import { startServer, type RunningServer } from '../wiring/server.js';

/**
 * Issue 22 item 3: a web page cannot drive the server. DNS rebinding (a foreign `Host`), a
 * cross-origin `Origin` on a write or a WebSocket upgrade, and a `text/plain` body sent by a browser
 * (no preflight) are refused on all three listeners; clients outside browsers keep working.
 */

interface Answer extends Omit<RawAnswer, 'body'> {
  readonly body: string;
}

/** {@link rawRequest} with the body as text. */
async function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const answer = await rawRequest(base, method, path, headers, body);
  return { ...answer, body: answer.body.toString() };
}

let server: RunningServer;
let schedulerHost: string;

beforeAll(async () => {
  server = await startServer({ schedulerPort: 0, nodes: 1, allowedHosts: ['sked.internal'] });
  schedulerHost = new URL(server.scheduler.url).host;
});
afterAll(async () => {
  await server.close();
});

/** Registers job `id` on the scheduling listener (POST /v1/jobs) with `headers`. */
const registerWith = (headers: Record<string, string>, id: string): Promise<Answer> =>
  send(server.scheduler.url, 'POST', '/v1/jobs', headers, JSON.stringify({ Job: makeJob({ ID: id }) }));

describe('Host (DNS rebinding)', () => {
  it.each(['scheduler', 'secrets', 'mesh'] as const)(
    'the %s listener refuses a foreign Host',
    async (name) => {
      const base = server[name].url;
      const path = name === 'scheduler' ? '/v1/jobs' : name === 'secrets' ? '/v1/sys/health' : '/v1/peerings';
      const port = new URL(base).port;
      const refused = await send(base, 'GET', path, { host: `rebind.evil.example:${port}` });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatch(/Host \\?"rebind\.evil\.example:\d+\\?" is not allowed/);
      expect(refused.body).toContain('--allowed-host');
      const loopbackName = await send(base, 'GET', path, { host: 'localhost:1' });
      expect(loopbackName.status).not.toBe(403);
      const allowed = await send(base, 'GET', path, { host: 'SKED.internal:8080' });
      expect(allowed.status).not.toBe(403);
    },
  );

  it('a rebound page cannot read allocation IDs nor register', async () => {
    const list = await send(server.scheduler.url, 'GET', '/v1/allocations', { host: 'rebind.evil.example' });
    expect(list.status).toBe(403);
    const write = await registerWith(
      { host: 'rebind.evil.example', 'content-type': 'application/json' },
      'rebound',
    );
    expect(write.status).toBe(403);
    expect((await send(server.scheduler.url, 'GET', '/v1/job/rebound')).status).toBe(404);
  });
});

describe('Origin (cross-site requests)', () => {
  it('refuses a cross-origin text/plain registration (no preflight) and stores nothing', async () => {
    const answer = await registerWith(
      { origin: 'http://evil.example', 'content-type': 'text/plain;charset=UTF-8' },
      'csrf',
    );
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('Origin "http://evil.example" is not allowed');
    expect((await send(server.scheduler.url, 'GET', '/v1/job/csrf')).status).toBe(404);
  });

  it('refuses a same-origin browser body that is not JSON with 415, accepts JSON', async () => {
    const origin = `http://${schedulerHost}`;
    const plain = await registerWith({ origin, 'content-type': 'text/plain' }, 'plain');
    expect(plain.status).toBe(415);
    expect(plain.body).toContain('application/json');
    expect((await send(server.scheduler.url, 'GET', '/v1/job/plain')).status).toBe(404);
    const json = await registerWith({ origin, 'content-type': 'application/json' }, 'same-origin');
    expect(json.status).toBe(200);
  });

  it('clients outside browsers (no Origin) keep working whatever their Content-Type', async () => {
    const answer = await registerWith({ 'content-type': 'text/plain' }, 'curl-like');
    expect(answer.status).toBe(200);
  });

  it.each(['secrets', 'mesh'] as const)('the %s listener refuses a cross-origin write', async (name) => {
    const path = name === 'secrets' ? '/v1/auth/token/create' : '/v1/peering/token';
    const answer = await send(
      server[name].url,
      'POST',
      path,
      { origin: 'http://evil.example', 'content-type': 'application/json' },
      '{"PeerName":"x"}',
    );
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('is not allowed');
  });

  it('refuses a WebSocket upgrade from another origin, before any exec check', async () => {
    const id = '00000000-0000-0000-0000-000000000000';
    const answer = await send(
      server.scheduler.url,
      'GET',
      `/v1/client/allocation/${id}/exec?command=["sh"]`,
      {
        origin: 'http://evil.example',
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    );
    expect(answer.status).toBe(403);
    const sameOrigin = await send(
      server.scheduler.url,
      'GET',
      `/v1/client/allocation/${id}/exec?command=["sh"]`,
      {
        origin: `http://${schedulerHost}`,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    );
    expect(sameOrigin.status).toBe(101);
  });

  it('answers a CORS preflight without granting cross-origin access', async () => {
    const answer = await send(server.scheduler.url, 'OPTIONS', '/v1/jobs', {
      origin: 'http://evil.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    });
    expect(answer.status).toBe(204);
    expect(Object.keys(answer.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });
});

describe('checkLocalOnly', () => {
  const at = (host: string | undefined, extra: Record<string, string> = {}, method = 'GET') =>
    checkLocalOnly(
      { method, headers: { ...(host === undefined ? {} : { host }), ...extra }, localAddress: '10.1.2.3' },
      { allowedHosts: ['build.example'] },
    );

  it('accepts loopback names and addresses on any port, the own address and allowed hosts', () => {
    for (const host of [
      'localhost',
      'localhost:9',
      'app.localhost:1',
      '127.0.0.1:4646',
      '127.9.9.9',
      '[::1]:4646',
      '10.1.2.3:80',
      'build.example:1',
    ])
      expect(at(host)).toBeUndefined();
    expect(at(undefined)).toBeUndefined();
  });

  it('refuses other hosts and malformed Host values', () => {
    for (const host of ['evil.example', '10.1.2.4', 'localhost.evil.example', '[::2]', 'a:b:c', ''])
      expect(at(host)?.status).toBe(403);
  });

  it('needs a same-origin Origin only on writes and upgrades', () => {
    expect(at('127.0.0.1:1', { origin: 'http://evil.example' })).toBeUndefined();
    expect(at('127.0.0.1:1', { origin: 'http://evil.example' }, 'DELETE')?.status).toBe(403);
    expect(at('127.0.0.1:1', { origin: 'null' }, 'PUT')?.status).toBe(403);
    expect(at('127.0.0.1:1', { origin: 'http://127.0.0.1:1' }, 'PUT')).toBeUndefined();
    expect(at('127.0.0.1:1', { origin: 'http://127.0.0.1:2', upgrade: 'websocket' })?.status).toBe(403);
    // a page behind a proxy under an allowed name
    expect(at('127.0.0.1:1', { origin: 'https://build.example' }, 'POST')).toBeUndefined();
    expect(
      checkLocalOnly(
        {
          method: 'POST',
          headers: { host: 'localhost', origin: 'http://evil.example' },
          localAddress: undefined,
        },
        { allowedHosts: ['*'] },
      )?.status,
    ).toBe(403);
  });

  it('reads host names', () => {
    expect(hostnameOf('[::1]:80')).toBe('::1');
    expect(hostnameOf('Example.COM.:80')).toBe('example.com');
    expect(hostnameOf('x:99999999')).toBeUndefined();
    expect(isLoopbackHost('::ffff:127.0.0.1')).toBe(true);
  });
});
