import type { FastifyInstance } from 'fastify';
import type { FaultInjector } from './faults.js';
import type { LocalOnlyOptions } from './local-only.js';

/**
 * The host as it goes into a URL: an IPv6 address in brackets.
 * @param host - A host name or IP address.
 * @returns The host for `http://HOST:PORT`.
 */
export function hostForUrl(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * The port a listening fastify instance got (the real one when 0 was asked for).
 * @param app - A listening app.
 * @param asked - The port asked for, returned when the address is not a socket address.
 * @returns The port.
 */
export function listeningPort(app: FastifyInstance, asked: number): number {
  const address = app.server.address();
  return typeof address === 'object' && address !== null ? address.port : asked;
}

/**
 * Closes an app gracefully, cutting the connections still open after a grace period (a client
 * that ignores `Connection: close`), so that stopping always ends. Calling it again returns the
 * same promise.
 * @param app - The app.
 * @param graceMs - Grace period in milliseconds.
 * @returns A function that closes, once.
 */
export function gracefulClose(app: FastifyInstance, graceMs = 2000): () => Promise<void> {
  let closed: Promise<void> | undefined;
  return () => {
    closed ??= (async () => {
      const force = setTimeout(() => app.server.closeAllConnections(), graceMs);
      try {
        await app.close();
      } finally {
        clearTimeout(force);
      }
    })();
    return closed;
  };
}

/**
 * Makes a service's app listen where its options say: on a listen error (a port in use) the app and
 * what `release` frees are closed before the error is rethrown.
 * @param app - The service's app, its routes and guards registered.
 * @param options - Address and port.
 * @param release - Frees what the service holds besides the app (its cluster, its timers).
 * @returns The service's base address, its port and its graceful {@link gracefulClose}.
 */
export async function listenService(
  app: FastifyInstance,
  options: Pick<ServiceListenOptions, 'host' | 'port'>,
  release?: () => unknown,
): Promise<{ url: string; port: number; close: () => Promise<void> }> {
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await app.close().catch(() => undefined);
    await release?.();
    throw error;
  }
  const port = listeningPort(app, options.port);
  return { url: `http://${hostForUrl(options.host)}:${port}`, port, close: gracefulClose(app) };
}

/** What every service's `startXService` takes: where to listen and the shared HTTP limits. */
export interface ServiceListenOptions {
  /** Address to listen on. */
  readonly host: string;
  /** Port; 0 picks a free one. */
  readonly port: number;
  /** Largest accepted request body in bytes. @defaultValue the service's own */
  readonly maxBody?: number | undefined;
  /** Hosts accepted besides the listener's own address and loopback (see `guardLocalOnly`). */
  readonly localOnly?: LocalOnlyOptions | undefined;
  /** The server's fault injector, installed on the listener after its local-only guard. @defaultValue none */
  readonly faults?: FaultInjector | undefined;
}

/** What every service's `startXService` returns: a listening service. */
export interface RunningService {
  /** Base address, `http://HOST:PORT`. */
  readonly url: string;
  /** The fastify instance (for tests and in-process use). */
  readonly app: FastifyInstance;
  /** Stops: new connections refused, open ones cut after a grace period; calling it again is a no-op. */
  close(): Promise<void>;
}
