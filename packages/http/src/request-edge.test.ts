import { fc, test } from '@fast-check/vitest';
import { afterEach, describe, expect, it } from 'vitest';

import { startServer, type TestServer } from '../test/server.js';
import { ApiError, createTransport, type FetchLike } from './index.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const echo = async () =>
  (server = await startServer((req, res, body) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ method: req.method, body, type: req.headers['content-type'] ?? null }));
  }));

describe('bodies', () => {
  it('sends bytes and streams as they are', async () => {
    const { url } = await echo();
    const transport = createTransport({ address: url, env: false });
    const bytes = await transport.request({
      method: 'POST',
      path: '/b',
      body: new TextEncoder().encode('raw bytes'),
    });
    const stream = await transport.request({
      method: 'PUT',
      path: '/s',
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('streamed '));
          controller.enqueue(new TextEncoder().encode('body'));
          controller.close();
        },
      }),
    });
    expect(bytes.data).toEqual({ method: 'POST', body: 'raw bytes', type: null });
    expect(stream.data).toEqual({ method: 'PUT', body: 'streamed body', type: null });
  });

  it('sends a JSON null body', async () => {
    const { url } = await echo();
    const transport = createTransport({ address: url, env: false });
    expect((await transport.request({ method: 'PATCH', path: '/x', body: null })).data).toEqual({
      method: 'PATCH',
      body: 'null',
      type: 'application/json',
    });
  });

  it('passes a custom verb such as LIST to fetch, upper-cased', async () => {
    const methods: (string | undefined)[] = [];
    const fetch: FetchLike = async (_url, init) => {
      methods.push(init.method);
      await Promise.resolve();
      return new Response(null, { status: 204 });
    };
    await createTransport({ env: false, fetch }).request({ method: 'list', path: '/v1/auth/ldap/users' });
    expect(methods).toEqual(['LIST']);
  });
});

describe('log lines', () => {
  it('logs one line per request: success, error answer, abort', async () => {
    server = await startServer((req, res) => {
      if (req.url?.startsWith('/hang') === true) return;
      res.writeHead(req.url?.startsWith('/missing') === true ? 404 : 200);
      res.end(req.url?.startsWith('/missing') === true ? 'job not found' : '{}');
    });
    const lines: string[] = [];
    const transport = createTransport({ address: server.url, env: false, log: (line) => lines.push(line) });
    await transport.request({ path: '/ok' });
    await transport.request({ path: '/missing' }).catch(() => undefined);
    await transport.request({ path: '/hang', timeout: 20 }).catch(() => undefined);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/ok 200 \(\d+ ms\)$/);
    expect(lines[1]).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/missing 404 \(\d+ ms\)$/);
    expect(lines[2]).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/hang aborted: TimeoutError \(\d+ ms\)$/);
  });
});

describe('environment', () => {
  it('sends SKED_TOKEN as a Bearer credential when asked', async () => {
    const { url } = await echo();
    const transport = createTransport({
      tokenHeader: 'Authorization',
      env: { SKED_ADDR: url, SKED_TOKEN: 'from-env' },
    });
    await transport.request({ path: '/v1/jobs' });
    expect(server?.requests[0]?.headers['authorization']).toBe('Bearer from-env');
  });

  it('reads process.env when no env is given', async () => {
    const { url } = await echo();
    const saved = process.env['SKED_ADDR'];
    process.env['SKED_ADDR'] = url;
    try {
      expect(createTransport().config.address).toBe(url);
    } finally {
      if (saved === undefined) delete process.env['SKED_ADDR'];
      else process.env['SKED_ADDR'] = saved;
    }
  });
});

describe('properties', () => {
  const safeText = fc.string({ maxLength: 20 });

  test.prop([fc.dictionary(fc.stringMatching(/^[a-z_]{1,10}$/), safeText, { maxKeys: 6 })])(
    'every query value reaches the server exactly as given',
    (query) => {
      const url = createTransport({ env: false }).url('/v1/x', query);
      for (const [name, value] of Object.entries(query)) expect(url.searchParams.get(name)).toBe(value);
    },
  );

  test.prop([
    fc.stringMatching(/^[A-Za-z0-9._~-]{12,48}$/),
    fc.constantFrom('X-Svc-Token', 'Authorization', 'X-Mesh-Token'),
  ])(
    'a token never appears in an error, its URL, its body or a log line, even when the server echoes it',
    async (token, tokenHeader) => {
      // Arrange: a server that echoes every header and the URL in a 403 body
      const fetch: FetchLike = async (url, init) => {
        await Promise.resolve();
        const headers = Object.fromEntries(new Headers(init.headers));
        return new Response(JSON.stringify({ errors: [`denied ${url} ${JSON.stringify(headers)}`] }), {
          status: 403,
        });
      };
      const lines: string[] = [];
      const transport = createTransport({ env: false, token, tokenHeader, fetch, log: (l) => lines.push(l) });
      // Act
      const error: unknown = await transport
        .request({ path: `/v1/x/${token}`, query: { token, other: token } })
        .catch((e: unknown) => e);
      // Assert
      expect(ApiError.is(error)).toBe(true);
      const everything = JSON.stringify({
        message: (error as ApiError).message,
        url: (error as ApiError).url,
        body: (error as ApiError).body,
        lines,
      });
      expect(everything).not.toContain(token);
      expect(everything).not.toContain(encodeURIComponent(token));
    },
  );
});
