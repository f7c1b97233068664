import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../http/app.js';
import { createAcl, parseAclConfig, type Acl } from '../acl/index.js';
import { registerExecRoute } from './route.js';
import type { ExecSandbox } from './sandbox.js';
import type { ExecAllocation, ExecTask } from './session.js';

const ALLOC = '5b1f6d3e-9f0a-4c5e-8d7b-2a9c0e1f3b4d';
const DEAD_ALLOC = '0d6c4b2a-1e3f-4a5b-9c8d-7e6f5a4b3c2d';
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'sked-exec-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

function allocations(): Map<string, ExecAllocation> {
  const tasks: Record<string, ExecTask> = {
    web: { driver: 'mock', dir: root, env: { GREETING: 'hello from web' }, state: 'running' },
    raw: { driver: 'raw_exec', dir: root, env: {}, state: 'running' },
    done: { driver: 'mock', dir: root, env: {}, state: 'dead' },
    early: { driver: 'mock', dir: join(root, 'not-built-yet'), env: {}, state: 'pending' },
    unseen: { driver: 'mock', dir: join(root, 'not-received-yet'), env: {} },
    broken: { driver: 'mock', dir: join(root, 'vanished'), env: {}, state: 'running' },
  };
  return new Map([
    [ALLOC, { id: ALLOC, namespace: 'default', task: (name: string) => tasks[name] }],
    [DEAD_ALLOC, { id: DEAD_ALLOC, namespace: 'other', task: (name: string) => tasks[name] }],
  ]);
}

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** Stands for a sandbox in the ACL tests: runs the command as given (sandbox.test.ts runs the real one). */
const PASSTHROUGH: ExecSandbox = { name: 'passthrough', wrap: (program, args) => ({ program, args }) };

async function start(
  options: {
    acl?: Acl;
    handshakeTimeoutMs?: number;
    heartbeatMs?: number;
    sandbox?: ExecSandbox | undefined;
  } = {},
) {
  const app = createHttpApp();
  const known = allocations();
  registerExecRoute(app, {
    findAllocation: (id) => known.get(id),
    ...(options.acl === undefined
      ? {}
      : { acl: options.acl, sandbox: 'sandbox' in options ? options.sandbox : PASSTHROUGH }),
    handshakeTimeoutMs: options.handshakeTimeoutMs ?? 5000,
    heartbeatMs: options.heartbeatMs ?? 60_000,
  });
  apps.push(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return { app, base: `ws://127.0.0.1:${address.port}` };
}

interface Session {
  socket: WebSocket;
  frames: Record<string, unknown>[];
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves once the decoded stdout contains `text`. */
  waitForOutput(text: string): Promise<void>;
  /** Resolves once `check` holds after a frame arrived. */
  waitFor(check: () => boolean): Promise<void>;
  stdout(): string;
  stderr(): string;
  send(frame: unknown): void;
}

function url(base: string, query: Record<string, string>, alloc = ALLOC): string {
  return `${base}/v1/client/allocation/${alloc}/exec?${new URLSearchParams(query).toString()}`;
}

function connect(address: string, headers: Record<string, string> = {}): Promise<Session> {
  const socket = new WebSocket(address, { headers } as never);
  const frames: Record<string, unknown>[] = [];
  const watchers: (() => void)[] = [];
  const decode = (stream: string): string =>
    Buffer.concat(
      frames
        .map((frame) => frame[stream] as { data?: string } | undefined)
        .filter((part) => part?.data !== undefined)
        .map((part) => Buffer.from(part?.data ?? '', 'base64')),
    ).toString('utf8');
  socket.addEventListener('message', (event) => {
    frames.push(JSON.parse(String(event.data)) as Record<string, unknown>);
    for (const watcher of watchers) watcher();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.addEventListener('close', (event) => resolve({ code: event.code, reason: event.reason }));
  });
  const session: Session = {
    socket,
    frames,
    closed,
    stdout: () => decode('stdout'),
    stderr: () => decode('stderr'),
    send: (frame) => socket.send(JSON.stringify(frame)),
    waitFor: (check) =>
      new Promise<void>((resolve, reject) => {
        const test = (): void => {
          if (check()) resolve();
        };
        watchers.push(test);
        void closed.then(() => reject(new Error('closed before the condition held')));
        test();
      }),
    waitForOutput: (text) =>
      new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (session.stdout().includes(text)) resolve();
        };
        watchers.push(check);
        void closed.then(() =>
          reject(new Error(`closed before ${JSON.stringify(text)}: ${session.stdout()}`)),
        );
        check();
      }),
  };
  return new Promise((resolve) => {
    socket.addEventListener('open', () => resolve(session));
    socket.addEventListener('error', () => resolve(session));
  });
}

