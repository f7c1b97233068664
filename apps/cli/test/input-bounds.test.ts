import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { cleanEnv, sked, SKED, type RunResult } from './harness.js';

const CAP = 16 * 1024 * 1024;
const CAP_TEXT = `16 MiB (${CAP} bytes), the most sked reads from a file or stdin`;

/** A server that records requests and answers 204: reaching it means the input was accepted. */
let server: Server;
let address: string;
const requests: string[] = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs sked with an endless stdin; counts what it took before it closed stdin or ended. */
function withEndlessStdin(args: readonly string[]): Promise<RunResult & { written: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SKED, ...args], {
      env: cleanEnv({ SKED_SECRETS_ADDR: address, SKED_SECRETS_TOKEN: 't' }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let written = 0;
    let ended = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const pump = (): void => {
      while (!ended) {
        written += chunk.length;
        if (!child.stdin.write(chunk)) {
          child.stdin.once('drain', pump);
          return;
        }
      }
    };
    child.stdin.on('error', () => {
      ended = true;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`sked ${args.join(' ')} kept reading: ${written} bytes taken`));
    }, 60_000);
    child.once('close', (code) => {
      ended = true;
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr, written });
    });
    pump();
  });
}

describe('stdin and files are read up to one cap', () => {
  it.each([
    [['ldap', 'config', 'write', 'bindpass=-'], 'value of bindpass'],
    [['login', 'ldap', '-u', 'alice', '--password-stdin'], 'password'],
    [['peering', 'establish', 'dc1', '-'], 'peering token'],
    [['job', 'run', '-'], 'job file'],
  ])('sked %j stops reading an endless stdin at the cap', async (args, what) => {
    const before = requests.length;
    const result = await withEndlessStdin(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error: The ${what} on stdin is larger than ${CAP_TEXT}.`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    // the cap, plus what the pipe and the reader's buffer hold, never the whole stream
    expect(result.written).toBeLessThan(CAP + 4 * 1024 * 1024);
    expect(requests.length).toBe(before);
  });

  it('refuses @/dev/zero and a file over the cap with the same cap in the error', async () => {
    const env = { SKED_SECRETS_ADDR: address, SKED_SECRETS_TOKEN: 't' };
    const zero = await sked(['ldap', 'config', 'write', 'certificate=@/dev/zero'], { env });
    expect(zero.code).toBe(1);
    expect(zero.stderr).toContain(`Error: The file for certificate /dev/zero is larger than ${CAP_TEXT}.`);
    expect(zero.stderr).not.toContain('Invalid string length');
    const dir = await mkdtemp(join(tmpdir(), 'sked-cap-'));
    const big = join(dir, 'big.pem');
    await writeFile(big, Buffer.alloc(CAP + 1, 'a'));
    const file = await sked(['ldap', 'config', 'write', `certificate=@${big}`], { env });
    expect(file.code).toBe(1);
    expect(file.stderr).toContain(`Error: The file for certificate ${big} is larger than ${CAP_TEXT}.`);
    const atCap = join(dir, 'cap.pem');
    await writeFile(atCap, Buffer.alloc(CAP, 'a'));
    const ok = await sked(['ldap', 'config', 'write', `certificate=@${atCap}`], { env });
    expect(ok).toMatchObject({ code: 0 });
  });
});
