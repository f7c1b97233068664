/**
 * The TLS side of a transport: undici's dispatcher carrying the TLS settings and undici's fetch,
 * made by the `#platform` module (loaded on first use in Node; refused in a browser build).
 */
import type { Agent } from 'undici';

import { createTlsFetch } from '#platform';

import type { FetchLike, ResolvedTls } from './config.js';

/** The TLS side of a transport: undici's dispatcher with the settings, and undici's fetch. @internal */
export interface TlsFetch {
  readonly dispatcher: Agent;
  readonly fetch: FetchLike;
}

/**
 * The TLS side for a transport's settings, created on the first request that needs it: a transport
 * without TLS options never loads undici (a command-line tool starts faster).
 * @throws {@link ConfigError} in a browser build, when the transport is created.
 * @internal
 */
export function lazyTlsFetch(tls: ResolvedTls): () => Promise<TlsFetch> {
  const connect: Record<string, unknown> = { rejectUnauthorized: tls.rejectUnauthorized };
  if (tls.ca !== undefined) connect['ca'] = tls.ca;
  if (tls.cert !== undefined) connect['cert'] = tls.cert;
  if (tls.key !== undefined) connect['key'] = tls.key;
  return createTlsFetch(connect);
}
