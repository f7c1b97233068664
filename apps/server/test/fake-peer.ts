import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterAll } from 'vitest';
import { encodeToken } from '../src/mesh/token.js';

/** A hand-made peer server: answers as `handler` says and records its connections. */
export interface FakePeer {
  /** `127.0.0.1:PORT`. */
  readonly address: string;
  /** Requests received, in order. */
  readonly requests: IncomingMessage[];
  /** Resolves when `count` connections have been closed. */
  closed(count?: number): Promise<void>;
  /** Connections open now. */
  readonly open: number;
  /** WebSocket upgrade requests received. */
  readonly upgrades: number;
  /** Handles upgrade requests (by default they are left unanswered). */
  onUpgrade(handler: (socket: Duplex) => void): void;
  /** A token whose only address is this peer. */
  token(): string;
  /** Stops the server and drops its connections. */
  close(): Promise<void>;
}

const started: FakePeer[] = [];
afterAll(async () => {
  await Promise.all(started.splice(0).map((peer) => peer.close()));
});

/**
 * Starts a fake peer on 127.0.0.1.
 * @param handler - Answers each request (may never answer).
 * @param port - Port to listen on. @defaultValue 0 (a free one)
 * @returns The peer.
 */
export async function startFakePeer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  port = 0,
): Promise<FakePeer> {
  const requests: IncomingMessage[] = [];
  const sockets = new Set<Socket>();
  let closedCount = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((request, response) => {
    requests.push(request);
    handler(request, response);
  });
  let upgrades = 0;
  let upgradeHandler: (socket: Duplex) => void = () => undefined;
  server.on('upgrade', (_request, socket: Duplex) => {
    upgrades += 1;
    // an upgraded socket is paused and half-open: read it and close it when the client closes its side
    socket.on('error', () => undefined);
    socket.on('end', () => socket.destroy());
    socket.resume();
    upgradeHandler(socket);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      closedCount += 1;
      for (const waiter of waiters.filter((w) => w.count <= closedCount)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const peer: FakePeer = {
    address,
    requests,
    get open() {
      return sockets.size;
    },
    get upgrades() {
      return upgrades;
    },
    onUpgrade(handler) {
      upgradeHandler = handler;
    },
    closed(count = 1) {
      if (closedCount >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    token: () =>
      encodeToken({
        CA: null,
        ServerAddresses: [address],
        ServerName: 'server.fake.peering.x.mesh',
        PeerID: '00000000-0000-4000-8000-000000000000',
        EstablishmentSecret: 'secret',
        Remote: { Partition: 'default', Datacenter: 'far' },
      }),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  started.push(peer);
  return peer;
}

/**
 * Writes an endless answer body, as fast as the reader takes it, until the connection closes.
 * @param response - The answer.
 * @param written - Counts the bytes written.
 */
export function sendEndless(response: ServerResponse, written: { bytes: number }): void {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  response.writeHead(200, { 'content-type': 'application/json' });
  const pump = (): void => {
    while (!response.destroyed && !response.writableEnded) {
      written.bytes += chunk.length;
      if (!response.write(chunk)) {
        response.once('drain', pump);
        return;
      }
    }
  };
  response.on('error', () => undefined);
  pump();
}
