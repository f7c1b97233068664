import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { fc, test } from '@fast-check/vitest';
import { afterEach, describe, expect, it } from 'vitest';

import {
  ApiError,
  ConfigError,
  createTransport,
  DEFAULT_MAX_RESPONSE_BYTES,
  type FetchLike,
} from './index.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A server that answers 200 (or `status`) with an endless body and reports when the client hangs up. */
async function endless(status = 200): Promise<{ url: string; hungUp: Promise<number> }> {
  let resolve!: (sent: number) => void;
  const hungUp = new Promise<number>((r) => (resolve = r));
  const server = createServer((_req, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk)) sent += chunk.length;
    };
    res.on('drain', pump);
    res.on('close', () => resolve(sent));
    res.write('[');
    pump();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hungUp };
}

const rejection = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );

describe('answer size limit', () => {
  it('stops reading an endless answer at the limit and says so', async () => {
    const { url, hungUp } = await endless();
    const transport = createTransport({ address: url, env: false, maxResponseBytes: 1024 * 1024 });
    const error = await rejection(transport.request({ path: '/v1/jobs' }));
    expect(ApiError.is(error)).toBe(true);
    expect((error as ApiError).status).toBe(200);
    expect((error as ApiError).message).toMatch(
      /^The answer to GET http:\/\/127\.0\.0\.1:\d+\/v1\/jobs is larger than the limit of 1048576 bytes/,
    );
    // The connection is closed: the server stops sending soon after the limit.
    expect(await hungUp).toBeLessThan(64 * 1024 * 1024);
  });

  it('limits error answers too', async () => {
    const { url } = await endless(500);
    const transport = createTransport({ address: url, env: false, maxResponseBytes: 4096 });
    const error = await rejection(transport.request({ path: '/v1/x' }));
    expect((error as ApiError).status).toBe(500);
    expect((error as ApiError).message).toContain('larger than the limit of 4096 bytes');
  });

  it('refuses a Content-Length over the limit before reading', async () => {
    let pulled = 0;
    const fetch: FetchLike = async () => {
      await Promise.resolve();
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 1;
          controller.enqueue(new Uint8Array(10));
        },
      });
      return new Response(body, { status: 200, headers: { 'content-length': '2000' } });
    };
    const transport = createTransport({ env: false, fetch, maxResponseBytes: 1000 });
    const error = await rejection(transport.request({ path: '/a' }));
    expect((error as ApiError).message).toContain('(Content-Length 2000)');
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('takes a per-request limit over the transport one, and 0 as no limit', async () => {
    const body = JSON.stringify('x'.repeat(5000));
    const fetch: FetchLike = async () => {
      await Promise.resolve();
      return new Response(body, { status: 200 });
    };
    const transport = createTransport({ env: false, fetch, maxResponseBytes: 100 });
    await expect(transport.request({ path: '/a', maxBytes: 0 })).resolves.toMatchObject({
      data: 'x'.repeat(5000),
    });
    await expect(transport.request({ path: '/a' })).rejects.toThrow(/limit of 100 bytes/);
    await expect(
      createTransport({ env: false, fetch }).request({ path: '/a', maxBytes: 10 }),
    ).rejects.toThrow(/limit of 10 bytes/);
  });

  it('defaults to 64 MiB and refuses a bad limit with a ConfigError', () => {
    expect(createTransport({ env: false }).config.maxResponseBytes).toBe(DEFAULT_MAX_RESPONSE_BYTES);
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(64 * 1024 * 1024);
    for (const bad of [-1, 1.5, Number.NaN, Infinity]) {
      expect(() => createTransport({ env: false, maxResponseBytes: bad })).toThrow(ConfigError);
    }
  });

  // Law: however the body is chunked, an answer of n bytes resolves exactly when n <= limit.
  test.prop([
    fc.array(fc.integer({ min: 1, max: 300 }), { maxLength: 12 }),
    fc.integer({ min: 1, max: 2000 }),
  ])('resolves exactly when the body fits the limit', async (sizes, limit) => {
    const total = sizes.reduce((a, b) => a + b, 0);
    const fetch: FetchLike = async () => {
      await Promise.resolve();
      const chunks = sizes.map((n) => new TextEncoder().encode('a'.repeat(n)));
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.shift();
          if (next === undefined) controller.close();
          else controller.enqueue(next);
        },
      });
      return new Response(body, { status: 200 });
    };
    const transport = createTransport({ env: false, fetch, maxResponseBytes: limit });
    const outcome = await transport.request({ path: '/a', parse: 'text' }).then(
      (r) => r.data,
      (e: unknown) => e,
    );
    if (total <= limit) expect(outcome).toBe('a'.repeat(total));
    else expect(ApiError.is(outcome)).toBe(true);
  });
});
