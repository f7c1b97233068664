import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import {
  closedAddress,
  failure,
  json,
  serverPool,
  text,
  TOKEN,
  transportFor,
} from '../test/transport-fixtures.js';
import { ApiError, createTransport, redactText, redactUrl } from './index.js';

const serve = serverPool();

describe('errors', () => {
  it.each([
    ['a text body', text(404, 'job not found\n'), 'job not found', 'job not found\n'],
    [
      'a JSON errors array',
      json(403, { errors: ['permission denied'] }),
      'permission denied',
      { errors: ['permission denied'] },
    ],
    ['several JSON errors', json(400, { errors: ['a', 'b'] }), 'a; b', { errors: ['a', 'b'] }],
    ['a JSON message', json(400, { message: 'bad thing' }), 'bad thing', { message: 'bad thing' }],
    ['text that looks like JSON but is not', text(400, '{oops'), '{oops', '{oops'],
  ])('throws one ApiError with the server’s message for %s', async (_what, handler, message, body) => {
    const server = await serve(handler);
    const error = await failure(transportFor(server).request({ path: '/v1/job/x' }));
    expect(error).toMatchObject({
      name: 'ApiError',
      status: expect.any(Number) as unknown,
      method: 'GET',
      message,
      body,
    });
    expect(error.url).toBe(`${server.url}/v1/job/x`);
  });

  it('describes an error answer without a message', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(502);
      res.end();
    });
    const error = await failure(transportFor(server).request({ method: 'PUT', path: '/v1/jobs' }));
    expect(error.message).toBe(
      `The request PUT ${server.url}/v1/jobs failed with status 502 Bad Gateway and no message.`,
    );
    expect(error.body).toBeUndefined();
  });

  it('describes an empty JSON errors list', async () => {
    const server = await serve(json(404, { errors: [] }));
    const error = await failure(transportFor(server).request({ path: '/v1/auth/ldap/users' }));
    expect(error.message).toBe(
      `The request GET ${server.url}/v1/auth/ldap/users failed with status 404 Not Found and no message.`,
    );
    expect(error.body).toEqual({ errors: [] });
  });

  it('carries the meta of the error answer', async () => {
    const server = await serve(text(404, 'job not found', { 'x-svc-index': '12' }));
    expect((await failure(transportFor(server).request({ path: '/v1/job/x' }))).meta).toEqual({ index: 12 });
  });

  it('does not retry a 5xx', async () => {
    const server = await serve(text(500, 'internal error'));
    const error = await failure(transportFor(server).request({ path: '/v1/jobs' }));
    expect(error.status).toBe(500);
    expect(server.requests).toHaveLength(1);
  });

  it('does not follow a redirect, so the token never travels to another host', async () => {
    const elsewhere = await serve(json(200, {}));
    const server = await serve((_req, res) => {
      res.writeHead(307, { location: `${elsewhere.url}/steal` });
      res.end();
    });
    const error = await failure(transportFor(server, { token: TOKEN }).request({ path: '/v1/jobs' }));
    expect(error.status).toBe(307);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('fails a 2xx answer that is not JSON', async () => {
    const server = await serve(text(200, 'not json'));
    const error = await failure(transportFor(server).request({ path: '/v1/jobs' }));
    expect(error.message).toBe(`The answer to GET ${server.url}/v1/jobs is not valid JSON: "not json".`);
  });

  it('turns a refused connection into an ApiError with status 0 and the cause', async () => {
    const address = await closedAddress();
    const transport = createTransport({ address, env: false });
    const error = await failure(transport.request({ path: '/v1/jobs' }));
    expect(error.status).toBe(0);
    expect(error.message).toBe(
      `The request GET ${address}/v1/jobs failed before an answer arrived: connect ECONNREFUSED ${address.slice(7)}.`,
    );
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.meta).toEqual({});
  });

  it('passes the caller’s abort reason through untouched', async () => {
    const server = await serve(() => undefined);
    const controller = new AbortController();
    const pending = transportFor(server).request({ path: '/v1/jobs', signal: controller.signal });
    const reason = new Error('user left');
    setTimeout(() => controller.abort(reason), 20);
    await expect(pending).rejects.toBe(reason);
  });

  it('passes a default AbortError through untouched', async () => {
    const server = await serve(() => undefined);
    const error: unknown = await transportFor(server)
      .request({ path: '/v1/jobs', signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(ApiError.is(error)).toBe(false);
    expect(error).toMatchObject({ name: 'AbortError' });
  });

  it('rejects with a TimeoutError, not an ApiError, after the timeout', async () => {
    const server = await serve(() => undefined);
    const transport = transportFor(server, { timeout: 5_000 });
    const error: unknown = await transport
      .request({ path: '/v1/jobs', timeout: 30 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect(error).toMatchObject({
      name: 'TimeoutError',
      message: `The request GET ${server.url}/v1/jobs timed out after 30 ms.`,
    });
  });

  it('recognises ApiError across copies by brand', () => {
    const error = new ApiError({ status: 404, method: 'GET', url: 'http://h/v1', message: 'job not found' });
    expect(ApiError.is(error)).toBe(true);
    expect(ApiError.is({ name: 'ApiError', status: 404, message: 'job not found' })).toBe(false);
    expect(error).toMatchObject({ name: 'ApiError', body: undefined, meta: {} });
  });
});

describe('redaction', () => {
  it('removes the token from messages, bodies, URLs and log lines', async () => {
    // Arrange: a careless server that echoes the token back
    const server = await serve((req, res) => {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [`token ${String(req.headers['x-svc-token'])} not found`] }));
    });
    const lines: string[] = [];
    const transport = transportFor(server, { token: TOKEN, log: (line) => lines.push(line) });
    // Act: the token also leaks into the query string (an exec URL built without ws_handshake)
    const error = await failure(
      transport.request({ path: '/v1/client/allocation/a1/exec', query: { token: TOKEN, task: 'web' } }),
    );
    // Assert
    const everything = JSON.stringify({
      message: error.message,
      url: error.url,
      body: error.body,
      lines,
      stack: error.stack,
    });
    expect(everything).not.toContain(TOKEN);
    expect(error.message).toBe('token [REDACTED] not found');
    expect(error.url).toBe(`${server.url}/v1/client/allocation/a1/exec?token=%5BREDACTED%5D&task=web`);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/v1\/client\/allocation\/a1\/exec\?token=%5BREDACTED%5D&task=web 403 \(\d+ ms\)$/,
    );
  });

  it('removes the token from network failures and timeouts', async () => {
    const lines: string[] = [];
    const refused = createTransport({
      address: await closedAddress(),
      env: false,
      token: TOKEN,
      log: (l) => lines.push(l),
    });
    const error = await failure(refused.request({ path: `/v1/x/${TOKEN}` }));
    expect(JSON.stringify({ m: error.message, u: error.url, lines })).not.toContain(TOKEN);
    const server = await serve(() => undefined);
    const timeout: unknown = await transportFor(server, { token: TOKEN, timeout: 20 })
      .request({ path: '/v1/jobs', query: { 'X-Svc-Token': TOKEN } })
      .catch((e: unknown) => e);
    expect(String((timeout as Error).message)).not.toContain(TOKEN);
    expect((timeout as Error).message).toContain('X-Svc-Token=%5BREDACTED%5D');
  });

  it('offers redact on the transport', () => {
    const transport = createTransport({ env: false, token: TOKEN });
    expect(transport.redact(`failed with ${TOKEN}`)).toBe('failed with [REDACTED]');
    expect(transport.redact(`ws://h/v1/exec?x=${TOKEN}`)).toBe('ws://h/v1/exec?x=[REDACTED]');
  });

  it.each([
    [
      'https://u:p@h/v1?token=abc&secret_id=s&ok=1',
      'https://%5BREDACTED%5D:%5BREDACTED%5D@h/v1?token=%5BREDACTED%5D&secret_id=%5BREDACTED%5D&ok=1',
    ],
    ['http://h/v1?X-Svc-Token=abc', 'http://h/v1?X-Svc-Token=%5BREDACTED%5D'],
    [
      'http://h/v1?access_token=abc&Password=p',
      'http://h/v1?access_token=%5BREDACTED%5D&Password=%5BREDACTED%5D',
    ],
    ['not a url abc', 'not a url abc'],
  ])('redactUrl(%j)', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  test.prop([
    fc.string({ minLength: 8, maxLength: 40 }),
    fc.string({ maxLength: 30 }),
    fc.string({ maxLength: 30 }),
  ])('redactText removes a secret wherever it appears, raw or URL-encoded', (secret, before, after) => {
    for (const form of [secret, encodeURIComponent(secret)]) {
      expect(redactText(`${before}${form}${after}`, [secret])).not.toContain(form);
    }
  });
});

