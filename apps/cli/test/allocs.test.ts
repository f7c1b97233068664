import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';

import { makeJob } from '@sked/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { cleanEnv, eventually, SKED, sked, startServer, type ServerProcess } from './harness.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

let server: ServerProcess;
let allocId: string;
const run = (args: string[], options: { input?: string; env?: Record<string, string> } = {}) =>
  sked(args, { ...options, env: { ...server.env, ...options.env } });

beforeAll(async () => {
  server = await startServer([]);
  const submitted = await run(['job', 'run', fixture('shell.json')]);
  if (submitted.code !== 0) throw new Error(`job run failed: ${submitted.stderr}`);
  allocId = await eventually(async () => {
    const { stdout } = await run([
      'alloc',
      'status',
      '--json',
      '--filter',
      'JobID == "shell" and ClientStatus == "running"',
    ]);
    return (JSON.parse(stdout) as { ID: string }[])[0]?.ID;
  }, 'a running allocation of job shell');
});
afterAll(async () => {
  await server.close();
});

describe('alloc', () => {
  it('lists allocations and shows one by its short ID with its tasks and events', async () => {
    const list = await run(['alloc', 'status']);
    expect(list.stdout).toMatch(/^ID +Node ID +Task Group +Version +Desired +Status +Created +Modified$/m);
    expect(list.stdout).toMatch(
      new RegExp(`^${allocId.slice(0, 8)} +[0-9a-f]{8} +shell +0 +run +running `, 'm'),
    );
    const one = await run(['alloc', 'status', allocId.slice(0, 8)]);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain(`ID                  = ${allocId}`);
    expect(one.stdout).toContain('Task "sleeper" is "running"');
    expect(one.stdout).toMatch(/Recent Events:\nTime +Type +Description\n\S+ +Started /);
    const json = JSON.parse((await run(['alloc', 'status', allocId, '--json'])).stdout);
    expect(json.ID).toBe(allocId);
    const unknown = await run(['alloc', 'status', 'ffffffff']);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toContain('No allocation with ID or prefix "ffffffff".');
    const notHex = await run(['alloc', 'status', 'xyz']);
    expect(notHex.stderr).toContain('"xyz" is not an allocation ID or a prefix of one');
  });

  it('execs without a terminal: stdout, stderr, stdin, and the remote exit code', async () => {
    const result = await run(
      ['alloc', 'exec', allocId.slice(0, 8), 'sh', '-c', 'read x; echo "got $x"; echo oops >&2; exit 7'],
      {
        input: 'hello\n',
      },
    );
    expect(result).toEqual({ code: 7, stdout: 'got hello\n', stderr: 'oops\n' });
    const dashes = await run(['alloc', 'exec', '--task', 'sleeper', allocId, '--', 'ls', '-d', '/']);
    expect(dashes).toEqual({ code: 0, stdout: '/\n', stderr: '' });
    const badTask = await run(['alloc', 'exec', '--task', 'nope', allocId, 'true']);
    expect(badTask.code).toBe(1);
    expect(badTask.stderr).toContain(`Error: task "nope" not found in allocation ${allocId}`);
    const badCommand = await run(['alloc', 'exec', allocId, 'no-such-program-here']);
    expect(badCommand.code).toBe(1);
    expect(badCommand.stderr).toContain('was not found');
  });

  it('signals and restarts tasks', async () => {
    const signalled = await run(['alloc', 'signal', '-s', 'SIGUSR1', allocId.slice(0, 8), 'sleeper']);
    expect(signalled).toEqual({
      code: 0,
      stdout: `Signal SIGUSR1 sent to ${allocId.slice(0, 8)}\n`,
      stderr: '',
    });
    const badSignal = await run(['alloc', 'signal', '-s', 'kill me', allocId]);
    expect(badSignal.code).toBe(1);
    expect(badSignal.stderr).toContain('"kill me" is not a signal name');
    const restarted = await run(['alloc', 'restart', allocId]);
    expect(restarted).toEqual({ code: 0, stdout: `Restarted ${allocId.slice(0, 8)}\n`, stderr: '' });
    const events = await run(['alloc', 'status', allocId]);
    expect(events.stdout).toMatch(/Restart Signaled/);
  });
});

