import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../wiring/server.js';

/**
 * Issue 23: the fault control endpoint `/v1/sked/faults` for tests not written in Node. Off unless
 * asked for; when on, behind the local-only guard and, with ACLs, a management token.
 */

const OPS = 'ops-secret-control';
const OTHER = 'other-ns-secret';
const aclConfig = {
  tokens: [
    { name: 'ops', secret: OPS, management: true },
    {
      name: 'other',
      secret: OTHER,
      namespaces: { other: ['list-jobs', 'read-job', 'submit-job', 'alloc-exec'] },
      node: 'write',
      peering: 'write',
    },
  ],
};

interface Answer {
  readonly status: number;
  readonly type: string | undefined;
  readonly body: string;
}

function send(
  base: string,
  method: string,
  path: string,
  options: { token?: string; headers?: Record<string, string>; body?: unknown; raw?: string } = {},
): Promise<Answer> {
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      new URL(path, base),
      {
        method,
        headers: {
          ...(options.token === undefined ? {} : { 'x-svc-token': options.token }),
          ...options.headers,
          ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: res.headers['content-type'],
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

let server: RunningServer;
let base: string;
const control = (method: string, path: string, options: Parameters<typeof send>[3] = {}): Promise<Answer> =>
  send(base, method, `/v1/sked/faults${path}`, { token: OPS, ...options });

beforeAll(async () => {
  server = await startServer({ nodes: 0, acl: true, aclConfig, faultControl: true, maxBody: 64 * 1024 });
  base = server.scheduler.url;
});
afterAll(async () => {
  await server.close();
});

describe('the control endpoint', () => {
  it('is off unless asked for: an unknown route', async () => {
    const plain = await startServer({ nodes: 0 });
    try {
      expect(await send(plain.scheduler.url, 'GET', '/v1/sked/faults')).toEqual({
        status: 404,
        type: 'text/plain; charset=utf-8',
        body: 'resource not found',
      });
      expect(
        (await send(plain.scheduler.url, 'PUT', '/v1/sked/faults/leader', { body: { leaderless: true } }))
          .status,
      ).toBe(404);
      expect(plain.faults.isLeaderless).toBe(false);
    } finally {
      await plain.close();
    }
  });

  it('adds, lists and removes rules, which then apply to every listener', async () => {
    const added = await control('POST', '', {
      body: { service: 'mesh', path: '/v1/peerings', status: 503, times: 'always' },
    });
    expect(added.status).toBe(200);
    const rule = JSON.parse(added.body) as { id: string; times: string; matched: number };
    expect(rule).toMatchObject({
      service: 'mesh',
      path: '/v1/peerings',
      status: 503,
      times: 'always',
      matched: 0,
    });
    expect(
      (await send(server.mesh.url, 'GET', '/v1/peerings', { headers: { 'x-mesh-token': OPS } })).status,
    ).toBe(503);
    const listed = JSON.parse((await control('GET', '')).body) as {
      leaderless: boolean;
      rules: { matched: number }[];
    };
    expect(listed).toMatchObject({ leaderless: false, rules: [{ id: rule.id, matched: 1, applied: 1 }] });
    expect((await control('DELETE', `/${rule.id}`)).status).toBe(200);
    expect((await control('DELETE', `/${rule.id}`)).body).toBe('fault rule not found');
    expect(
      (await send(server.mesh.url, 'GET', '/v1/peerings', { headers: { 'x-mesh-token': OPS } })).status,
    ).toBe(200);
  });

  it('makes the scheduling service leaderless and back, and stays reachable itself', async () => {
    expect((await control('PUT', '/leader', { body: { leaderless: true } })).status).toBe(200);
    expect((await send(base, 'GET', '/v1/jobs', { token: OPS })).body).toBe('No cluster leader');
    await control('POST', '', { body: { path: '/*', status: 500, times: 'always' } });
    expect(JSON.parse((await control('GET', '')).body)).toMatchObject({ leaderless: true });
    expect((await control('DELETE', '')).status).toBe(200);
    expect(JSON.parse((await control('GET', '')).body)).toEqual({ leaderless: false, rules: [] });
    expect((await send(base, 'GET', '/v1/jobs', { token: OPS })).status).toBe(200);
  });

  it('drops open streams and says how many', async () => {
    const res = await fetch(`${base}/v1/event/stream`, { headers: { 'x-svc-token': OPS } });
    await (res.body as ReadableStream<Uint8Array>).getReader().read();
    const dropped = await control('POST', '/drop', {
      body: { service: 'scheduler', path: '/v1/event/stream' },
    });
    expect([dropped.status, dropped.type, dropped.body]).toEqual([200, 'application/json', '{"dropped":1}']);
  });

  it.each([
    ['POST', '', { status: 42 }, 'fault rule: "status" must be an integer from 200 to 599, got 42'],
    ['POST', '', { status: 500, Status: 1 }, 'fault rule: "Status" is not a field of a fault rule'],
    ['POST', '', [], 'fault rule: "rule" must be an object, got []'],
    ['POST', '', { path: '/v1/jobs' }, 'does nothing'],
    [
      'PUT',
      '/leader',
      { leaderless: 'yes' },
      'the body must be {"leaderless": true} or {"leaderless": false}',
    ],
    ['PUT', '/leader', { leaderless: true, extra: 1 }, 'the body must be {"leaderless": true}'],
    ['POST', '/drop', { path: 'nope' }, 'fault rule: "path" must be a path pattern starting with "/"'],
  ])(
    'refuses %s %s %j with a 400 naming what is wrong, changing nothing',
    async (method, path, body, message) => {
      const answer = await control(method, path, { body });
      expect([answer.status, answer.type]).toEqual([400, 'text/plain; charset=utf-8']);
      expect(answer.body).toContain(message);
      expect(JSON.parse((await control('GET', '')).body)).toEqual({ leaderless: false, rules: [] });
    },
  );

  it('refuses a missing body, malformed JSON, an oversized or deeply nested body', async () => {
    expect((await control('POST', '')).body).toBe('fault rule: the body must be a JSON object');
    expect((await control('POST', '', { raw: '{"status": 5' })).body).toMatch(
      /^Failed to parse the request body as JSON/,
    );
    expect(
      (await control('POST', '', { raw: JSON.stringify({ status: 500, body: 'x'.repeat(70_000) }) })).status,
    ).toBe(413);
    const deep = `${'{"body":'.repeat(300)}1${'}'.repeat(300)}`;
    expect((await control('POST', '', { raw: deep })).body).toContain('nested more than 256 levels deep');
    expect(JSON.parse((await control('GET', '')).body)).toEqual({ leaderless: false, rules: [] });
  });

  it('takes an ID only as a name: a path escaping it finds no rule', async () => {
    await control('POST', '', { body: { path: '/v1/jobs', status: 500 } });
    for (const path of ['/..%2F..%2Fjobs', '/__proto__', '/constructor', '/f1%2F..']) {
      expect((await control('DELETE', path)).body).toBe('fault rule not found');
    }
    // a control character is refused before any route runs, as in every ID of the listener
    expect((await control('DELETE', '/f1%00')).body).toBe(
      'Invalid ID "f1\\u0000": it contains a control character',
    );
    expect(server.faults.list()).toHaveLength(1);
    server.faults.clear();
  });
});

describe('the control endpoint is guarded like every endpoint', () => {
  it.each([
    ['no token', undefined, 'ACL token not found'],
    ['an unknown token', 'nope', 'ACL token not found'],
    ["another namespace's token", OTHER, 'Permission denied'],
  ])('refuses %s with 403 and changes nothing', async (_what, token, message) => {
    for (const [method, path, body] of [
      ['GET', '', undefined],
      ['POST', '', { status: 500 }],
      ['PUT', '/leader', { leaderless: true }],
      ['POST', '/drop', {}],
      ['DELETE', '', undefined],
    ] as const) {
      const answer = await send(base, method, `/v1/sked/faults${path}`, {
        ...(token === undefined ? {} : { token }),
        ...(body === undefined ? {} : { body }),
      });
      expect([method, path, answer.status, answer.body]).toEqual([method, path, 403, message]);
    }
    expect(server.faults.list()).toEqual([]);
    expect(server.faults.isLeaderless).toBe(false);
  });

  it('refuses a foreign Host (DNS rebinding) and a write from a foreign Origin', async () => {
    const host = await control('GET', '', { headers: { host: 'attacker.example' } });
    expect([host.status, host.body]).toEqual([
      403,
      expect.stringMatching(/^Host "attacker.example" is not allowed/),
    ]);
    const origin = await control('PUT', '/leader', {
      body: { leaderless: true },
      headers: { origin: 'http://attacker.example', 'content-type': 'application/json' },
    });
    expect([origin.status, origin.body]).toEqual([
      403,
      expect.stringMatching(/^Origin "http:\/\/attacker.example" is not allowed/),
    ]);
    const plain = await control('POST', '', {
      raw: '{"status":500}',
      headers: { origin: new URL(base).origin, 'content-type': 'text/plain' },
    });
    expect(plain.status).toBe(415);
    expect(server.faults.isLeaderless).toBe(false);
    expect(server.faults.list()).toEqual([]);
  });
});