describe('derived transports', () => {
  it('changes defaults without touching the original', async () => {
    const server = await serve(json(200, {}));
    const base = transportFor(server, { namespace: 'default', token: TOKEN });
    const prod = base.withDefaults({ namespace: 'prod', region: 'eu' });
    await prod.request({ path: '/v1/jobs' });
    await base.request({ path: '/v1/jobs' });
    expect(server.requests.map((r) => r.url)).toEqual([
      '/v1/jobs?namespace=prod&region=eu',
      '/v1/jobs?namespace=default',
    ]);
    expect(server.requests.map((r) => r.headers['x-svc-token'])).toEqual([TOKEN, TOKEN]);
    expect(base.config.namespace).toBe('default');
  });

  it('can replace the token and reports bad new options', () => {
    const base = createTransport({ env: false, token: 'a' });
    expect(base.withDefaults({ token: 'b' }).authHeaders()).toEqual({ 'X-Svc-Token': 'b' });
    expect(() => base.withDefaults({ address: 'nope' })).toThrow(
      'The address "nope" (option address) is not an http:// or https:// URL.',
    );
    expect(base.authHeaders()).toEqual({ 'X-Svc-Token': 'a' });
  });

  it('destructures: methods do not depend on this', async () => {
    const server = await serve(json(200, { ok: 1 }));
    const { request, url } = transportFor(server);
    expect((await request({ path: '/v1/x' })).data).toEqual({ ok: 1 });
    expect(url('/v1/x').pathname).toBe('/v1/x');
  });
});

describe('url and authHeaders', () => {
  it('builds URLs with the defaults and no token', () => {
    const transport = createTransport({
      env: false,
      address: 'https://h:4646',
      token: TOKEN,
      namespace: 'n',
      region: 'r',
    });
    expect(
      transport.url('/v1/client/allocation/a/exec', { task: 'web', command: '["/bin/sh"]' }).toString(),
    ).toBe(
      'https://h:4646/v1/client/allocation/a/exec?namespace=n&region=r&task=web&command=%5B%22%2Fbin%2Fsh%22%5D',
    );
    expect(transport.authHeaders()).toEqual({ 'X-Svc-Token': TOKEN });
    expect(createTransport({ env: false }).authHeaders()).toEqual({});
  });

  it.each(['v1/jobs', '', 'http://evil/v1'])('refuses the path %j', async (path) => {
    const transport = createTransport({ env: false });
    expect(() => transport.url(path)).toThrow(
      `A request path must start with "/", got ${JSON.stringify(path)}.`,
    );
    await expect(transport.request({ path })).rejects.toThrow(TypeError);
  });
});