const b64 = (text: string): string => Buffer.from(text).toString('base64');

describe('exec WebSocket', () => {
  it('runs echo, relays its output, reports exit code 0, then closes normally', async () => {
    // Arrange
    const { base } = await start();
    // Act
    const session = await connect(url(base, { command: JSON.stringify(['echo', 'hello']), task: 'web' }));
    const closed = await session.closed;
    // Assert
    expect(session.stdout()).toBe('hello\n');
    expect(session.frames).toContainEqual({ stdout: { close: true } });
    expect(session.frames).toContainEqual({ stderr: { close: true } });
    expect(session.frames.at(-1)).toEqual({ exited: true, result: { exit_code: 0 } });
    expect(closed.code).toBe(1000);
  });

  it("reports the exit code of sh -c 'exit 3'", async () => {
    const { base } = await start();
    const session = await connect(
      url(base, { command: JSON.stringify(['sh', '-c', 'exit 3']), task: 'web' }),
    );
    await session.closed;
    expect(session.frames.at(-1)).toEqual({ exited: true, result: { exit_code: 3 } });
  });

  it('relays stderr separately, runs in the task directory with the task environment', async () => {
    const { base } = await start();
    const script = 'pwd; echo "$GREETING"; echo oops >&2';
    const session = await connect(url(base, { command: JSON.stringify(['sh', '-c', script]), task: 'web' }));
    await session.closed;
    expect(session.stdout()).toBe(`${root}\nhello from web\n`);
    expect(session.stderr()).toBe('oops\n');
  });

  it('writes stdin frames to the process and closes its stdin on request', async () => {
    // Arrange
    const { base } = await start();
    const session = await connect(url(base, { command: JSON.stringify(['cat']), task: 'web' }));
    // Act
    session.send({ stdin: { data: b64('line one\n') } });
    session.send({});
    session.send({ stdin: { data: b64('line two\n') } });
    session.send({ stdin: { close: true } });
    await session.closed;
    // Assert
    expect(session.stdout()).toBe('line one\nline two\n');
    expect(session.frames.at(-1)).toEqual({ exited: true, result: { exit_code: 0 } });
  });

  it('runs on a real pseudo-terminal sized by tty_size, and resizes it mid-session', async () => {
    // Arrange
    const { base } = await start();
    const script = 'read a; stty size; read b; stty size; test -t 0 && echo is-a-tty';
    const session = await connect(
      url(base, { command: JSON.stringify(['sh', '-c', script]), task: 'web', tty: 'true' }),
    );
    // Act
    session.send({ tty_size: { height: 40, width: 100 } });
    session.send({ stdin: { data: b64('\r') } });
    await session.waitForOutput('40 100');
    session.send({ tty_size: { height: 50, width: 132 } });
    session.send({ stdin: { data: b64('\r') } });
    await session.closed;
    // Assert
    expect(session.stdout()).toContain('50 132');
    expect(session.stdout()).toContain('is-a-tty');
    expect(session.frames.at(-1)).toEqual({ exited: true, result: { exit_code: 0 } });
  });

  it('sends heartbeat frames while the command runs', async () => {
    // Arrange: a command that runs until its stdin closes
    const { base } = await start({ heartbeatMs: 20 });
    const session = await connect(url(base, { command: JSON.stringify(['cat']), task: 'web' }));
    const heartbeats = (): number => session.frames.filter((frame) => Object.keys(frame).length === 0).length;
    // Act
    await session.waitFor(() => heartbeats() >= 3);
    session.send({ stdin: { close: true } });
    // Assert
    expect((await session.closed).code).toBe(1000);
    expect(heartbeats()).toBeGreaterThanOrEqual(3);
  });

  it('kills the command when the client goes away', async () => {
    // Arrange
    const { base } = await start();
    const session = await connect(
      url(base, { command: JSON.stringify(['sh', '-c', 'echo $$; exec sleep 30']), task: 'web' }),
    );
    await session.waitForOutput('\n');
    const pid = Number(session.stdout().trim());
    // Act
    session.socket.close();
    // Assert
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 200 && alive(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(alive()).toBe(false);
  });

  it('ends running sessions when the server closes', async () => {
    const { app, base } = await start();
    const session = await connect(url(base, { command: JSON.stringify(['sleep', '30']), task: 'web' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await app.close();
    const closed = await session.closed;
    expect(closed.code).toBe(1001);
  });

  it.each([
    [{ task: 'web' }, 'command is required: a JSON array such as ["/bin/sh"]'],
    [{ command: 'echo hi', task: 'web' }, 'command "echo hi" is not a JSON array of strings'],
    [{ command: '[1]', task: 'web' }, 'command "[1]" is not a JSON array of strings'],
    [{ command: '[]', task: 'web' }, 'command is empty: name the program to run as its first element'],
    [{ command: '["echo"]' }, 'task is required'],
    [{ command: '["echo"]', task: 'web', tty: 'maybe' }, 'tty "maybe" is not a boolean (true or false)'],
    [{ command: '["echo"]', task: 'nope' }, `task "nope" not found in allocation ${ALLOC}`],
    [{ command: '["echo"]', task: 'done' }, 'task "done" is not running'],
    [{ command: '["echo"]', task: 'early' }, 'task "early" has not started yet'],
    [{ command: '["echo"]', task: 'unseen' }, 'task "unseen" has not started yet'],
    [
      { command: '["no-such-program-here"]', task: 'web' },
      'command "no-such-program-here" was not found on the task\'s PATH',
    ],
    [{ command: '["./missing.sh"]', task: 'web' }, 'command "./missing.sh" is not an executable file'],
  ])('closes with 1008 for %j', async (query, reason) => {
    const { base } = await start();
    const session = await connect(url(base, query));
    expect(await session.closed).toEqual({ code: 1008, reason });
    expect(session.frames).toEqual([]);
  });

  it.each([
    ['00000000-0000-4000-8000-000000000000', 'alloc not found'],
    ['5b1f6d3e', 'alloc ID "5b1f6d3e" is not a full UUID'],
  ])('closes with 1008 for allocation %s', async (alloc, reason) => {
    const { base } = await start();
    const session = await connect(url(base, { command: '["echo"]', task: 'web' }, alloc));
    expect(await session.closed).toEqual({ code: 1008, reason });
  });

  it('closes with 1011 when the task directory of a running task is missing', async () => {
    const { base } = await start();
    const session = await connect(url(base, { command: '["echo"]', task: 'broken' }));
    expect(await session.closed).toEqual({
      code: 1011,
      reason: `exec failed: task directory ${JSON.stringify(join(root, 'vanished'))} does not exist`,
    });
  });

  it('closes with 1008 on a malformed frame and kills the command', async () => {
    const { base } = await start();
    const session = await connect(url(base, { command: JSON.stringify(['sleep', '30']), task: 'web' }));
    session.socket.send('{not json');
    expect(await session.closed).toEqual({ code: 1008, reason: 'exec frame is not valid JSON' });
  });

  describe('with ACL on', () => {
    const acl = createAcl(
      parseAclConfig({
        tokens: [
          { name: 'root', secret: 'root-secret', management: true },
          { name: 'exec', secret: 'exec-secret', namespaces: { default: ['alloc-exec'] } },
          {
            name: 'node-exec',
            secret: 'node-secret',
            namespaces: { default: ['alloc-exec', 'alloc-node-exec'] },
          },
          { name: 'reader', secret: 'read-secret', namespaces: { default: ['read-job'] } },
        ],
      }),
    );
    const echo = { command: JSON.stringify(['echo', 'ok']) };

    it.each([
      [{ ...echo, task: 'web' }, {}, 'ACL token not found'],
      [{ ...echo, task: 'web' }, { 'x-svc-token': 'wrong' }, 'ACL token not found'],
      [{ ...echo, task: 'web' }, { 'x-svc-token': 'read-secret' }, 'Permission denied'],
      [{ ...echo, task: 'raw' }, { 'x-svc-token': 'exec-secret' }, 'Permission denied'],
    ])('closes with 1008 for %j with %j', async (query, headers, reason) => {
      const { base } = await start({ acl });
      const session = await connect(url(base, query), headers);
      expect(await session.closed).toEqual({ code: 1008, reason });
    });

    it('refuses a token without alloc-exec in the allocation namespace', async () => {
      const { base } = await start({ acl });
      const session = await connect(url(base, { ...echo, task: 'web' }, DEAD_ALLOC), {
        'x-svc-token': 'exec-secret',
      });
      expect(await session.closed).toEqual({ code: 1008, reason: 'Permission denied' });
    });

    it.each([
      ['web', { 'x-svc-token': 'exec-secret' }],
      ['raw', { authorization: 'Bearer node-secret' }],
      ['raw', { 'x-svc-token': 'root-secret' }],
    ])('runs in task %s for %j', async (task, headers) => {
      const { base } = await start({ acl });
      const session = await connect(url(base, { ...echo, task }), headers);
      expect((await session.closed).code).toBe(1000);
      expect(session.stdout()).toBe('ok\n');
    });

    it('refuses alloc-exec alone on a mock task when there is no sandbox', async () => {
      const { base } = await start({ acl, sandbox: undefined });
      const refused = await connect(url(base, { ...echo, task: 'web' }), { 'x-svc-token': 'exec-secret' });
      expect(await refused.closed).toEqual({ code: 1008, reason: 'Permission denied' });
      const allowed = await connect(url(base, { ...echo, task: 'web' }), { 'x-svc-token': 'node-secret' });
      expect((await allowed.closed).code).toBe(1000);
    });

    it('takes the token from the first frame with ws_handshake=true', async () => {
      const { base } = await start({ acl });
      const session = await connect(url(base, { ...echo, task: 'web', ws_handshake: 'true' }));
      session.send({ version: 1, auth_token: 'exec-secret' });
      expect((await session.closed).code).toBe(1000);
      expect(session.stdout()).toBe('ok\n');
    });

    it.each([
      [{ stdin: { data: '' } }, 'the first frame must be the authentication frame when ws_handshake=true'],
      [
        { version: 2, auth_token: 'exec-secret' },
        'authentication frame version 2 is not supported (expected 1)',
      ],
      [{ version: 1, auth_token: 'wrong' }, 'ACL token not found'],
    ])('closes with 1008 when the handshake frame is %j', async (frame, reason) => {
      const { base } = await start({ acl });
      const session = await connect(url(base, { ...echo, task: 'web', ws_handshake: 'true' }));
      session.send(frame);
      expect(await session.closed).toEqual({ code: 1008, reason });
    });

    it('closes with 1008 when no handshake frame arrives in time', async () => {
      const { base } = await start({ acl, handshakeTimeoutMs: 50 });
      const session = await connect(url(base, { ...echo, task: 'web', ws_handshake: 'true' }));
      expect(await session.closed).toEqual({
        code: 1008,
        reason: 'no authentication frame arrived in time (ws_handshake=true)',
      });
    });
  });
});
