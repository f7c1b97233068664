import { spawn } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { cleanEnv, SKED, sked } from './harness.js';

/** A TCP server that takes connections and never answers: requests to it wait until cancelled. */
let silent: Server;
let silentUrl: string;
const held: Socket[] = [];
/** An address where nothing listens. */
let closedUrl: string;

const listen = (server: Server): Promise<number> =>
  new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );

beforeAll(async () => {
  silent = createServer((socket) => void held.push(socket));
  silentUrl = `http://127.0.0.1:${await listen(silent)}`;
  const probe = createServer();
  closedUrl = `http://127.0.0.1:${await listen(probe)}`;
  await new Promise((resolve) => probe.close(resolve));
});
afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

/** Runs `sked ARGS`, sends SIGINT (Ctrl-C) once the server holds its request, and waits for it. */
function interrupted(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const before = held.length;
    const child = spawn(process.execPath, [SKED, ...args], {
      env: cleanEnv({ SKED_ADDR: silentUrl }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const poll = setInterval(() => {
      if (held.length > before) {
        clearInterval(poll);
        child.kill('SIGINT');
      }
    }, 20);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`sked ${args.join(' ')} did not end after Ctrl-C: ${stderr}`));
    }, 60_000);
    child.once('close', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe.concurrent('Ctrl-C and a server that is not there', () => {
  it('ends a write waiting for its answer with 130, saying the change may or may not be made', async () => {
    const result = await interrupted(['job', 'stop', '--purge', 'web-0123']);
    expect(result.code).toBe(130);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Interrupted by Ctrl-C before the server answered');
    expect(result.stderr).toContain('Try: the status commands show what the server has now');
  });

  it('ends event stream at once with exit 1 and the hint when no server answers at the start', async () => {
    const result = await sked(['event', 'stream'], { env: { SKED_ADDR: closedUrl } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toContain('Reconnecting');
    expect(result.stderr).toContain(
      `Try: Is the scheduling service running at ${closedUrl}? Set --address or SKED_ADDR.`,
    );
  });

  it('says what to try for an allocation ID that cannot be one', async () => {
    const result = await sked(['alloc', 'status', 'zzz'], { env: { SKED_ADDR: closedUrl } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('"zzz" is not an allocation ID or a prefix of one');
    expect(result.stderr).toContain('Try: `sked alloc status` lists allocations');
  });
});
