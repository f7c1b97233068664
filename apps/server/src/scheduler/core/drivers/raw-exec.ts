import { ownValue, TaskEventType } from '@sked/model';
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { defaultBaseEnv, findProgram, signalGroup } from '../internal/process.js';
import {
  normalizeSignal,
  SIGNAL_NUMBERS,
  type TaskDriver,
  type TaskHandle,
  type TaskSink,
} from './driver.js';

/**
 * The keys of a `raw_exec` task's Config:
 * - `command` (string, required): the program, found on the task's PATH unless it holds a `/`
 *   (then relative to the task directory);
 * - `args` (list of strings, default none): its arguments.
 */
export interface RawExecConfig {
  command?: unknown;
  args?: unknown;
}

/** Options of {@link createRawExecDriver}. */
export interface RawExecDriverOptions {
  /**
   * The environment every task starts from, under the task's own `env`.
   * @defaultValue PATH, HOME, LANG and TZ of the server process (nothing else, so no secret leaks)
   */
  readonly baseEnv?: Readonly<Record<string, string>>;
}

/** Validates a raw_exec Config: the command and its arguments, or the sentence saying what is wrong. */
export function parseRawExecConfig(
  config: Readonly<Record<string, unknown>>,
): { ok: true; command: string; args: string[] } | { ok: false; message: string } {
  const { command, args } = config as RawExecConfig;
  if (typeof command !== 'string' || command === '') {
    return { ok: false, message: 'raw_exec task Config needs a non-empty string "command".' };
  }
  if (args !== undefined && args !== null) {
    if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) {
      return {
        ok: false,
        message: `raw_exec task Config "args" must be a list of strings, got ${JSON.stringify(args)}.`,
      };
    }
  }
  if ([command, ...((args as string[] | undefined) ?? [])].some((part) => part.includes('\0'))) {
    return {
      ok: false,
      message: 'raw_exec task Config "command" and "args" must not contain NUL characters.',
    };
  }
  return { ok: true, command, args: (args as string[] | undefined | null) ?? [] };
}

/**
 * Creates the `raw_exec` driver: each task is a real process (its own process group) running
 * `Config.command` with `Config.args` in the task directory, with the task's environment over a
 * minimal base. Its output goes to `<dir>/logs/<task>.stdout.0` and `<dir>/logs/<task>.stderr.0`.
 * Signals, stops and restarts reach the whole process group.
 *
 * @param options - The base environment.
 * @returns The driver; off unless the server runs with `--enable-raw-exec`.
 */
export function createRawExecDriver(options: RawExecDriverOptions = {}): TaskDriver {
  const running = new Set<TaskHandle>();

  const failLater = (sink: TaskSink, message: string): TaskHandle => {
    let reported = false;
    const report = (): void => {
      if (reported) return;
      reported = true;
      sink.event({
        Type: TaskEventType.DriverFailure,
        DriverError: message,
        FailsTask: true,
        Message: message,
      });
      sink.exited({ exitCode: -1, failed: true, error: message });
    };
    setImmediate(report);
    return {
      signal(sig) {
        if (normalizeSignal(sig) === undefined) throw new TypeError(`Unknown signal "${sig}".`);
      },
      stop() {
        report();
        return Promise.resolve();
      },
    };
  };

  return {
    name: 'raw_exec',
    start(spec, sink) {
      const config = parseRawExecConfig(spec.config);
      if (!config.ok) return failLater(sink, config.message);
      const env: Record<string, string> = { ...(options.baseEnv ?? defaultBaseEnv()), ...spec.env };
      const program = findProgram(config.command, spec.dir, env);
      if (program === undefined) {
        return failLater(sink, `raw_exec could not find the executable ${JSON.stringify(config.command)}.`);
      }
      let out: number;
      let err: number;
      try {
        const logs = join(spec.dir, 'logs');
        mkdirSync(logs, { recursive: true });
        out = openSync(join(logs, `${spec.taskName}.stdout.0`), 'a');
        err = openSync(join(logs, `${spec.taskName}.stderr.0`), 'a');
      } catch (error) {
        return failLater(sink, `raw_exec could not open the task's log files: ${(error as Error).message}`);
      }
      const child = spawn(program, config.args, {
        cwd: spec.dir,
        env,
        stdio: ['ignore', out, err],
        detached: true,
        argv0: config.command,
      });
      closeSync(out);
      closeSync(err);

      let exited = false;
      let stopWaiters: (() => void)[] = [];
      let stopping = false;
      let killTimer: NodeJS.Timeout | undefined;

      const handle: TaskHandle = {
        signal(sig) {
          const name = normalizeSignal(sig);
          if (name === undefined) throw new TypeError(`Unknown signal "${sig}".`);
          if (exited || child.pid === undefined) return;
          signalGroup(child.pid, name);
        },
        stop(stopOptions) {
          if (exited) return Promise.resolve();
          return new Promise<void>((resolveStop) => {
            stopWaiters.push(resolveStop);
            if (stopping || child.pid === undefined) return;
            stopping = true;
            const name = normalizeSignal(stopOptions.signal ?? 'SIGTERM') ?? 'SIGTERM';
            signalGroup(child.pid, name);
            killTimer = setTimeout(
              () => {
                if (!exited && child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
              },
              Math.max(0, stopOptions.timeoutMs),
            );
          });
        },
      };

      child.once('spawn', () => {
        sink.event({ Type: TaskEventType.Started, Message: 'Task started by client' });
      });
      child.once('error', (error) => {
        if (exited) return;
        exited = true;
        running.delete(handle);
        const message = `raw_exec failed to start ${JSON.stringify(config.command)}: ${error.message}`;
        sink.event({
          Type: TaskEventType.DriverFailure,
          DriverError: message,
          FailsTask: true,
          Message: message,
        });
        sink.exited({ exitCode: -1, failed: true, error: message });
        for (const waiter of stopWaiters.splice(0)) waiter();
      });
      child.once('exit', (code, signal) => {
        if (exited) return;
        exited = true;
        clearTimeout(killTimer);
        running.delete(handle);
        // Take the rest of the group down with the leader, as a stop of the task would.
        if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
        const signalNumber = signal === null ? 0 : (ownValue(SIGNAL_NUMBERS, signal) ?? 0);
        const exitCode = code ?? 128 + signalNumber;
        sink.exited({
          exitCode,
          ...(signalNumber === 0 ? {} : { signal: signalNumber }),
          failed: !stopping && exitCode !== 0,
        });
        for (const waiter of stopWaiters.splice(0)) waiter();
        stopWaiters = [];
      });

      running.add(handle);
      return handle;
    },
    async close() {
      await Promise.all([...running].map((handle) => handle.stop({ signal: 'SIGTERM', timeoutMs: 2000 })));
    },
  };
}
