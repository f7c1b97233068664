import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ExecCommandError,
  exitCodeOf,
  resolveProgram,
  spawnExecProcess,
  type ExecProcessEvents,
} from './process.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sked-exec-process-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };

function recorder() {
  let exit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => {
    exit = resolve;
  });
  const events: ExecProcessEvents = {
    data: () => undefined,
    end: () => undefined,
    exit: (code) => exit(code),
  };
  return { events, exited };
}

describe('spawnExecProcess', () => {
  it('asks a client flooding the stdin of a tty that does not read it to wait, then lets it go on', async () => {
    // Arrange: a terminal whose program never reads its input
    const run = recorder();
    const proc = spawnExecProcess({ command: ['sleep', '2'], cwd: dir, env, tty: true }, run.events);
    // Act
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let accepted = 0;
    while (proc.write(chunk) && accepted < 10_000) accepted += 1;
    const drained = new Promise<void>((resolve) => proc.onDrain(resolve));
    proc.kill(100);
    // Assert
    expect(accepted).toBeLessThan(10_000);
    await drained;
    expect(await run.exited).toBeGreaterThan(128);
  });

  it('reports the exit code of a command killed by a signal as 128 + the signal', async () => {
    const run = recorder();
    const proc = spawnExecProcess({ command: ['sleep', '30'], cwd: dir, env, tty: false }, run.events);
    proc.kill(50);
    expect(await run.exited).toBe(129);
  });

  it('refuses a missing working directory as a server fault, not a command error', () => {
    const run = recorder();
    let error: unknown;
    try {
      spawnExecProcess({ command: ['true'], cwd: join(dir, 'missing'), env, tty: false }, run.events);
    } catch (caught) {
      error = caught;
    }
    expect(ExecCommandError.is(error)).toBe(false);
    expect((error as Error).message).toBe(
      `task directory ${JSON.stringify(join(dir, 'missing'))} does not exist`,
    );
  });
});

describe('resolveProgram', () => {
  it('finds a program on the PATH and an executable relative to the directory', () => {
    expect(resolveProgram('sh', dir, env)).toMatch(/\/sh$/);
    expect(resolveProgram('/bin/sh', dir, env)).toBe('/bin/sh');
  });

  it.each([
    ['nope-not-here', 'command "nope-not-here" was not found on the task\'s PATH'],
    ['./nope.sh', 'command "./nope.sh" is not an executable file'],
  ])('refuses %s', (program, message) => {
    expect(() => resolveProgram(program, dir, env)).toThrow(message);
  });
});

describe('exitCodeOf', () => {
  it.each([
    [0, null, 0],
    [3, null, 3],
    [null, 'SIGKILL', 137],
    [null, 'SIGTERM', 143],
    [null, 2, 130],
  ] as const)('code %s, signal %s -> %s', (code, signal, expected) => {
    expect(exitCodeOf(code, signal)).toBe(expected);
  });
});
