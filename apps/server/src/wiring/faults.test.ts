import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { makeJob } from '@sked/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './server.js';

/**
 * Issue 23: fault injection on a running server, over real sockets: answers in each listener's own
 * format, latency, cut connections, dropped event streams, exec sessions and peering streams, and a
 * leaderless scheduling service with the real service's bytes.
 */

let server: RunningServer;
let allocId: string;

async function until<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  server = await startServer({ nodes: 1, heartbeatMs: 200 });
  await server.seed.job(
    makeJob({
      ID: 'svc',
      TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock', Config: { run_for: '1h' } }] }],
    }),
  );
  allocId = await until(() => {
    const alloc = server.scheduler.cluster.store.view.all('allocs').find((a) => a.ClientStatus === 'running');
    return alloc?.ID;
  }, 'a running allocation');
}, 60_000);
afterAll(async () => {
  await server.close();
});

describe('rules', () => {
  it('answer the nth matching request with the status, in each listener error format', async () => {
    server.faults.inject({ service: 'scheduler', method: 'GET', path: '/v1/jobs', nth: 2, status: 500 });
    server.faults.inject({ service: 'secrets', path: '/v1/auth/ldap/config', status: 503 });
    const mesh = server.faults.inject({
      service: 'mesh',
      path: '/v1/peerings',
      status: 429,
      body: { error: 'slow down' },
      headers: { 'Retry-After': '1' },
    });
    expect((await fetch(`${server.scheduler.url}/v1/jobs`)).status).toBe(200);
    const second = await fetch(`${server.scheduler.url}/v1/jobs`);
    expect([second.status, second.headers.get('content-type'), await second.text()]).toEqual([
      500,
      'text/plain; charset=utf-8',
      'injected fault',
    ]);
    expect((await fetch(`${server.scheduler.url}/v1/jobs`)).status).toBe(200);
    const secrets = await fetch(`${server.secrets.url}/v1/auth/ldap/config`);
    expect([secrets.status, secrets.headers.get('content-type'), await secrets.text()]).toEqual([
      503,
      'application/json',
      '{"errors":["injected fault"]}',
    ]);
    const peerings = await fetch(`${server.mesh.url}/v1/peerings`);
    expect([peerings.status, peerings.headers.get('retry-after'), await peerings.json()]).toEqual([
      429,
      '1',
      { error: 'slow down' },
    ]);
    expect([mesh.matched, mesh.applied, mesh.spent]).toEqual([1, 1, true]);
    expect((await fetch(`${server.mesh.url}/v1/peerings`)).status).toBe(200);
    server.faults.clear();
  });

  it('do not count requests the local-only guard refused', async () => {
    const rule = server.faults.inject({ path: '/v1/jobs', status: 502 });
    const foreign = await new Promise<number | undefined>((resolve, reject) => {
      const req = httpRequest(
        `${server.scheduler.url}/v1/jobs`,
        { headers: { host: 'evil.example' } },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(foreign).toBe(403);
    expect(rule.matched).toBe(0);
    expect((await fetch(`${server.scheduler.url}/v1/jobs`)).status).toBe(502);
    rule.remove();
    expect(server.faults.list()).toEqual([]);
  });

  it('add latency before the request is handled', async () => {
    server.faults.inject({ path: '/v1/job/:job_id', delayMs: 300, times: 'always' });
    const started = Date.now();
    const res = await fetch(`${server.scheduler.url}/v1/job/svc`);
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(295);
    server.faults.clear();
  });

  it('cut the connection without an answer (reset)', async () => {
    server.faults.inject({ path: '/v1/allocations', reset: true });
    await expect(fetch(`${server.scheduler.url}/v1/allocations`)).rejects.toThrow('fetch failed');
    expect((await fetch(`${server.scheduler.url}/v1/allocations`)).status).toBe(200);
  });
});

describe('drops', () => {
  it('end open event streams; a new stream works', async () => {
    const res = await fetch(`${server.scheduler.url}/v1/event/stream?topic=Job`);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('{}');
    await until(() => (server.faults.dropEventStreams() === 1 ? true : undefined), 'the stream to be open');
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return 'ended';
      })(),
    ).rejects.toThrow('terminated');
    expect(server.faults.dropEventStreams()).toBe(0);
    const again = await fetch(`${server.scheduler.url}/v1/event/stream?topic=Job`);
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });

  it('end open exec sessions abnormally (1006), the process is gone with it', async () => {
    const url = `${server.scheduler.url.replace('http', 'ws')}/v1/client/allocation/${allocId}/exec?task=t&command=${encodeURIComponent('["cat"]')}`;
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve);
      socket.addEventListener('error', reject);
    });
    const closed = new Promise<number>((resolve) =>
      socket.addEventListener('close', (event) => resolve(event.code)),
    );
    expect(server.faults.dropExecSessions()).toBe(1);
    expect(await closed).toBe(1006);
  });

  it('forget finished requests, and put no listener per request on a shared connection', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 30; i++) await (await fetch(`${server.scheduler.url}/v1/jobs`)).text();
      // 30 requests pipelined on one connection
      const { port } = new URL(server.scheduler.url);
      const answers = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write('GET /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'.repeat(30));
        });
        let text = '';
        socket.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if ((text.match(/HTTP\/1\.1 200/g) ?? []).length === 30) {
            socket.destroy();
            resolve(text);
          }
        });
        socket.on('error', reject);
      });
      expect(answers.match(/HTTP\/1\.1 200/g)).toHaveLength(30);
      expect(server.faults.drop({ path: '/v1/jobs' })).toBe(0);
      expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('cut peering streams; the establishing side reconnects', async () => {
    const peer = await startServer({ nodes: 0, datacenter: 'dc2', heartbeatMs: 200 });
    try {
      const token = await fetch(`${server.mesh.url}/v1/peering/token`, {
        method: 'POST',
        body: JSON.stringify({ PeerName: 'dc2' }),
      });
      const { PeeringToken } = (await token.json()) as { PeeringToken: string };
      const established = await fetch(`${peer.mesh.url}/v1/peering/establish`, {
        method: 'POST',
        body: JSON.stringify({ PeerName: 'dc1', PeeringToken }),
      });
      expect(established.status).toBe(200);
      // the stream is the peer's connection to this server: cut here, opened again there
      await until(() => (server.faults.dropPeeringStreams() === 1 ? true : undefined), 'a peering stream');
      await until(() => (server.faults.dropPeeringStreams() === 1 ? true : undefined), 'the stream again');
      expect(peer.faults.dropPeeringStreams()).toBe(0);
    } finally {
      await peer.close();
    }
  });
});

