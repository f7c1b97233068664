import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fc, test } from '@fast-check/vitest';
import { createTransport, type TransportOptions } from '@sked/http';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';

import { createClient } from './client.js';
import { InvalidRequestError } from './errors.js';
import { ExecError, execAllocation } from './exec.js';

const ALLOC = '5b1f6d3e-9f0a-4c5e-8d7b-2a9c0e1f3b4d';

interface Peer {
  socket: WebSocket;
  url: URL;
  headers: IncomingHttpHeaders;
  frames: Record<string, unknown>[];
  /** Resolves with the next frame from the client. */
  next(): Promise<Record<string, unknown>>;
  send(frame: unknown): void;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

/** A real WebSocket server speaking the server side of the exec protocol, scripted per test. */
async function fakeServer(script: (peer: Peer) => void | Promise<void>, options: { refuse?: number } = {}) {
  const server = createServer();
  servers.push(server);
  const wss = new WebSocketServer({ noServer: true });
  const closed: Promise<{ code: number }>[] = [];
  server.on('upgrade', (request, socket, head) => {
    if (options.refuse !== undefined) {
      socket.end(
        `HTTP/1.1 ${options.refuse} Forbidden\r\ncontent-type: text/plain\r\ncontent-length: 17\r\n\r\nPermission denied`,
      );
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const frames: Record<string, unknown>[] = [];
      const waiters: ((frame: Record<string, unknown>) => void)[] = [];
      closed.push(new Promise((resolve) => ws.on('close', (code) => resolve({ code }))));
      ws.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString()) as Record<string, unknown>;
        frames.push(frame);
        waiters.shift()?.(frame);
      });
      let read = 0;
      const peer: Peer = {
        socket: ws,
        url: new URL(request.url ?? '/', 'http://localhost'),
        headers: request.headers,
        frames,
        next: () => {
          const index = read;
          read += 1;
          const ready = frames[index];
          return ready !== undefined
            ? Promise.resolve(ready)
            : new Promise((resolve) => waiters.push(resolve));
        },
        send: (frame) => ws.send(JSON.stringify(frame)),
      };
      void script(peer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const transport = (extra: TransportOptions = {}) =>
    createTransport({ address: `http://127.0.0.1:${port}`, env: false, ...extra });
  return { transport, closed };
}

const b64 = (text: string): string => Buffer.from(text).toString('base64');

async function text(iterable: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of iterable) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

describe('execAllocation', () => {
  it('relays stdout and stderr and resolves the exit code', async () => {
    // Arrange
    const { transport } = await fakeServer((peer) => {
      peer.send({ stdout: { data: b64('hel') } });
      peer.send({});
      peer.send({ stdout: { data: b64('lo\n') } });
      peer.send({ stderr: { data: b64('warn\n') } });
      peer.send({ stdout: { close: true } });
      peer.send({ stderr: { close: true } });
      peer.send({ exited: true, result: { exit_code: 0 } });
      peer.socket.close(1000);
    });
    // Act
    const session = execAllocation(transport(), ALLOC, 'web', ['echo', 'hello']);
    const [out, err, code] = await Promise.all([
      text(session.stdout),
      text(session.stderr),
      session.exitCode,
    ]);
    // Assert
    expect(out).toBe('hello\n');
    expect(err).toBe('warn\n');
    expect(code).toBe(0);
  });

  it('is available as client.exec', async () => {
    const { transport } = await fakeServer((peer) => {
      peer.send({ exited: true, result: { exit_code: 5 } });
      peer.socket.close(1000);
    });
    const { exec } = createClient(transport());
    expect(await exec(ALLOC, 'web', ['false']).exitCode).toBe(5);
  });

  it('sends the query, the token header, stdin, stdin close, resize and heartbeats as frames', async () => {
    // Arrange
    let seen: Peer | undefined;
    const { transport } = await fakeServer(async (peer) => {
      seen = peer;
      const frames = [await peer.next(), await peer.next(), await peer.next(), await peer.next()];
      const heartbeat = await peer.next();
      peer.send({ stdout: { data: b64(JSON.stringify(frames)) } });
      peer.send({ exited: true, result: { exit_code: Object.keys(heartbeat).length } });
      peer.socket.close(1000);
    });
    // Act
    const session = execAllocation(transport({ token: 's3cret' }), ALLOC, 'web', ['sh', '-c', 'cat'], {
      tty: true,
      size: { width: 100, height: 40 },
      heartbeatMs: 20,
    });
    session.write('hi');
    session.resize(132, 50);
    session.closeStdin();
    const output = await text(session.stdout);
    // Assert
    expect(await session.exitCode).toBe(0);
    expect(seen?.url.pathname).toBe(`/v1/client/allocation/${ALLOC}/exec`);
    expect(seen?.url.searchParams.get('command')).toBe('["sh","-c","cat"]');
    expect(seen?.url.searchParams.get('task')).toBe('web');
    expect(seen?.url.searchParams.get('tty')).toBe('true');
    expect(seen?.url.searchParams.get('ws_handshake')).toBeNull();
    expect(seen?.headers['x-svc-token']).toBe('s3cret');
    expect(JSON.parse(output)).toEqual([
      { tty_size: { width: 100, height: 40 } },
      { stdin: { data: b64('hi') } },
      { tty_size: { width: 132, height: 50 } },
      { stdin: { close: true } },
    ]);
  });

  it('sends the token in the first frame with wsHandshake, and not as a header', async () => {
    let seen: Peer | undefined;
    const { transport } = await fakeServer(async (peer) => {
      seen = peer;
      const auth = await peer.next();
      peer.send({ exited: true, result: { exit_code: auth['auth_token'] === 's3cret' ? 0 : 9 } });
      peer.socket.close(1000);
    });
    const session = execAllocation(transport({ token: 's3cret' }), ALLOC, 'web', ['true'], {
      wsHandshake: true,
    });
    expect(await session.exitCode).toBe(0);
    expect(seen?.frames[0]).toEqual({ version: 1, auth_token: 's3cret' });
    expect(seen?.url.searchParams.get('ws_handshake')).toBe('true');
    expect(seen?.headers['x-svc-token']).toBeUndefined();
  });

  it('rejects the exit code with the close code and reason of a refusal', async () => {
    const { transport } = await fakeServer((peer) => {
      peer.socket.close(1008, `task "nope" not found in allocation ${ALLOC}`);
    });
    const session = execAllocation(transport(), ALLOC, 'nope', ['true']);
    const error = await session.exitCode.catch((caught: unknown) => caught);
    expect(ExecError.is(error)).toBe(true);
    expect(error).toMatchObject({
      code: 1008,
      reason: `task "nope" not found in allocation ${ALLOC}`,
      message: `The exec session was refused: task "nope" not found in allocation ${ALLOC} (WebSocket close code 1008).`,
    });
    expect(await text(session.stdout)).toBe('');
  });

  it('rejects with the HTTP status when the upgrade is refused', async () => {
    const { transport } = await fakeServer(() => undefined, { refuse: 403 });
    const error = await execAllocation(transport(), ALLOC, 'web', ['true']).exitCode.catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({
      name: 'ExecError',
      status: 403,
      message: 'The server refused the exec WebSocket with HTTP 403: Permission denied',
    });
  });

  it('aborts: the exit code rejects with the reason and the server sees the socket close', async () => {
    const { transport, closed } = await fakeServer(() => undefined);
    const controller = new AbortController();
    const session = execAllocation(transport(), ALLOC, 'web', ['sleep', '30'], { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort(new Error('stop it'));
    await expect(session.exitCode).rejects.toThrow('stop it');
    await closed[0];
  });

  it('close() ends the session with an AbortError', async () => {
    const { transport, closed } = await fakeServer(() => undefined);
    const session = execAllocation(transport(), ALLOC, 'web', ['sleep', '30']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    session.close();
    await expect(session.exitCode).rejects.toMatchObject({ name: 'AbortError' });
    expect((await closed[0])?.code).toBe(1000);
  });

  it('keeps every byte when the consumer is slower than the output', async () => {
    // Arrange: 2 MiB in 64 KiB frames against a 128 KiB high-water mark
    const chunk = 'x'.repeat(64 * 1024);
    const { transport } = await fakeServer((peer) => {
      for (let i = 0; i < 32; i += 1) peer.send({ stdout: { data: b64(chunk) } });
      peer.send({ stdout: { close: true } });
      peer.send({ exited: true, result: { exit_code: 0 } });
      peer.socket.close(1000);
    });
    const session = execAllocation(transport(), ALLOC, 'web', ['yes'], { highWaterMark: 128 * 1024 });
    // Act
    let total = 0;
    for await (const part of session.stdout) {
      total += part.byteLength;
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Assert
    expect(total).toBe(32 * chunk.length);
    expect(await session.exitCode).toBe(0);
  });

  it.each([
    [['5b1f6d3e', 'web', ['true']], 'allocId'],
    [[ALLOC, '', ['true']], 'task'],
    [[ALLOC, 'web', []], 'command'],
    [[ALLOC, 'web', ['']], 'command'],
    [[ALLOC, 'web', 'true'], 'command'],
  ])('rejects the exit code of %j before connecting', async (args, parameter) => {
    const { transport, closed } = await fakeServer(() => undefined);
    const [allocId, task, command] = args as [string, string, string[]];
    const session = execAllocation(transport(), allocId, task, command);
    const error = await session.exitCode.catch((caught: unknown) => caught);
    expect(InvalidRequestError.is(error)).toBe(true);
    expect((error as InvalidRequestError).parameter).toBe(parameter);
    expect(await text(session.stdout)).toBe('');
    expect(closed).toEqual([]);
  });

  it('rejects a terminal size out of range', async () => {
    const transport = createTransport({ address: 'http://127.0.0.1:1', env: false });
    const session = execAllocation(transport, ALLOC, 'web', ['sh'], { size: { width: 0, height: 10 } });
    await expect(session.exitCode).rejects.toThrow(
      'The terminal width must be an integer from 1 to 65535, but got 0.',
    );
    expect(() => session.resize(80, 70_000)).toThrow(
      'The terminal height must be an integer from 1 to 65535, but got 70000.',
    );
  });
});

describe('properties', () => {
  test.prop([fc.array(fc.uint8Array({ maxLength: 2048 }), { maxLength: 12 })], { numRuns: 15 })(
    'stdin bytes reach the server unchanged, in order',
    async (parts) => {
      const { transport } = await fakeServer(async (peer) => {
        const received: Buffer[] = [];
        for (;;) {
          const frame = (await peer.next()) as { stdin?: { data?: string; close?: boolean } };
          if (frame.stdin?.close === true) break;
          if (frame.stdin?.data !== undefined) received.push(Buffer.from(frame.stdin.data, 'base64'));
        }
        peer.send({ stdout: { data: Buffer.concat(received).toString('base64') } });
        peer.send({ exited: true, result: { exit_code: 0 } });
        peer.socket.close(1000);
      });
      const session = execAllocation(transport(), ALLOC, 'web', ['cat']);
      for (const part of parts) session.write(part);
      session.closeStdin();
      const chunks: Buffer[] = [];
      for await (const chunk of session.stdout) chunks.push(Buffer.from(chunk));
      expect(Buffer.concat(chunks)).toEqual(Buffer.concat(parts.map((part) => Buffer.from(part))));
    },
  );
});
