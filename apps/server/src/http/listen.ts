import type { FastifyInstance } from 'fastify';

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
