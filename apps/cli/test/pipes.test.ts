import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { cleanEnv, SKED, startServer, type ServerProcess } from './harness.js';

const run = promisify(execFile);

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer(['--demo']);
});
afterAll(async () => {
  await server.close();
});

/** Runs a bash pipeline with `sked` (the built one) in it; `$SKED_STATUS` is sked's exit code. */
async function pipeline(script: string): Promise<{ stdout: string; stderr: string }> {
  return run('bash', ['-c', `sked() { '${process.execPath}' '${SKED}' "$@"; }\n${script}`], {
    env: cleanEnv(server.env),
    timeout: 60_000,
  });
}

describe.concurrent('sked in a shell pipe', () => {
  it('ends event stream as soon as the reader is gone, without waiting for an event to write', async () => {
    // No event ever comes for this job: before, the stream only saw the closed pipe on a write.
    const { stdout, stderr } = await pipeline(
      'sked event stream --topic Job:no-such-job | head -n 0; echo "sked exited ${PIPESTATUS[0]}" >&2',
    );
    expect(stdout).toBe('');
    expect(stderr).toBe('sked exited 0\n');
  });

  it('ends event stream | head -n 3 with exit 0 once head has its lines', async () => {
    const { stdout, stderr } = await pipeline(
      'sked event stream --index 1 | head -n 3; echo "sked exited ${PIPESTATUS[0]}" >&2',
    );
    expect(stdout.trim().split('\n')).toHaveLength(3);
    expect(stderr).toBe('sked exited 0\n');
  });

  it('keeps streaming to a reader that is slow to read', async () => {
    const { stdout, stderr } = await pipeline(
      'sked event stream --index 1 | { sleep 2; head -n 3; }; echo "sked exited ${PIPESTATUS[0]}" >&2',
    );
    expect(stdout.trim().split('\n')).toHaveLength(3);
    for (const line of stdout.trim().split('\n')) expect(JSON.parse(line)).toHaveProperty('Topic');
    expect(stderr).toBe('sked exited 0\n');
  });
});
