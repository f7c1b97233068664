import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeJob } from '@sked/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExecSession, type ExecResult } from '../../../test/exec-session.js';
import { startServer, type RunningServer } from '../../wiring/server.js';
import { ExecExposureError } from './bind.js';
import { callJson } from '../../../test/json-api.js';

/**
 * End-to-end: the real server (startServer, raw_exec enabled), a raw_exec job running a real
 * process, exec over a real WebSocket, and the allocation lifecycle endpoints reaching the process.
 */

let server: RunningServer;
let base: URL;
let allocId: string;

const SCRIPT = ['echo $$ > pid', "trap 'echo got-usr1 >> signals' USR1", 'while :; do sleep 0.05; done'].join(
  '; ',
);

const api = (method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> =>
  callJson(base, method, path, body);

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Runs one exec session to its end; `script` may drive it once it is open. */
function exec(
  query: Record<string, string>,
  script?: (socket: WebSocket, output: () => string) => Promise<void> | void,
  alloc = allocId,
): Promise<ExecResult> {
  const url = new URL(`/v1/client/allocation/${alloc}/exec`, base);
  url.protocol = 'ws:';
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return runExecSession(url, script);
}

const run = (command: string[], extra: Record<string, string> = {}): Promise<ExecResult> =>
  exec({ command: JSON.stringify(command), task: 'worker', ...extra });

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  server = await startServer({ schedulerPort: 0, nodes: 1, enableRawExec: true });
  base = new URL(server.scheduler.url);
  const registered = await api('POST', '/v1/jobs', {
    Job: makeJob({
      ID: 'e2e-raw',
      group: { Name: 'group' },
      task: {
        Name: 'worker',
        Driver: 'raw_exec',
        Config: { command: 'sh', args: ['-c', SCRIPT] },
        Env: { GREETING: 'from the job' },
      },
    }),
  });
  if (registered.status !== 200)
    throw new Error(`job registration failed: ${JSON.stringify(registered.json)}`);
  allocId = await until(async () => {
    const { json } = await api('GET', '/v1/job/e2e-raw/allocations');
    const allocs = json as { ID: string; ClientStatus: string }[];
    return allocs.find((a) => a.ClientStatus === 'running')?.ID;
  });
  await until(async () => ((await run(['cat', 'pid'])).stdout.trim() === '' ? undefined : true));
});

afterAll(async () => {
  await server.close();
});

