import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sked } from './harness.js';

/**
 * A tiny HTTP server on a raw socket (so it takes the `LIST` verb too) that answers every request
 * as the current mode says, or never.
 */
let mode: { status: number; type: string; body: string } | 'never' = 'never';
let server: Server;
let address: string;
const sockets = new Set<Socket>();
beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n') || mode === 'never') return;
      const { status, type, body } = mode;
      socket.end(
        `HTTP/1.1 ${status} X\r\ncontent-type: ${type}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
);

const TOKEN = 'a-long-secret-token-value';
const run = (args: readonly string[], env: Record<string, string> = {}) =>
  sked([...args, '--address', address], {
    env: { SKED_SECRETS_TOKEN: TOKEN, SKED_MESH_TOKEN: TOKEN, ...env },
  });

const COMMANDS: readonly (readonly string[])[] = [
  ['peering', 'list'],
  ['peering', 'list', '--json'],
  ['peering', 'read', 'dc2'],
  ['peering', 'generate-token', 'dc2'],
  ['token', 'lookup'],
  ['token', 'lookup', '--json'],
  ['ldap', 'user', 'list'],
  ['ldap', 'group', 'list', '--json'],
  ['ldap', 'user', 'read', 'alice'],
  ['ldap', 'config', 'read'],
  ['job', 'status'],
  ['job', 'status', 'web'],
  ['job', 'inspect', 'web'],
  ['alloc', 'status'],
  ['volume', 'status'],
];

const ANSWERS = [
  ['null', { status: 200, type: 'application/json', body: 'null' }],
  ['a wrong shape', { status: 200, type: 'application/json', body: '{"x":1}' }],
  [
    'an HTML page',
    { status: 200, type: 'text/html', body: '<!DOCTYPE html>\n<html><body>\n<h1>Hi</h1>\n</body></html>' },
  ],
  [
    'an HTML error page',
    { status: 502, type: 'text/html', body: '<html>\n<head><title>502</title></head>\n</html>' },
  ],
] as const;

describe('answers sked cannot use are a one-line error with exit 1', () => {
  describe.each(ANSWERS)('%s', (_name, answer) => {
    it.each(COMMANDS.map((args) => [args.join(' '), args] as const))('sked %s', async (_shown, args) => {
      mode = answer;
      const result = await run(args);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Error: \S/);
      expect(result.stderr).not.toMatch(/\bat .*\.js:\d+/);
    });
  });
});

describe('a server that never answers', () => {
  it('is cut by --timeout, with the timeout in the message and what to change', async () => {
    mode = 'never';
    const result = await run(['peering', 'list', '--timeout', '500ms']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('timed out after 500 ms');
    expect(result.stderr).toContain('Raise --timeout or SKED_CLIENT_TIMEOUT');
  });

  it.each(['ldap user list', 'job status', 'token lookup'])(
    'is cut by SKED_CLIENT_TIMEOUT (seconds) for sked %s',
    async (line) => {
      mode = 'never';
      const result = await run(line.split(' '), { SKED_CLIENT_TIMEOUT: '1' });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('timed out after 1000 ms');
    },
  );

  it('refuses a timeout that is not a duration or is longer than a timer holds', async () => {
    const bad = await run(['peering', 'list', '--timeout', 'soon']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--timeout "soon" is not a duration.');
    const long = await run(['peering', 'list'], { SKED_CLIENT_TIMEOUT: '25d' });
    expect(long.code).toBe(1);
    expect(long.stderr).toContain(
      'SKED_CLIENT_TIMEOUT "25d" is longer than 2147483647 ms (about 24.8 days), the longest a timer waits.',
    );
    const huge = await run(['peering', 'list', '--timeout', '600h']);
    expect(huge.stderr).toContain(
      'is longer than 2147483647 ms (about 24.8 days), the longest a timer waits.',
    );
    const fraction = await run(['peering', 'list', '--timeout', '1.5']);
    expect(fraction.stderr).toContain('--timeout "1.5" is not a duration.');
  });
});
