import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FetchInit } from './config.js';
import { httpFetch, isPlainHttp } from './http-fetch.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

// One server answers by the request's path; each case is asked of the global fetch and of
// httpFetch, and the transport must not be able to tell the two answers apart.
const cases: Record<string, Handler> = {
  '/json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}'),
  '/gzip': (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('zipped')),
  '/deflate': (_req, res) =>
    res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateSync('deflated')),
  '/br': (_req, res) => res.writeHead(200, { 'content-encoding': 'br' }).end(brotliCompressSync('brotli')),
  '/repeated': (_req, res) =>
    res
      .writeHead(200, [
        ['x-svc-a', '1'],
        ['x-svc-a', '2'],
      ])
      .end(),
  '/redirect': (_req, res) => res.writeHead(307, 'Moved', { location: '/json' }).end('moved'),
  '/empty': (_req, res) => res.writeHead(204).end(),
  '/echo': (req, res, body) =>
    res
      .writeHead(500)
      .end(
        JSON.stringify({ type: req.headers['content-type'], length: req.headers['content-length'], body }),
      ),
  '/hang': (_req, res) => {
    res.writeHead(200);
    res.write('partial');
  },
  '/reset': (req) => req.socket.destroy(),
};

let base = '';
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => cases[new URL(req.url ?? '/', 'http://x').pathname]?.(req, res, body));
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

async function seen(answer: Response): Promise<unknown> {
  return {
    status: answer.status,
    statusText: answer.statusText,
    a: answer.headers.get('X-Svc-A'),
    hasA: answer.headers.has('x-svc-a'),
    location: answer.headers.get('location'),
    body: answer.body === null ? null : await new Response(answer.body).text(),
  };
}

describe('httpFetch', () => {
  it.each([
    ['GET', '/json', undefined],
    ['GET', '/gzip', undefined],
    ['GET', '/deflate', undefined],
    ['GET', '/br', undefined],
    ['GET', '/repeated', undefined],
    ['GET', '/redirect', undefined],
    ['GET', '/empty', undefined],
    ['HEAD', '/json', undefined],
    ['PUT', '/echo', 'plain text'],
    ['PUT', '/echo', new TextEncoder().encode('bytes ü')],
  ])('answers %s %s as fetch does', async (method, path, body) => {
    const init: FetchInit = { method, headers: { 'accept-encoding': 'gzip' }, redirect: 'manual' };
    if (body !== undefined) init.body = body;
    expect(isPlainHttp(base + path, init)).toBe(true);
    const mine = await seen(await httpFetch(base + path, init));
    expect(mine).toEqual(await seen(await fetch(base + path, init as RequestInit)));
  });

  it('rejects with the signal reason before the answer and while its body is read', async () => {
    const early = new AbortController();
    early.abort(new DOMException('early', 'TimeoutError'));
    await expect(httpFetch(`${base}/json`, { signal: early.signal })).rejects.toThrow('early');

    const late = new AbortController();
    const answer = await httpFetch(`${base}/hang`, { signal: late.signal });
    const reading = new Response(answer.body).text();
    late.abort(new DOMException('late', 'AbortError'));
    await expect(reading).rejects.toThrow('late');
  });

  it('fails as fetch does when there is no answer: TypeError "fetch failed" with the cause', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    const refused = `http://127.0.0.1:${port}/`;
    const mine = await httpFetch(refused, {}).catch((error: unknown) => error);
    const theirs = await fetch(refused).catch((error: unknown) => error);
    expect(mine).toBeInstanceOf(TypeError);
    expect((mine as Error).message).toBe((theirs as Error).message);
    expect((mine as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
    expect((theirs as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
    // a connection closed before the answer: the cause is Node's (fetch's is undici's "other side closed")
    const reset = await httpFetch(`${base}/reset`, {}).catch((error: unknown) => error);
    expect(reset).toBeInstanceOf(TypeError);
    expect((reset as Error).cause).toMatchObject({ code: 'ECONNRESET', message: 'socket hang up' });
  });

  it('leaves to fetch what it does not make: https, a dispatcher, streamed and form bodies', () => {
    expect(isPlainHttp('https://127.0.0.1/', {})).toBe(false);
    expect(isPlainHttp('http://127.0.0.1/', { dispatcher: {} })).toBe(false);
    expect(isPlainHttp('http://127.0.0.1/', { body: new ReadableStream(), duplex: 'half' })).toBe(false);
    expect(isPlainHttp('http://127.0.0.1/', { body: new URLSearchParams('a=1') })).toBe(false);
  });
});
