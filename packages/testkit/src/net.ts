/**
 * Free loopback ports for test servers that cannot listen on port 0 themselves and report the port
 * they got (`slapd`, `verdaccio`) (`@sked/testkit/net`).
 *
 * @packageDocumentation
 */
import { createServer } from 'node:net';

/**
 * A TCP port of 127.0.0.1 that was free a moment ago: listens on port 0, reads the port the system
 * chose, and closes. Another process may take it before the caller listens, so a caller retries on
 * `EADDRINUSE`.
 * @returns The port number.
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
