import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureAptPackages } from '@sked/testkit/apt';
import { makeJob } from '@sked/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExecSession, type ExecResult } from '../../../test/exec-session.js';
import { startServer, type RunningServer } from '../../wiring/server.js';
import { BWRAP, detectExecSandbox, probeExecSandbox } from './sandbox.js';

/**
 * Issue 22 item 1: a token with `alloc-exec` in one namespace does not get a host shell. Exec into a
 * `mock` task runs inside the bubblewrap sandbox (installed from Debian like slapd when missing):
 * the server's command line, its ACL file and other namespaces' task directories are out of sight.
 * Without the sandbox (`execSandbox: false`), such an exec needs `alloc-node-exec`.
 */

const MANAGEMENT = 'mgmt-secret-4f1c';
const DEFAULT_EXEC = 'default-exec-secret-9a2b';
const NODE_EXEC = 'node-exec-secret-7d3e';
const TOKENS = {
  tokens: [
    { name: 'ops', secret: MANAGEMENT, management: true },
    { name: 'default-exec', secret: DEFAULT_EXEC, namespaces: { default: ['read-job', 'alloc-exec'] } },
    {
      name: 'node-exec',
      secret: NODE_EXEC,
      namespaces: { default: ['read-job', 'alloc-exec', 'alloc-node-exec'] },
    },
  ],
};

let dir: string;
let aclFile: string;

interface Started {
  server: RunningServer;
  allocs: Map<string, string>;
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Starts a server with the ACL file, and a running mock job in `default` and in `team-b`. */
async function start(execSandbox: boolean): Promise<Started> {
  const server = await startServer({
    schedulerPort: 0,
    nodes: 1,
    acl: true,
    aclTokens: aclFile,
    execSandbox,
  });
  const allocs = new Map<string, string>();
  for (const namespace of ['default', 'team-b']) {
    const job = makeJob({
      ID: `sleeper-${namespace}`,
      Namespace: namespace,
      task: { Name: 'worker', Driver: 'mock' },
    });
    const url = new URL(`/v1/jobs?namespace=${namespace}`, server.scheduler.url);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'x-svc-token': MANAGEMENT, 'content-type': 'application/json' },
      body: JSON.stringify({ Job: job }),
    });
    if (res.status !== 200) throw new Error(await res.text());
    allocs.set(
      namespace,
      await until(async () => {
        const list = await fetch(
          new URL(`/v1/job/sleeper-${namespace}/allocations?namespace=${namespace}`, server.scheduler.url),
          {
            headers: { 'x-svc-token': MANAGEMENT },
          },
        );
        const found = ((await list.json()) as { ID: string; ClientStatus: string }[]).find(
          (a) => a.ClientStatus === 'running',
        );
        return found?.ID;
      }),
    );
  }
  return { server, allocs };
}

/** Runs one exec session with `token`; resolves with its output and close. */
function exec(server: RunningServer, allocId: string, token: string, command: string[]): Promise<ExecResult> {
  const url = new URL(`/v1/client/allocation/${allocId}/exec`, server.scheduler.url);
  url.protocol = 'ws:';
  url.searchParams.set('task', 'worker');
  url.searchParams.set('command', JSON.stringify(command));
  url.searchParams.set('ws_handshake', 'true');
  return runExecSession(url, (socket) => socket.send(JSON.stringify({ version: 1, auth_token: token })));
}

