// A port in use: startServer rejects with the listen error and gives back everything it had bound.
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';

import { startServer } from './server.js';

const held: Server[] = [];
afterEach(async () => {
  await Promise.all(held.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** Listens on a free loopback port and keeps it; resolves its number. */
async function hold(): Promise<number> {
  const server = createServer();
  held.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** A free port, released at once (to ask a listener for a known port). */
async function freePort(): Promise<number> {
  const port = await hold();
  await new Promise((r) => (held.pop() as Server).close(r));
  return port;
}

describe('startServer with a port in use', () => {
  it.each(['secretsPort', 'meshPort'] as const)(
    'rejects with EADDRINUSE for %s and releases the ports already bound',
    async (busy) => {
      const taken = await hold();
      const schedulerPort = await freePort();
      const error = await startServer({
        schedulerPort,
        secretsPort: 0,
        meshPort: 0,
        nodes: 0,
        [busy]: taken,
      }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'EADDRINUSE' });
      // The scheduling listener that had started is closed: its port can be bound again.
      expect(
        await new Promise((resolve) => {
          const probe = createServer();
          probe.once('error', () => resolve(false));
          probe.listen(schedulerPort, '127.0.0.1', () => probe.close(() => resolve(true)));
        }),
      ).toBe(true);
    },
  );

  it('rejects with EADDRINUSE for the scheduling port', async () => {
    const taken = await hold();
    const error = await startServer({ schedulerPort: taken, secretsPort: 0, meshPort: 0, nodes: 0 }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'EADDRINUSE' });
  });
});
