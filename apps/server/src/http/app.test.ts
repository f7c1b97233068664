import { gunzipSync } from 'node:zlib';
import { createIndexWatch } from '@sked/query';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { acceptsGzip, createHttpApp, isFlagSet, routePatternToRegExp, sendJson } from './app.js';
import { blockingRead } from './blocking.js';
import { HttpError } from './errors.js';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

function testApp(maxBody = 1024): FastifyInstance {
  const app = createHttpApp({
    maxBody,
    mapError: (error) =>
      error instanceof RangeError ? { status: 409, message: `mapped: ${error.message}` } : undefined,
  });
  app.get('/v1/things', (request, reply) => sendJson(request, reply, { a: [1, 2], b: 'x' }));
  app.post('/v1/things', (request, reply) => sendJson(request, reply, { got: request.body ?? null }));
  app.get('/v1/thing/:id', (request) => {
    const { id } = request.params as { id: string };
    if (id === 'teapot') throw new HttpError(418, 'short and stout');
    if (id === 'range') throw new RangeError('out of range');
    throw new Error('boom');
  });
  apps.push(app);
  return app;
}

describe('createHttpApp', () => {
  it('answers unknown routes 404 "resource not found" as text', async () => {
    const res = await testApp().inject({ method: 'GET', url: '/v1/nothing' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('resource not found');
  });

  it.each(['DELETE', 'PUT', 'PATCH', 'OPTIONS'] as const)(
    'answers %s on a known path 405 "Invalid method"',
    async (method) => {
      const res = await testApp().inject({ method, url: '/v1/thing/abc' });
      expect(res.statusCode).toBe(405);
      expect(res.body).toBe('Invalid method');
    },
  );

  it('parses JSON bodies with or without a content type', async () => {
    const app = testApp();
    const withType = await app.inject({ method: 'POST', url: '/v1/things', payload: { x: 1 } });
    expect(withType.json()).toEqual({ got: { x: 1 } });
    const without = await app.inject({
      method: 'POST',
      url: '/v1/things',
      payload: '{"y":2}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(without.json()).toEqual({ got: { y: 2 } });
    const empty = await app.inject({ method: 'POST', url: '/v1/things' });
    expect(empty.json()).toEqual({ got: null });
  });

  it('answers malformed JSON 400 with the parser message', async () => {
    const res = await testApp().inject({
      method: 'POST',
      url: '/v1/things',
      payload: '{"x": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toMatch(/^Failed to parse the request body as JSON: /);
  });

  it('answers a body over the limit 413', async () => {
    const res = await testApp(100).inject({
      method: 'POST',
      url: '/v1/things',
      payload: JSON.stringify({ x: 'y'.repeat(200) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.body).toBe('Request body is larger than the limit of 100 bytes');
  });

  it('maps errors: HttpError, mapped errors, faults', async () => {
    const app = testApp();
    const teapot = await app.inject({ method: 'GET', url: '/v1/thing/teapot' });
    expect([teapot.statusCode, teapot.body]).toEqual([418, 'short and stout']);
    const mapped = await app.inject({ method: 'GET', url: '/v1/thing/range' });
    expect([mapped.statusCode, mapped.body]).toEqual([409, 'mapped: out of range']);
    const fault = await app.inject({ method: 'GET', url: '/v1/thing/other' });
    expect([fault.statusCode, fault.body]).toEqual([500, 'internal server error: boom']);
  });

  it('indents with ?pretty and not otherwise', async () => {
    const app = testApp();
    expect((await app.inject({ method: 'GET', url: '/v1/things' })).body).toBe('{"a":[1,2],"b":"x"}');
    const pretty = await app.inject({ method: 'GET', url: '/v1/things?pretty' });
    expect(pretty.body).toBe(`${JSON.stringify({ a: [1, 2], b: 'x' }, null, 4)}\n`);
    expect((await app.inject({ method: 'GET', url: '/v1/things?pretty=false' })).body).toBe(
      '{"a":[1,2],"b":"x"}',
    );
  });

  it('compresses answers, errors included, when the client accepts gzip', async () => {
    const app = testApp();
    const res = await app.inject({
      method: 'GET',
      url: '/v1/things',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString())).toEqual({ a: [1, 2], b: 'x' });
    const missing = await app.inject({
      method: 'GET',
      url: '/v1/x',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(missing.statusCode).toBe(404);
    expect(gunzipSync(missing.rawPayload).toString()).toBe('resource not found');
    const plain = await app.inject({
      method: 'GET',
      url: '/v1/things',
      headers: { 'accept-encoding': 'gzip;q=0' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
  });
});

describe('helpers', () => {
  it.each([
    ['/v1/job/:job_id', '/v1/job/abc', true],
    ['/v1/job/:job_id', '/v1/job/abc/', true],
    ['/v1/job/:job_id', '/v1/job/abc/versions', false],
    ['/v1/jobs', '/v1/jobsx', false],
    ['/v1/a.b', '/v1/aXb', false],
  ])('route %s matches %s: %s', (pattern, path, match) => {
    expect(routePatternToRegExp(pattern).test(path)).toBe(match);
  });

  it.each([
    [undefined, false],
    ['gzip', true],
    ['deflate, gzip;q=0.5', true],
    ['gzip;q=0', false],
    ['*', true],
    ['br', false],
  ])('acceptsGzip(%s) is %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });

  it.each([
    [undefined, false],
    ['', true],
    ['1', true],
    ['true', true],
    ['false', false],
    ['0', false],
  ])('isFlagSet(%s) is %s', (value, expected) => {
    expect(isFlagSet(value)).toBe(expected);
  });
});

describe('blockingRead', () => {
  function blockingApp(): {
    app: FastifyInstance;
    watch: ReturnType<typeof createIndexWatch>;
    shutdown: AbortController;
  } {
    const watch = createIndexWatch(5);
    const shutdown = new AbortController();
    const app = createHttpApp();
    app.get('/v1/watched', async (request, reply) => {
      const index = await blockingRead({ shutdown: shutdown.signal }, request, reply, [watch]);
      return sendJson(request, reply, { index });
    });
    apps.push(app);
    return { app, watch, shutdown };
  }

  it('sets the read headers and does not block without index', async () => {
    const { app } = blockingApp();
    const res = await app.inject({ method: 'GET', url: '/v1/watched' });
    expect(res.headers['x-svc-index']).toBe('5');
    expect(res.headers['x-svc-lastcontact']).toBe('0');
    expect(res.headers['x-svc-knownleader']).toBe('true');
  });

  it.each([
    ['index=abc', 'Invalid index'],
    ['index=-1', 'Invalid index'],
    ['index=1&wait=forever', 'Invalid wait time'],
  ])('rejects %s', async (query, message) => {
    const { app } = blockingApp();
    const res = await app.inject({ method: 'GET', url: `/v1/watched?${query}` });
    expect([res.statusCode, res.body]).toEqual([400, message]);
  });

  it('answers at once when the index has already passed', async () => {
    const { app, watch } = blockingApp();
    const res = await app.inject({ method: 'GET', url: '/v1/watched?index=4&wait=10m' });
    expect(res.json()).toEqual({ index: 5 });
    expect(watch.waiting).toBe(0);
  });

  it('wakes on a write', async () => {
    const { app, watch } = blockingApp();
    const pending = app.inject({ method: 'GET', url: '/v1/watched?index=5&wait=10m' });
    await expect.poll(() => watch.waiting).toBe(1);
    watch.advance(6);
    const res = await pending;
    expect(res.headers['x-svc-index']).toBe('6');
    expect(watch.waiting).toBe(0);
  });

  it('answers hundreds of waiters at shutdown', async () => {
    const { app, watch, shutdown } = blockingApp();
    const pending = Array.from({ length: 300 }, () =>
      app.inject({ method: 'GET', url: '/v1/watched?index=5&wait=10m' }),
    );
    await expect.poll(() => watch.waiting).toBe(300);
    shutdown.abort();
    const answers = await Promise.all(pending);
    expect(answers.every((res) => res.statusCode === 200)).toBe(true);
    expect(watch.waiting).toBe(0);
  });

  it('answers every waiter at shutdown', async () => {
    const { app, watch, shutdown } = blockingApp();
    const pending = app.inject({ method: 'GET', url: '/v1/watched?index=5&wait=10m' });
    await expect.poll(() => watch.waiting).toBe(1);
    shutdown.abort();
    const res = await pending;
    expect([res.statusCode, res.headers['x-svc-index']]).toEqual([200, '5']);
    expect(watch.waiting).toBe(0);
  });
});
