import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually, sked, skedOnTerminal, startServer, type ServerProcess } from './harness.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
/** A colour or style escape sequence (ESC [ ... m). */
const SGR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`);

let server: ServerProcess;
const run = (args: string[], options: { input?: string } = {}) => sked(args, { ...options, env: server.env });

beforeAll(async () => {
  server = await startServer([]);
});
afterAll(async () => {
  await server.close();
});

describe.concurrent('on a terminal', () => {
  it('execs on a real TTY, follows resizes, and exits with the remote exit code', async () => {
    expect(
      (
        await run(['job', 'run', '-'], {
          input: (await readFile(fixture('shell.json'), 'utf8')).replace(/"shell"/g, '"tty"'),
        })
      ).code,
    ).toBe(0);
    const allocId = await eventually(async () => {
      const { stdout } = await run([
        'alloc',
        'status',
        '--json',
        '--filter',
        'JobID == "tty" and ClientStatus == "running"',
      ]);
      return (JSON.parse(stdout) as { ID: string }[])[0]?.ID;
    }, 'a running allocation');
    const term = skedOnTerminal(['alloc', 'exec', allocId.slice(0, 8), 'sh'], {
      env: server.env,
      cols: 100,
      rows: 30,
    });
    // The remote shell's prompt first, so what is typed is not mixed into it.
    await term.waitFor(/[#$] ?$/);
    term.write('tty; stty size; echo mark-$((40+2))\r');
    let screen = await term.waitFor(/^mark-42$/m);
    expect(screen).toMatch(/\/dev\/pts\/\d+$/m);
    expect(screen).toMatch(/^30 100$/m);
    term.resize(120, 50);
    // The resize reaches the remote terminal through a tty_size frame.
    await eventually(async () => {
      term.write('stty size\r');
      await new Promise((r) => setTimeout(r, 300));
      return /^50 120$/m.test(term.screen()) ? true : undefined;
    }, 'the remote terminal to be 120 x 50');
    term.write('exit 3\r');
    expect(await term.exitCode).toBe(3);
    screen = term.screen();
    expect(screen).not.toContain('Error');
  });

  it('shows a live view of the deployment, then leaves the result on the screen', async () => {
    const source = (await readFile(fixture('web.hcl'), 'utf8'))
      .replace('job "web"', 'job "live"')
      .replace('min_healthy_time = "200ms"', 'min_healthy_time = "3s"');
    const file = fileURLToPath(new URL('./fixtures/.live.hcl', import.meta.url));
    await import('node:fs/promises').then((fs) => fs.writeFile(file, source));
    const term = skedOnTerminal(['job', 'run', file], { env: { ...server.env, FORCE_COLOR: '1' } });
    // While it waits: a spinner line with the deployment's state, and the Deployed table under it.
    const live = await term.waitFor(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Deployment "[0-9a-f]{8}" running: web 0\/2 healthy$/m);
    expect(live).toMatch(
      /Deployed\nTask Group +Desired +Placed +Healthy +Unhealthy +Progress Deadline\nweb +2 +2 +0 +0 /,
    );
    expect(await term.exitCode).toBe(0);
    const screen = term.screen();
    expect(screen).toMatch(/✓ Deployment "[0-9a-f]{8}" successful/);
    expect(screen).toMatch(/^ {4}web +2 +2 +2 +0 /m);
    // The live block is gone: no spinner and no "running" line is left behind.
    expect(screen).not.toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /m);
    expect(term.raw()).toMatch(SGR);
  });

  it('uses no colour with NO_COLOR, and Ctrl-C stops waiting while the job keeps running', async () => {
    const source = (await readFile(fixture('web.hcl'), 'utf8'))
      .replace('job "web"', 'job "slow"')
      .replace('min_healthy_time = "200ms"', 'min_healthy_time = "10m"');
    const file = fileURLToPath(new URL('./fixtures/.slow.hcl', import.meta.url));
    await import('node:fs/promises').then((fs) => fs.writeFile(file, source));
    const term = skedOnTerminal(['job', 'run', file], { env: { ...server.env, NO_COLOR: '1' } });
    await term.waitFor(/Deployment "[0-9a-f]{8}" running: web 0\/2 healthy/);
    term.write('\x03');
    expect(await term.exitCode).toBe(130);
    expect(term.screen()).toMatch(
      /Stopped waiting: the job keeps running\.\n.*Follow it with: sked job status slow$/m,
    );
    expect(term.raw()).not.toMatch(SGR);
    const status = JSON.parse((await run(['job', 'status', 'slow', '--json'])).stdout);
    expect(status.Job.Status).toBe('running');
  });
});
