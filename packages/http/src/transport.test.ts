import { gzipSync } from 'node:zlib';

import { afterEach, describe, expect, it } from 'vitest';

import { startServer, type TestServer } from '../test/server.js';
import { ApiError, createTransport } from './index.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createTransport', () => {
  it('sends the token, defaults and reads data and meta', async () => {
    // Arrange
    server = await startServer((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-svc-index': '42',
        'x-svc-lastcontact': '0',
        'x-svc-knownleader': 'true',
        'x-svc-nexttoken': 'default.b',
      });
      res.end(JSON.stringify([{ ID: 'a' }]));
    });
    const transport = createTransport({
      address: server.url,
      token: 's3cr3t',
      namespace: 'prod',
      env: false,
    });
    // Act
    const result = await transport.request<{ ID: string }[]>({ path: '/v1/jobs', query: { per_page: 1 } });
    // Assert
    expect(result).toEqual({
      data: [{ ID: 'a' }],
      meta: { index: 42, lastContact: 0, knownLeader: true, nextToken: 'default.b' },
    });
    const [req] = server.requests;
    expect(req?.url).toBe('/v1/jobs?namespace=prod&per_page=1');
    expect(req?.headers['x-svc-token']).toBe('s3cr3t');
    expect(req?.headers['accept-encoding']).toBe('gzip');
  });

  it('decompresses gzip answers', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ ok: true })));
    });
    const transport = createTransport({ address: server.url, env: false });
    expect((await transport.request({ path: '/v1/x' })).data).toEqual({ ok: true });
  });

  it('throws one ApiError with the text message of a non-2xx', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('job not found');
    });
    const transport = createTransport({ address: server.url, env: false });
    const error: unknown = await transport.request({ path: '/v1/job/x' }).catch((e: unknown) => e);
    expect(ApiError.is(error)).toBe(true);
    expect(error).toMatchObject({ name: 'ApiError', status: 404, method: 'GET', message: 'job not found' });
  });

  it('turns a refused connection into an ApiError with status 0', async () => {
    const transport = createTransport({ address: 'http://127.0.0.1:1', env: false });
    const error: unknown = await transport.request({ path: '/v1/jobs' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ApiError', status: 0 });
    expect((error as Error).cause).toBeInstanceOf(Error);
  });
});
