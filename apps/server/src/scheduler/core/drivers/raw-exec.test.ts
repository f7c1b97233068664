import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DriverTaskEvent, TaskSink } from './driver.js';
import { createRawExecDriver, parseRawExecConfig } from './raw-exec.js';

interface Recorded {
  sink: TaskSink;
  events: DriverTaskEvent[];
  exited: Promise<{ exitCode: number; signal?: number; failed: boolean; error?: string }>;
  started: Promise<void>;
}

function recorder(): Recorded {
  const events: DriverTaskEvent[] = [];
  let onExit: (result: { exitCode: number; signal?: number; failed: boolean; error?: string }) => void = () =>
    undefined;
  let onStart: () => void = () => undefined;
  const exited = new Promise<{ exitCode: number; signal?: number; failed: boolean; error?: string }>(
    (resolve) => {
      onExit = resolve;
    },
  );
  const started = new Promise<void>((resolve) => {
    onStart = resolve;
  });
  return {
    events,
    exited,
    started,
    sink: {
      event(e) {
        events.push(e);
        if (e.Type === 'Started') onStart();
      },
      exited: (result) => onExit(result),
    },
  };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sked-raw-exec-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const spec = (config: Record<string, unknown>, env: Record<string, string> = {}) => ({
  allocId: '5b1f6d3e-9f0a-4c5e-8d7b-2a9c0e1f3b4d',
  taskName: 'web',
  config,
  env,
  dir,
});

const log = (stream: 'stdout' | 'stderr'): string =>
  readFileSync(join(dir, 'logs', `web.${stream}.0`), 'utf8');

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('createRawExecDriver', () => {
  it('runs Config.command with Config.args in the task directory with the task environment', async () => {
    // Arrange
    const driver = createRawExecDriver();
    const run = recorder();
    // Act
    driver.start(
      spec({ command: 'sh', args: ['-c', 'pwd; echo "$GREETING"; echo oops >&2'] }, { GREETING: 'hi' }),
      run.sink,
    );
    const result = await run.exited;
    // Assert
    expect(result).toEqual({ exitCode: 0, failed: false });
    expect(run.events[0]).toEqual({ Type: 'Started', Message: 'Task started by client' });
    expect(log('stdout')).toBe(`${dir}\nhi\n`);
    expect(log('stderr')).toBe('oops\n');
  });

  it('reports a non-zero exit as failed', async () => {
    const run = recorder();
    createRawExecDriver().start(spec({ command: 'sh', args: ['-c', 'exit 4'] }), run.sink);
    expect(await run.exited).toEqual({ exitCode: 4, failed: true });
  });

  it('delivers a signal to the process', async () => {
    // Arrange
    const run = recorder();
    const script = "trap 'echo got-usr1; exit 7' USR1; echo ready; while :; do sleep 0.02; done";
    const handle = createRawExecDriver().start(spec({ command: 'sh', args: ['-c', script] }), run.sink);
    await run.started;
    await until(() => log('stdout').includes('ready'));
    // Act
    handle.signal('usr1');
    // Assert
    expect(await run.exited).toEqual({ exitCode: 7, failed: true });
    expect(log('stdout')).toBe('ready\ngot-usr1\n');
  });

  it('stops the process with the stop signal', async () => {
    const run = recorder();
    const handle = createRawExecDriver().start(spec({ command: 'sleep', args: ['30'] }), run.sink);
    await run.started;
    await handle.stop({ signal: 'SIGINT', timeoutMs: 5000 });
    expect(await run.exited).toEqual({ exitCode: 130, signal: 2, failed: false });
  });

  it('kills a process that ignores the stop signal after the timeout', async () => {
    const run = recorder();
    const script = "trap '' TERM; echo ready; while :; do sleep 0.02; done";
    const handle = createRawExecDriver().start(spec({ command: 'sh', args: ['-c', script] }), run.sink);
    await until(() => log('stdout').includes('ready'));
    await handle.stop({ timeoutMs: 100 });
    expect(await run.exited).toEqual({ exitCode: 137, signal: 9, failed: false });
  });

  it('restarts: a stop then a new start runs a fresh process', async () => {
    // Arrange
    const driver = createRawExecDriver();
    const first = recorder();
    const script = 'echo "pid $$"; exec sleep 30';
    const handle = driver.start(spec({ command: 'sh', args: ['-c', script] }), first.sink);
    await until(() => log('stdout').includes('pid'));
    // Act
    await handle.stop({ timeoutMs: 2000 });
    const second = recorder();
    const again = driver.start(spec({ command: 'sh', args: ['-c', script] }), second.sink);
    await until(() => log('stdout').split('pid').length === 3);
    await again.stop({ timeoutMs: 2000 });
    // Assert
    const pids = [...log('stdout').matchAll(/pid (\d+)/g)].map((match) => match[1]);
    expect(pids).toHaveLength(2);
    expect(pids[0]).not.toBe(pids[1]);
    expect((await first.exited).failed).toBe(false);
    expect((await second.exited).failed).toBe(false);
  });

  it('close() stops every running task', async () => {
    const driver = createRawExecDriver();
    const runs = [recorder(), recorder()];
    for (const run of runs) driver.start(spec({ command: 'sleep', args: ['30'] }), run.sink);
    await Promise.all(runs.map((run) => run.started));
    await driver.close?.();
    const results = await Promise.all(runs.map((run) => run.exited));
    expect(results.map((r) => r.exitCode)).toEqual([143, 143]);
  });

  it('throws a TypeError naming an unknown signal', async () => {
    const run = recorder();
    const handle = createRawExecDriver().start(spec({ command: 'sleep', args: ['30'] }), run.sink);
    expect(() => handle.signal('SIGNOPE')).toThrow(new TypeError('Unknown signal "SIGNOPE".'));
    await handle.stop({ timeoutMs: 1000 });
  });

  it.each([
    [{}, 'raw_exec task Config needs a non-empty string "command".'],
    [{ command: 'sh', args: 'x' }, 'raw_exec task Config "args" must be a list of strings, got "x".'],
    [{ command: 'no-such-program-here' }, 'raw_exec could not find the executable "no-such-program-here".'],
  ])('reports a Driver Failure for Config %j without throwing', async (config, message) => {
    const run = recorder();
    createRawExecDriver().start(spec(config), run.sink);
    expect(await run.exited).toEqual({ exitCode: -1, failed: true, error: message });
    expect(run.events).toEqual([
      { Type: 'Driver Failure', DriverError: message, FailsTask: true, Message: message },
    ]);
  });
});

describe('parseRawExecConfig', () => {
  it.each([
    [{ command: 'echo' }, { ok: true, command: 'echo', args: [] }],
    [
      { command: 'echo', args: ['a', 'b'] },
      { ok: true, command: 'echo', args: ['a', 'b'] },
    ],
    [
      { command: 'echo', args: null },
      { ok: true, command: 'echo', args: [] },
    ],
    [
      { command: 'ec\u0000ho' },
      { ok: false, message: 'raw_exec task Config "command" and "args" must not contain NUL characters.' },
    ],
    [{ command: 3 }, { ok: false, message: 'raw_exec task Config needs a non-empty string "command".' }],
  ])('%j -> %j', (config, expected) => {
    expect(parseRawExecConfig(config)).toEqual(expected);
  });
});