describe('exec end to end', () => {
  it('runs echo in the task and returns its output and exit code 0', async () => {
    const result = await run(['echo', 'hello']);
    expect(result).toMatchObject({ stdout: 'hello\n', exitCode: 0, close: { code: 1000 } });
  });

  it("returns the exit code of sh -c 'exit 3'", async () => {
    expect((await run(['sh', '-c', 'exit 3'])).exitCode).toBe(3);
  });

  it("runs in the allocation's task directory with the task's environment", async () => {
    const result = await run(['sh', '-c', 'pwd; echo "$GREETING $SKED_ALLOC_ID"']);
    expect(result.stdout).toBe(
      `${server.scheduler.cluster.taskDir(allocId, 'worker')}\nfrom the job ${allocId}\n`,
    );
  });

  it('gives the command the environment the task runs with (the same SKED_* variables)', async () => {
    // Arrange: the task process's own environment, read from /proc
    const dir = server.scheduler.cluster.taskDir(allocId, 'worker');
    const pid = (await readFile(join(dir, 'pid'), 'utf8')).trim();
    const skedOf = (text: string, separator: string): string[] =>
      text
        .split(separator)
        .filter((line) => line.startsWith('SKED_') || line.startsWith('GREETING='))
        .sort();
    const task = skedOf(await readFile(`/proc/${pid}/environ`, 'utf8'), '\0');
    // Act
    const result = await run(['env']);
    // Assert
    expect(task).toContain(`SKED_TASK_DIR=${dir}`);
    expect(task).toContain('SKED_REGION=global');
    expect(task).toContain('SKED_DC=dc1');
    expect(skedOf(result.stdout, '\n')).toEqual(task);
  });

  it('resizes a tty session', async () => {
    const result = await exec(
      {
        command: JSON.stringify(['sh', '-c', 'read a; stty size; read b; stty size']),
        task: 'worker',
        tty: 'true',
      },
      async (socket, output) => {
        const send = (frame: unknown): void => socket.send(JSON.stringify(frame));
        const enter = { stdin: { data: Buffer.from('\r').toString('base64') } };
        send({ tty_size: { height: 30, width: 90 } });
        send(enter);
        await until(() => Promise.resolve(output().includes('30 90') ? true : undefined));
        send({ tty_size: { height: 45, width: 160 } });
        send(enter);
      },
    );
    expect(result.stdout).toContain('30 90');
    expect(result.stdout).toContain('45 160');
    expect(result.exitCode).toBe(0);
  });

  it('closes with 1008 and a clear reason for an unknown task', async () => {
    const result = await exec({ command: '["echo"]', task: 'nope' });
    expect(result.close).toEqual({ code: 1008, reason: `task "nope" not found in allocation ${allocId}` });
    expect(result.exitCode).toBeUndefined();
  });

  it('answers a plain HTTP request (no WebSocket upgrade) with a 400 that says what is missing', async () => {
    const { status, json } = await api(
      'GET',
      `/v1/client/allocation/${allocId}/exec?command=%5B%22sh%22%5D&task=t`,
    );
    expect(status).toBe(400);
    expect(json).toBe(
      'The exec endpoint needs a WebSocket connection: send the request with "Connection: Upgrade" and "Upgrade: websocket".',
    );
  });

  it('closes with 1008 for an unknown allocation', async () => {
    const result = await exec(
      { command: '["echo"]', task: 'worker' },
      undefined,
      '00000000-0000-4000-8000-000000000000',
    );
    expect(result.close).toEqual({ code: 1008, reason: 'alloc not found' });
  });

  it('delivers a signal sent through the API to the raw_exec process', async () => {
    const signalled = await api('POST', `/v1/client/allocation/${allocId}/signal`, { Signal: 'SIGUSR1' });
    expect(signalled.status).toBe(200);
    const seen = await until(async () => {
      const { stdout } = await run(['sh', '-c', 'cat signals 2>/dev/null || true']);
      return stdout.includes('got-usr1') ? stdout : undefined;
    });
    expect(seen).toContain('got-usr1');
  });

  it('restarts the raw_exec process through the API, then stops it', async () => {
    // Arrange
    const before = Number((await run(['cat', 'pid'])).stdout.trim());
    expect(alive(before)).toBe(true);
    // Act: restart
    const restarted = await api('POST', `/v1/client/allocation/${allocId}/restart`, {});
    // Assert: a new process replaced the old one
    expect(restarted.status).toBe(200);
    const after = await until(async () => {
      const pid = Number((await run(['cat', 'pid'])).stdout.trim());
      return pid !== before && alive(pid) ? pid : undefined;
    });
    expect(alive(before)).toBe(false);
    // Act: stop
    const stopped = await api('POST', `/v1/allocation/${allocId}/stop`);
    expect(stopped.status).toBe(200);
    // Assert: the process is gone
    await until(() => Promise.resolve(alive(after) ? undefined : true));
    expect(alive(after)).toBe(false);
  });
});

describe('start-up rule', () => {
  it('refuses to start with exec on a non-loopback address without ACLs, naming the address', async () => {
    const error = await startServer({ bind: '0.0.0.0', schedulerPort: 0, nodes: 1 }).catch(
      (caught: unknown) => caught,
    );
    expect(ExecExposureError.is(error)).toBe(true);
    expect((error as Error).message).toContain('"0.0.0.0"');
  });

  it('starts on a non-loopback address with ACLs on', async () => {
    const exposed = await startServer({
      bind: '0.0.0.0',
      schedulerPort: 0,
      nodes: 1,
      aclConfig: { tokens: [{ name: 'root', secret: 'root-secret', management: true }] },
    });
    await exposed.close();
    expect(exposed.acl.enabled).toBe(true);
  });
});
