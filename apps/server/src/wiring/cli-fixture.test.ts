import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCli, USAGE, withCliPorts } from './cli.js';

/**
 * Issue 23: `sked-server` keeps its ports (4646, 8200, 8500) while `startServer()` binds free ones,
 * and `--fault-control` gives tests not written in Node the fault control endpoint.
 */

const main = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'main.js');

describe('withCliPorts', () => {
  it.each([
    [[], { schedulerPort: 4646, secretsPort: 8200, meshPort: 8500 }],
    [['--scheduler-port', '0'], { schedulerPort: 0, secretsPort: 0, meshPort: 0 }],
    [['--scheduler-port', '0', '--mesh-port', '8501'], { schedulerPort: 0, secretsPort: 0, meshPort: 8501 }],
    [['--secrets-port', '0'], { schedulerPort: 4646, secretsPort: 0, meshPort: 8500 }],
    [['--scheduler-port', '9000'], { schedulerPort: 9000, secretsPort: 8200, meshPort: 8500 }],
  ])('sked-server %j listens on %j', (argv, ports) => {
    const command = parseCli(argv, {});
    const options = command.kind === 'run' ? command.options : undefined;
    expect(options === undefined ? command : withCliPorts(options)).toMatchObject(ports);
  });
});

describe('--fault-control', () => {
  it('is parsed and documented', () => {
    expect(parseCli(['--fault-control'], {})).toEqual({ kind: 'run', options: { faultControl: true } });
    expect(parseCli(['--fault-control=yes'], {}).kind).toBe('error');
    expect(USAGE).toContain('--fault-control');
  });

  it('prints where the endpoint is, and a leaderless server answers as one, from another process', async () => {
    const child = spawn(
      process.execPath,
      [main, '--scheduler-port', '0', '--nodes', '0', '--fault-control'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await expect.poll(() => out, { timeout: 20_000 }).toMatch(/^fault control on (\S+)$/m);
      const endpoint = /^fault control on (\S+)$/m.exec(out)?.[1] ?? '';
      const scheduler = /^scheduler listening on (\S+)$/m.exec(out)?.[1] ?? '';
      expect(endpoint).toBe(`${scheduler}/v1/sked/faults`);
      const leader = await fetch(`${endpoint}/leader`, { method: 'PUT', body: '{"leaderless": true}' });
      expect(await leader.json()).toEqual({ leaderless: true, rules: [] });
      const jobs = await fetch(`${scheduler}/v1/jobs`);
      expect([jobs.status, await jobs.text()]).toEqual([500, 'No cluster leader']);
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);
});
