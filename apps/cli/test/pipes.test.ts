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

/** A batch job whose registrations (one event each) the quiet stream above waits for. */
function probeJob(round: number): Record<string, unknown> {
  return {
    ID: 'pipe-probe',
    Name: 'pipe-probe',
    Type: 'batch',
    Datacenters: ['*'],
    Meta: { round: String(round) },
    TaskGroups: [
      {
        Name: 'probe',
        Count: 1,
        Tasks: [
          { Name: 'probe', Driver: 'mock', Config: { run_for: '1s' }, Resources: { CPU: 10, MemoryMB: 16 } },
        ],
      },
    ],
  };
}

describe.concurrent('sked in a shell pipe', () => {
  it('ends event stream with exit 0 at its first write after the reader is gone', async () => {
    // `head -n 0` exits at once; sked sees the closed pipe when it writes the next event (EPIPE),
    // as the service's own CLI does. Register the job until one of its events reaches sked.
    const done = pipeline(
      'sked event stream --topic Job:pipe-probe | head -n 0; echo "sked exited ${PIPESTATUS[0]}" >&2',
    );
    let finished = false;
    void done.finally(() => (finished = true)).catch(() => undefined);
    for (let i = 0; i < 200 && !finished; i++) {
      const res = await fetch(`${server.url}/v1/jobs`, {
        method: 'POST',
        body: JSON.stringify({ Job: probeJob(i) }),
      });
      expect(res.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { stdout, stderr } = await done;
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