describe('alloc stop', () => {
  it('stops an allocation and follows the evaluation that replaces it', async () => {
    const result = await run(['alloc', 'stop', allocId.slice(0, 8)]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Monitoring evaluation "[0-9a-f]{8}"/);
    expect(result.stdout).toMatch(/Allocation "[0-9a-f]{8}" created: node "[0-9a-f]{8}", group "shell"/);
    const after = JSON.parse((await run(['alloc', 'status', allocId, '--json'])).stdout);
    expect(after.DesiredStatus).toBe('stop');
  });
});

/** `sked event stream ARGS` as a running process whose stdout lines are collected. */
function streamEvents(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [SKED, 'event', 'stream', ...args], { env: cleanEnv(env) });
  const lines: string[] = [];
  let stderr = '';
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = once(child, 'exit') as Promise<[number | null, string | null]>;
  return { child, lines, stderr: () => stderr, exit };
}

/** A TCP proxy in front of the server whose connections can be cut. */
async function cuttableProxy(target: string) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const proxy = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  const address = proxy.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    cut: () => sockets.forEach((s) => s.destroy()),
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

describe.concurrent('event stream', () => {
  it('prints one JSON event per line from --index, and Ctrl-C says where to resume', async () => {
    const stream = streamEvents(['--topic', 'Job:shell', '--index', '1'], server.env);
    const first = await eventually(() => stream.lines[0], 'the first event');
    const event = JSON.parse(first);
    expect(event).toMatchObject({ Topic: 'Job', Type: 'JobRegistered', Key: 'shell' });
    await eventually(() => (stream.lines.length >= 1 ? true : undefined), 'events');
    stream.child.kill('SIGINT');
    const [code] = await stream.exit;
    expect(code).toBe(0);
    const last = JSON.parse(stream.lines.at(-1)!).Index as number;
    expect(stream.stderr()).toBe(`Stopped after index ${last}; resume with --index ${last + 1}\n`);
    expect(stream.lines.every((line) => JSON.parse(line).Key === 'shell')).toBe(true);
  });

  it('resumes after a dropped connection without losing or repeating events', async () => {
    const proxy = await cuttableProxy(server.url);
    try {
      const stream = streamEvents(['--topic', 'Job'], { SKED_ADDR: proxy.url });
      await eventually(() => stream.lines[0], 'the backlog');
      const before = stream.lines.length;
      proxy.cut();
      const job = makeJob({
        ID: 'after-cut',
        Type: 'batch',
        group: { Name: 'g' },
        task: { Name: 't', Config: { run_for: '10ms' } },
      });
      expect((await run(['job', 'run', '--detach', '-'], { input: JSON.stringify(job) })).code).toBe(0);
      await eventually(
        () => stream.lines.slice(before).find((l) => l.includes('"after-cut"')),
        'the event after the cut',
      );
      stream.child.kill('SIGINT');
      await stream.exit;
      expect(stream.stderr()).toMatch(/^Reconnecting from index \d+ in \d+ ms: /m);
      const keys = stream.lines.map((l) => {
        const e = JSON.parse(l);
        return `${e.Index}/${e.Type}/${e.Key}`;
      });
      expect(new Set(keys).size).toBe(keys.length);
    } finally {
      await proxy.close();
    }
  });

  it('refuses a malformed topic and a bad index as usage errors', async () => {
    const topic = await run(['event', 'stream', '--topic', 'a:b:c']);
    expect(topic.code).toBe(1);
    expect(topic.stderr).toContain('"a:b:c" is not a topic');
    const index = await run(['event', 'stream', '--index', '-3']);
    expect(index.code).toBe(1);
    expect(index.stderr).toContain(
      "option '--index <n>' argument '-3' is invalid. Expected a non-negative integer.",
    );
  });
});
