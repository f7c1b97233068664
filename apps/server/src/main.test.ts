import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main.js');
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function run(args: string[]): Run {
  const child = spawn(process.execPath, [main, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function ready(r: Run): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const match = /^scheduler listening on (http:\/\/\S+)$/m.exec(r.stdout());
    if (match?.[1] !== undefined) return match[1];
    if (r.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`server did not start: ${r.stdout()} ${r.stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('sked-server as a process', { timeout: 60_000 }, () => {
  it('is built', () => {
    expect(existsSync(main)).toBe(true);
  });

  it('takes the secrets root token from a file: it is not in /proc/PID/cmdline, and it works', async () => {
    const token = 'sks.file-token-7c1d';
    const file = join(mkdtempSync(join(tmpdir(), 'sked-main-token-')), 'root-token');
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    const r = run(['--scheduler-port', '0', '--nodes', '0', '--secrets-root-token-file', file]);
    await ready(r);
    await expect.poll(() => r.stdout()).toMatch(/^secrets listening on http:\/\/\S+$/m);
    const secrets = /^secrets listening on (\S+)$/m.exec(r.stdout())?.[1] ?? '';
    const cmdline = readFileSync(`/proc/${r.child.pid}/cmdline`, 'utf8');
    expect(cmdline).toContain('--secrets-root-token-file');
    expect(cmdline).not.toContain(token);
    expect(r.stdout()).not.toContain('secrets root token');
    const res = await fetch(`${secrets}/v1/auth/ldap/config`, { headers: { 'x-secrets-token': token } });
    expect(res.status).toBe(200);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
  });

  it('prints the ready line, serves, and exits 0 on SIGTERM', async () => {
    const r = run(['--scheduler-port', '0', '--nodes', '1']);
    const url = await ready(r);
    expect(r.stdout()).toMatch(/^scheduler listening on http:\/\/127\.0\.0\.1:\d+\n/);
    await expect.poll(() => r.stdout()).toMatch(/^mesh listening on http:\/\/127\.0\.0\.1:\d+$/m);
    // last, the address of the web console, which the listener serves
    await expect.poll(() => r.stdout()).toMatch(new RegExp(`\\nweb console on ${url}/ui/\\n$`));
    const page = await fetch(`${url}/ui/`);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    const res = await fetch(`${url}/v1/jobs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-svc-index')).not.toBeNull();
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
  });

  it('answers a waiting blocking query and exits 0 on SIGINT', async () => {
    const r = run(['--scheduler-port', '0', '--nodes', '1']);
    const url = await ready(r);
    const index = (await fetch(`${url}/v1/jobs`)).headers.get('x-svc-index');
    let sent: () => void = () => undefined;
    const flushed = new Promise<void>((resolve) => (sent = resolve));
    const pending = new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${url}/v1/jobs?index=${index}&wait=5m`, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.on('finish', sent);
      req.end();
    });
    await flushed;
    await new Promise((resolve) => setTimeout(resolve, 500));
    r.child.kill('SIGINT');
    expect(await pending).toBe(200);
    expect(await r.exited).toBe(0);
    await expect(fetch(`${url}/v1/jobs`)).rejects.toThrow(/fetch failed/);
  });

  it('loads demo jobs of every type with --demo', async () => {
    const r = run(['--scheduler-port', '0', '--demo']);
    const url = await ready(r);
    const jobs = (await (await fetch(`${url}/v1/jobs`)).json()) as {
      Type: string;
      Periodic: boolean;
      ParameterizedJob: boolean;
    }[];
    const types = new Set(jobs.map((j) => j.Type));
    expect(types).toEqual(new Set(['service', 'batch', 'sysbatch']));
    expect(jobs.some((j) => j.Periodic)).toBe(true);
    expect(jobs.some((j) => j.ParameterizedJob)).toBe(true);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
  });

  it('prints help and exits 0', async () => {
    const r = run(['--help']);
    expect(await r.exited).toBe(0);
    expect(r.stdout()).toMatch(/^Usage: sked-server \[options\]/);
    for (const flag of [
      '--bind',
      '--scheduler-port',
      '--region',
      '--nodes',
      '--datacenter',
      '--acl',
      '--acl-tokens',
      '--demo',
      '--max-body',
      '--enable-raw-exec',
    ]) {
      expect(r.stdout()).toContain(flag);
    }
  });

  it('refuses a bad flag with exit 2', async () => {
    const r = run(['--frobnicate']);
    expect(await r.exited).toBe(2);
    expect(r.stderr()).toMatch(/^sked-server: Unknown option '--frobnicate'/);
    expect(r.stdout()).toBe('');
  });

  it('stops at start on an invalid ACL file, with the reason and no secret', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sked-main-'));
    const file = join(dir, 'tokens.json');
    writeFileSync(
      file,
      JSON.stringify({
        tokens: [{ name: 'ops', secret: 'do-not-print-me', namespaces: { default: ['drive-car'] } }],
      }),
    );
    const r = run(['--scheduler-port', '0', '--acl', '--acl-tokens', file]);
    expect(await r.exited).toBe(1);
    expect(r.stderr()).toMatch(
      /tokens\[0\]\.namespaces\.default\[0\]: expected one of .* but got the string "drive-car"/,
    );
    expect(r.stderr() + r.stdout()).not.toContain('do-not-print-me');
  });

  it('prints the management token name with --acl, never its secret', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sked-main-'));
    const file = join(dir, 'tokens.json');
    writeFileSync(
      file,
      JSON.stringify({ tokens: [{ name: 'ops', secret: 'do-not-print-me', management: true }] }),
    );
    const r = run(['--scheduler-port', '0', '--acl', '--acl-tokens', file]);
    const url = await ready(r);
    await expect.poll(() => r.stdout()).toContain('acl enabled: management token "ops"');
    expect(r.stdout()).not.toContain('do-not-print-me');
    expect((await fetch(`${url}/v1/jobs`)).status).toBe(403);
    expect((await fetch(`${url}/v1/jobs`, { headers: { 'X-Svc-Token': 'do-not-print-me' } })).status).toBe(
      200,
    );
    // a job's bad SecretsToken and MeshToken are refused without being quoted, in the answer or the output
    for (const tokens of [{ SecretsToken: 'sks.leak-me-7f3' }, { MeshToken: 'mesh-leak-me-9c1' }]) {
      const job = {
        ID: 'leak',
        Datacenters: ['dc1'],
        TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock' }] }],
        ...tokens,
      };
      const res = await fetch(`${url}/v1/jobs`, {
        method: 'POST',
        headers: { 'X-Svc-Token': 'do-not-print-me' },
        body: JSON.stringify({ Job: job }),
      });
      expect(res.status).toBe(400);
      expect(await res.text()).not.toMatch(/leak-me/);
    }
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    expect(r.stdout() + r.stderr()).not.toMatch(/leak-me/);
  });

  it('prints the secrets ready line and a generated root token once', async () => {
    const r = run(['--scheduler-port', '0', '--secrets-port', '0', '--nodes', '0', '--ldap-mount', 'corp']);
    await ready(r);
    await expect.poll(() => r.stdout()).toMatch(/^secrets root token: \S+$/m);
    const url = /^secrets listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(r.stdout())?.[1];
    const token = /^secrets root token: (\S+)$/m.exec(r.stdout())?.[1] ?? '';
    expect(r.stdout().split(token)).toHaveLength(2);
    const res = await fetch(`${url}/v1/auth/corp/users`, {
      method: 'LIST',
      headers: { 'X-Secrets-Token': token },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ errors: [] });
    expect((await fetch(`${url}/v1/auth/corp/config`)).status).toBe(403);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
  });

  it('does not print a root token given by SKED_SECRETS_ROOT_TOKEN', async () => {
    const child = spawn(
      process.execPath,
      [main, '--scheduler-port', '0', '--secrets-port', '0', '--nodes', '0'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, SKED_SECRETS_ROOT_TOKEN: 'given-root-token' },
      },
    );
    children.push(child);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await expect.poll(() => out, { timeout: 20_000 }).toMatch(/^secrets listening on (http:\S+)$/m);
    const url = /^secrets listening on (http:\S+)$/m.exec(out)?.[1];
    expect(out).not.toContain('given-root-token');
    const res = await fetch(`${url}/v1/auth/ldap/config`, {
      headers: { 'X-Secrets-Token': 'given-root-token' },
    });
    expect(res.status).toBe(200);
    child.kill('SIGTERM');
  });

  it('exits 1 when the port is taken', async () => {
    const first = run(['--scheduler-port', '0', '--nodes', '1']);
    const url = await ready(first);
    const port = new URL(url).port;
    const second = run(['--scheduler-port', port, '--nodes', '1']);
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toMatch(/EADDRINUSE/);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });
});
