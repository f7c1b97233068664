/**
 * The browser counterpart of `platform.ts` (the package's `#platform` import under the `browser`
 * condition, which bundlers such as esbuild, Vite and webpack use for browser builds). A page cannot
 * read files and its TLS is the browser's own, so TLS options are refused with a message saying
 * so; everything else of the transport works as in Node, on the browser's `fetch`.
 */
import type { FetchInit, FetchLike } from './config.js';
import { ConfigError } from './errors.js';
import type { TlsFetch } from './tls-fetch.js';

/**
 * Refuses: a browser page cannot read files.
 * @param _file - Path of the file.
 * @returns Never.
 * @throws an error with code `EBROWSER`, which the caller reports as "a browser cannot read files".
 * @internal
 */
export function readTextFile(_file: string): string {
  throw Object.assign(new Error('a browser cannot read files'), { code: 'EBROWSER' });
}

/**
 * Refuses, when the transport is created: the browser makes its TLS connections with its own settings.
 * @param _connect - The TLS settings asked for.
 * @returns Never.
 * @throws {@link ConfigError} saying why.
 * @internal
 */
export function createTlsFetch(_connect: Readonly<Record<string, unknown>>): () => Promise<TlsFetch> {
  throw new ConfigError(
    'TLS options (CA, client certificate and key, skipVerify) cannot be applied in a browser: the browser makes TLS connections with its own settings.',
    'option tls',
    undefined,
  );
}

/**
 * The fetch of a request without a caller's fetch: the browser's.
 * @param input - The absolute URL.
 * @param init - The request.
 * @returns The answer.
 * @internal
 */
export function defaultFetch(input: string, init: FetchInit): Promise<Response> {
  return (globalThis.fetch as FetchLike)(input, init);
}
