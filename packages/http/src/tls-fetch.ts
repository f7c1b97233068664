/**
 * The TLS side of a transport, loaded on first use: a transport without TLS options never loads
 * undici.
 */
import type { Agent } from 'undici';
import type { FetchLike, ResolvedTls } from './config.js';

/** The TLS side of a transport: undici's dispatcher with the settings, and undici's fetch. @internal */
export interface TlsFetch {
  readonly dispatcher: Agent;
  readonly fetch: FetchLike;
}

/**
 * Loads undici and creates its dispatcher for TLS settings, once, on the first request that needs
 * it: a transport without TLS options never loads undici (a command-line tool starts faster).
 * @internal
 */
export function lazyTlsFetch(tls: ResolvedTls): () => Promise<TlsFetch> {
  let loaded: Promise<TlsFetch> | undefined;
  return () =>
    (loaded ??= import('undici').then((undici) => {
      const connect: Record<string, unknown> = { rejectUnauthorized: tls.rejectUnauthorized };
      if (tls.ca !== undefined) connect['ca'] = tls.ca;
      if (tls.cert !== undefined) connect['cert'] = tls.cert;
      if (tls.key !== undefined) connect['key'] = tls.key;
      return { dispatcher: new undici.Agent({ connect }), fetch: undici.fetch as unknown as FetchLike };
    }));
}
