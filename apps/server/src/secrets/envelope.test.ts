import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../test/server.js';

/** Sends raw bytes to the secrets listener and resolves with the whole answer once it ends. */
function sendRaw(port: number, request: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new Error('no complete answer within 10 s'));
    }, 10_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(deadline);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.write(request);
  });
}

describe('errors fastify and Node answer before any route', () => {
  // Found by the fuzzer: these came as fastify's {"error": ..., "statusCode": 400}, which clients
  // of the secrets service do not read; the service's envelope is {"errors": [...]}.
  it.each([
    [
      'a path that does not decode',
      Buffer.from('GET /v1/auth/ldap/groups/% HTTP/1.1\r\n'),
      'the path "/v1/auth/ldap/groups/%" is not a valid url component',
    ],
    [
      'bytes a request line may not hold',
      Buffer.concat([
        Buffer.from('GET /v1/auth/ldap/groups/'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(' HTTP/1.1\r\n'),
      ]),
      'malformed HTTP request',
    ],
  ])('%s: 400 in the envelope', async (_name, line, message) => {
    // Arrange
    const t = await startTestServer({ secretsRootToken: 'root' });
    const port = Number(new URL(t.server.secrets.url).port);
    const request = Buffer.concat([
      line,
      Buffer.from(`Host: 127.0.0.1:${port}\r\nX-Secrets-Token: root\r\nConnection: close\r\n\r\n`),
    ]);
    // Act
    const answer = await sendRaw(port, request);
    // Assert
    const [head = '', payload = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head.toLowerCase()).toMatch(/content-type: application\/json/);
    expect(JSON.parse(payload)).toEqual({ errors: [message] });
  });
});
