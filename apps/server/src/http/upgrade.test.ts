import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../test/server.js';

const upgrade =
  'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';

/** Sends a raw request and resolves with what came back once the server ends the connection. */
function sendAndWaitForEnd(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open; it sent: ${Buffer.concat(chunks).toString()}`));
    }, 10_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      clearTimeout(deadline);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString());
    });
    socket.write(request);
  });
}

describe('a WebSocket upgrade of a route that is not a WebSocket', () => {
  // Found by the fuzzer (test/fuzz.test.ts): the answer said keep-alive and the socket stayed
  // open with nothing reading it, and the server's close() then waited on it for ever.
  it.each([
    ['scheduler', '/v1/job/nope', /^HTTP\/1\.1 404 /],
    ['scheduler', '/v1/status/leader', /^HTTP\/1\.1 200 /],
    ['scheduler', '/v1/no-such-route', /^HTTP\/1\.1 404 /],
    ['mesh', '/v1/peerings', /^HTTP\/1\.1 200 /],
    ['scheduler', '/v1/client/allocation/%ff/exec?command=&task=web', /^HTTP\/1\.1 400 /],
    ['scheduler', '/v1/job/%ff', /^HTTP\/1\.1 400 /],
  ] as const)(
    '%s %s: answered over HTTP, then the server ends the connection',
    async (listener, path, status) => {
      // Arrange
      const t = await startTestServer();
      const port = Number(new URL(t.server[listener].url).port);
      // Act
      const answer = await sendAndWaitForEnd(
        port,
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${upgrade}\r\n`,
      );
      // Assert
      expect(answer).toMatch(status);
      expect(answer.toLowerCase()).toContain('connection: close');
      await t.server.close();
    },
  );
});

describe('an exec handshake the WebSocket library would refuse', () => {
  // Found by the fuzzer: the library answered these 400s typed text/html.
  it.each([
    [
      'a bad key',
      upgrade.replace('dGhlIHNhbXBsZSBub25jZQ==', 'short'),
      'Missing or invalid Sec-WebSocket-Key header',
    ],
    [
      'a bad version',
      upgrade.replace('Version: 13', 'Version: 7'),
      'Missing or invalid Sec-WebSocket-Version header',
    ],
    ['another protocol', upgrade.replace('Upgrade: websocket', 'Upgrade: h2c'), 'Invalid Upgrade header'],
  ])('%s: a plain-text 400 saying so, then the connection ends', async (_name, headers, message) => {
    const t = await startTestServer();
    const port = Number(new URL(t.server.scheduler.url).port);
    const path = '/v1/client/allocation/nope/exec?command=%5B%22ls%22%5D&task=web';
    const answer = await sendAndWaitForEnd(
      port,
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers}\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer.toLowerCase()).toContain('content-type: text/plain; charset=utf-8');
    expect(answer.endsWith(`\r\n\r\n${message}`)).toBe(true);
    await t.server.close();
  });
});

describe('a path fastify cannot decode', () => {
  // Found by the fuzzer: fastify answered these itself, with a JSON envelope and past every hook.
  it.each(['/v1/job/%ff', '/v1/client/allocation/%ff/exec', '/v1/job/a%zzb'])(
    'GET %s is a plain-text 400 that names the path',
    async (path) => {
      const t = await startTestServer();
      const res = await t.request('GET', path);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.body).toMatch(/^The path ".*" is not a valid url component$/);
    },
  );
});