describe('leaderless', () => {
  it('answers 500 "No cluster leader" to reads that are not stale and to writes, as the service', async () => {
    const before = server.scheduler.cluster.store.index;
    server.faults.leaderless();
    expect(server.faults.isLeaderless).toBe(true);
    for (const [method, path] of [
      ['GET', '/v1/jobs'],
      ['GET', '/v1/jobs?stale=false'],
      ['GET', '/v1/status/leader'],
      ['GET', '/v1/event/stream'],
      ['POST', '/v1/jobs'],
      ['DELETE', '/v1/job/svc'],
    ] as const) {
      const res = await fetch(`${server.scheduler.url}${path}`, {
        method,
        ...(method === 'POST' ? { body: JSON.stringify({ Job: makeJob({ ID: 'x' }) }) } : {}),
      });
      expect([path, res.status, res.headers.get('content-type'), await res.text()]).toEqual([
        path,
        500,
        'text/plain; charset=utf-8',
        'No cluster leader',
      ]);
      expect(res.headers.get('x-svc-index')).toBeNull();
    }
    expect(server.scheduler.cluster.store.index).toBe(before);
  });

  it('serves stale reads with X-Svc-KnownLeader: false and a growing X-Svc-LastContact', async () => {
    const first = await fetch(`${server.scheduler.url}/v1/job/svc?stale`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-svc-knownleader')).toBe('false');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await fetch(`${server.scheduler.url}/v1/jobs?stale=true`);
    expect(second.headers.get('x-svc-knownleader')).toBe('false');
    expect(Number(second.headers.get('x-svc-lastcontact'))).toBeGreaterThan(
      Number(first.headers.get('x-svc-lastcontact')),
    );
    expect((await fetch(`${server.scheduler.url}/v1/status/leader?stale`)).status).toBe(200);
  });

  it('leaves the node endpoints, the other listeners and the OpenAPI description alone', async () => {
    expect((await fetch(`${server.scheduler.url}/v1/openapi.json`)).status).toBe(200);
    expect((await fetch(`${server.mesh.url}/v1/peerings`)).status).toBe(200);
    const signal = await fetch(`${server.scheduler.url}/v1/client/allocation/${allocId}/signal`, {
      method: 'POST',
      body: JSON.stringify({ Signal: 'SIGHUP', Task: 't' }),
    });
    expect(signal.status).toBe(200);
  });

  it('gets its leader back', async () => {
    server.faults.leaderless(false);
    const res = await fetch(`${server.scheduler.url}/v1/jobs`);
    expect([res.status, res.headers.get('x-svc-knownleader'), res.headers.get('x-svc-lastcontact')]).toEqual([
      200,
      'true',
      '0',
    ]);
  });
});

describe('closing', () => {
  it('ends a request waiting on latency when the server closes', async () => {
    const other = await startServer({ nodes: 0 });
    other.faults.inject({ path: '/v1/jobs', delayMs: 600_000 });
    const pending = fetch(`${other.scheduler.url}/v1/jobs`).then(
      (res) => res.status,
      () => 'cut',
    );
    await until(() => (other.faults.list()[0]?.matched === 1 ? true : undefined), 'the request to wait');
    await other.close();
    expect([200, 503, 'cut']).toContain(await pending);
  });
});