beforeAll(async () => {
  await ensureAptPackages({ name: 'bubblewrap', packages: ['bubblewrap'], paths: [BWRAP] });
  dir = mkdtempSync(join(tmpdir(), 'sked-sandbox-test-'));
  aclFile = join(dir, 'acl.json');
  writeFileSync(aclFile, JSON.stringify(TOKENS));
}, 900_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('exec into a mock task, sandboxed', () => {
  let started: Started;
  beforeAll(async () => {
    if (detectExecSandbox() === undefined) throw new Error(`${BWRAP} is installed but cannot run here`);
    started = await start(true);
  });
  afterAll(async () => started.server.close());

  it("a default-only token sees neither the server, its ACL file, nor other namespaces' tasks", async () => {
    const { server, allocs } = started;
    const mine = allocs.get('default') ?? '';
    const theirs = allocs.get('team-b') ?? '';
    const taskDir = server.scheduler.cluster.taskDir(mine, 'worker');
    const allocsDir = join(taskDir, '..', '..');
    const script = [
      'cat /proc/$PPID/cmdline; echo',
      `cat ${aclFile}`,
      'ls /proc',
      `cat /proc/${process.pid}/cmdline`,
    ].join('; ');
    const result = await exec(server, mine, DEFAULT_EXEC, ['sh', '-c', script]);
    const seen = result.stdout + result.stderr;
    expect(result.close.code).toBe(1000);
    expect(seen).not.toContain(MANAGEMENT);
    expect(seen).not.toContain('vitest');
    expect(seen).toContain('No such file');
    // only the sandbox's own processes: a handful of small PIDs, none of the server's
    const pids = result.stdout.split(/\s+/).filter((word) => /^\d+$/.test(word));
    expect(pids.length).toBeGreaterThan(0);
    expect(pids.every((pid) => Number(pid) < 10)).toBe(true);
    // the allocations directory holds this task's allocation only
    const listed = await exec(server, mine, DEFAULT_EXEC, ['ls', '-a', allocsDir]);
    expect(listed.stdout.split('\n').filter((name) => name !== '')).toEqual(['.', '..', mine]);
    const other = await exec(server, mine, DEFAULT_EXEC, ['ls', join(allocsDir, theirs)]);
    expect(other.stdout).toBe('');
    expect(other.exitCode).not.toBe(0);
  });

  it('runs in the task directory, which it can write, and sees the system read-only', async () => {
    const { server, allocs } = started;
    const mine = allocs.get('default') ?? '';
    const result = await exec(server, mine, DEFAULT_EXEC, [
      'sh',
      '-c',
      'pwd; echo hi > note; cat note; touch /usr/x 2>/dev/null || echo read-only',
    ]);
    expect(result.stdout).toBe(`${server.scheduler.cluster.taskDir(mine, 'worker')}\nhi\nread-only\n`);
    expect(result.exitCode).toBe(0);
  });
});

/** PIDs of host processes whose command line is exactly `argv`. */
function processesRunning(argv: string[]): number[] {
  const wanted = `${argv.join('\0')}\0`;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === wanted;
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('probeExecSandbox', () => {
  it('answers in the background what detectExecSandbox then returns without probing again', async () => {
    const missing = join(dir, 'no-bwrap-here');
    await expect(probeExecSandbox(missing)).resolves.toBe(false);
    expect(detectExecSandbox(missing)).toBeUndefined();
    // a program that exists but is no sandbox: the probe runs it and reads its failure
    await expect(probeExecSandbox('/bin/false')).resolves.toBe(false);
    expect(detectExecSandbox('/bin/false')).toBeUndefined();
    await expect(probeExecSandbox(BWRAP)).resolves.toBe(true);
    expect(detectExecSandbox(BWRAP)?.name).toBe('bubblewrap');
  });
});

describe('exec sandbox lifetime', () => {
  it('a client that goes away takes the sandboxed command with it', async () => {
    const started = await start(true);
    try {
      const mine = started.allocs.get('default') ?? '';
      const argv = ['/usr/bin/sleep', `${300 + (process.pid % 600)}.5`];
      const url = new URL(`/v1/client/allocation/${mine}/exec`, started.server.scheduler.url);
      url.protocol = 'ws:';
      url.searchParams.set('task', 'worker');
      url.searchParams.set('command', JSON.stringify(argv));
      url.searchParams.set('ws_handshake', 'true');
      const socket = new WebSocket(url);
      socket.addEventListener('open', () =>
        socket.send(JSON.stringify({ version: 1, auth_token: DEFAULT_EXEC })),
      );
      await until(() => Promise.resolve(processesRunning(argv).length > 0 ? true : undefined));
      socket.close();
      await until(() => Promise.resolve(processesRunning(argv).length === 0 ? true : undefined));
      expect(processesRunning(argv)).toEqual([]);
    } finally {
      await started.server.close();
    }
  });
});

describe('exec into a mock task without the sandbox', () => {
  let started: Started;
  beforeAll(async () => {
    started = await start(false);
  });
  afterAll(async () => started.server.close());

  it('needs alloc-node-exec: alloc-exec alone is refused', async () => {
    const { server, allocs } = started;
    const mine = allocs.get('default') ?? '';
    const refused = await exec(server, mine, DEFAULT_EXEC, ['cat', aclFile]);
    expect(refused.close).toEqual({ code: 1008, reason: 'Permission denied' });
    expect(refused.stdout).toBe('');
    const allowed = await exec(server, mine, NODE_EXEC, ['echo', 'host']);
    expect(allowed).toMatchObject({ stdout: 'host\n', exitCode: 0 });
  });
});
