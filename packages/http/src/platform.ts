/**
 * What the transport needs of Node.js alone: reading the TLS files, and undici's `Agent` and `fetch`
 * to carry TLS settings (undici loaded on the first request that needs them). A browser build gets `platform-browser.ts` instead (the package's
 * `#platform` import, `browser` condition), which has none of Node's modules in its graph.
 */
import { readFileSync } from 'node:fs';

import type { FetchInit, FetchLike } from './config.js';
import { httpFetch, isPlainHttp } from './http-fetch.js';
import type { TlsFetch } from './tls-fetch.js';

/**
 * Reads a text file (a PEM file named by a TLS option).
 * @param file - Path of the file.
 * @returns Its text (UTF-8).
 * @throws the file system's error (with its `code`) when it cannot be read.
 * @internal
 */
export function readTextFile(file: string): string {
  return readFileSync(file, 'utf8');
}

/**
 * The TLS side of a transport for undici's `connect` options, loaded once on first use: a transport
 * without TLS options never loads undici (a command-line tool starts faster).
 * @param connect - undici's `connect` options (`ca`, `cert`, `key`, `rejectUnauthorized`).
 * @returns A function resolving undici's dispatcher with the settings and undici's fetch.
 * @internal
 */
export function createTlsFetch(connect: Readonly<Record<string, unknown>>): () => Promise<TlsFetch> {
  let loaded: Promise<TlsFetch> | undefined;
  return () =>
    (loaded ??= import('undici').then((undici) => ({
      dispatcher: new undici.Agent({ connect }),
      fetch: undici.fetch as unknown as FetchLike,
    })));
}

/**
 * The fetch of a request without a caller's fetch: `node:http` for a plain `http:` request (Node's
 * own fetch costs ~50 ms to load, see `http-fetch.ts`), the global `fetch` for any other.
 * @param input - The absolute URL.
 * @param init - The request.
 * @returns The answer.
 * @internal
 */
export function defaultFetch(input: string, init: FetchInit): Promise<Response> {
  return isPlainHttp(input, init) ? httpFetch(input, init) : (globalThis.fetch as FetchLike)(input, init);
}
