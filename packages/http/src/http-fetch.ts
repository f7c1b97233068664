/**
 * A transport's plain `http:` requests in Node, made with `node:http` rather than the global
 * `fetch`: Node loads its fetch (undici, with `http2`, `tls`, `crypto`, `perf_hooks` ...) on first
 * use, which costs a command-line tool that makes one request about 50 ms, as much as the rest of
 * its start-up. The answer has what the transport reads of a `Response` (status, status text,
 * headers, a web `ReadableStream` body, decompressed), and the request behaves as fetch's does
 * where the transport can tell: a signal rejects with its reason, also while the body is read; a
 * connection failure rejects with `TypeError('fetch failed')` whose `cause` is the socket's error;
 * redirects are answers; a string body gets fetch's `text/plain;charset=UTF-8` and a
 * `Content-Length`. Other requests (`https:`, TLS settings, streamed or form bodies, a caller's
 * fetch) take `fetch` as before.
 */
import type * as Http from 'node:http';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type * as Stream from 'node:stream';
import type { Readable } from 'node:stream';
import type * as Zlib from 'node:zlib';

import type { FetchInit } from './config.js';

/** Statuses whose answer has no body, as fetch reports them (`body` is `null`). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The part of a `Response` the transport reads. */
interface Answer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Pick<Headers, 'get' | 'has'>;
  readonly body: ReadableStream<Uint8Array> | null;
}

/** Whether `init` is a request this module makes (no dispatcher, a body fetch would send as is). */
export function isPlainHttp(input: string, init: FetchInit): boolean {
  const body = init.body;
  return (
    input.startsWith('http:') &&
    init.dispatcher === undefined &&
    (body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array)
  );
}

/** Headers read from a Node answer: names in any case; repeated fields joined by `, ` as fetch does. */
function answerHeaders(message: IncomingMessage): Pick<Headers, 'get' | 'has'> {
  const values = message.headersDistinct;
  return {
    get: (name) => values[name.toLowerCase()]?.join(', ') ?? null,
    has: (name) => values[name.toLowerCase()] !== undefined,
  };
}

/** The body as fetch gives it: decompressed (`gzip`, `deflate`, `br`), as a web stream. */
function answerBody(message: IncomingMessage, method: string): ReadableStream<Uint8Array> | null {
  if (method === 'HEAD' || NULL_BODY.has(message.statusCode ?? 0)) {
    message.resume();
    return null;
  }
  const stream = builtin<typeof Stream>('node:stream');
  const encoding = (message.headers['content-encoding'] ?? '').trim().toLowerCase();
  let source: Readable = message;
  if (encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate' || encoding === 'br') {
    const zlib = builtin<typeof Zlib>('node:zlib');
    const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
    const inflate =
      encoding === 'br'
        ? zlib.createBrotliDecompress()
        : encoding === 'deflate'
          ? zlib.createInflate(flush)
          : zlib.createGunzip(flush);
    source = stream.pipeline(message, inflate, () => undefined);
  }
  return stream.Readable.toWeb(source) as ReadableStream<Uint8Array>;
}

function builtin<T>(id: string): T {
  return process.getBuiltinModule(id) as T;
}

/**
 * Sends one request with `node:http` (see the module's comment), for requests {@link isPlainHttp}
 * accepts.
 * @param input - The absolute `http:` URL.
 * @param init - Method, headers (names in lower case), body, signal.
 * @returns The answer, once its headers arrived.
 * @internal
 */
export function httpFetch(input: string, init: FetchInit): Promise<Response> {
  const http = builtin<typeof Http>('node:http');
  const method = (init.method ?? 'GET').toUpperCase();
  const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) };
  const body = init.body as string | Uint8Array | null | undefined;
  if (typeof body === 'string' && headers['content-type'] === undefined) {
    headers['content-type'] = 'text/plain;charset=UTF-8';
  }
  if (body !== undefined && body !== null) headers['content-length'] = String(Buffer.byteLength(body));
  const signal = init.signal ?? undefined;

  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    let request: ClientRequest;
    let answer: IncomingMessage | undefined;
    const onAbort = (): void => {
      // before the answer: the promise rejects; after: its body errors, with the signal's reason
      reject(signal?.reason);
      answer?.destroy(signal?.reason as Error);
      request.destroy(signal?.reason as Error);
    };
    try {
      request = http.request(input, { method, headers });
    } catch (error) {
      reject(new TypeError('fetch failed', { cause: error }));
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted === true ? signal.reason : new TypeError('fetch failed', { cause: error }));
    });
    request.once('response', (message) => {
      answer = message;
      // its errors reach the reader through the body stream (and none is left unhandled)
      message.on('error', () => undefined);
      message.once('close', () => signal?.removeEventListener('abort', onAbort));
      const result: Answer = {
        status: message.statusCode ?? 0,
        statusText: message.statusMessage ?? '',
        headers: answerHeaders(message),
        body: answerBody(message, method),
      };
      resolve(result as Response);
    });
    request.end(body ?? undefined);
  });
}
