import { ownValue, TaskEventType } from '@sked/model';
import type { Clock, TimerHandle } from '../clock.js';
import { durationNs } from '../internal/duration.js';
import { normalizeSignal, SIGNAL_NUMBERS, type TaskDriver, type TaskHandle } from './driver.js';

/**
 * The keys of a `mock` task's Config:
 * - `run_for` (duration, e.g. "10s"; absent: runs until stopped): how long the task runs;
 * - `exit_code` (int, default 0): its exit code when `run_for` elapses;
 * - `start_error` (string): the task fails to start with this driver error;
 * - `start_block_for` (duration, default "100ms"): delay before the task is started;
 * - `kill_after` (duration, default "10ms"): how long the task takes to exit after a kill signal;
 * - `ignore_signals` (bool): the task ignores SIGINT/SIGTERM (only the kill timeout ends it);
 * - `exit_on_signal` (list of signal names, default SIGINT, SIGTERM, SIGKILL): signals that end it.
 */
export interface MockConfig {
  run_for?: string | number;
  exit_code?: number;
  start_error?: string;
  start_block_for?: string | number;
  kill_after?: string | number;
  ignore_signals?: boolean;
  exit_on_signal?: string[];
}

/** Creates the `mock` driver, timed by `clock`. */
export function createMockDriver(clock: Clock): TaskDriver {
  return {
    name: 'mock',
    start(spec, sink) {
      const cfg = spec.config as MockConfig;
      const ms = (v: unknown, d: number): number => {
        const ns = durationNs(v);
        return ns === undefined ? d : ns / 1e6;
      };
      const timers = new Set<TimerHandle>();
      let done = false;
      let started = false;
      let stopWaiters: (() => void)[] = [];
      const later = (fn: () => void, delay: number): void => {
        const t = clock.setTimeout(() => {
          timers.delete(t);
          fn();
        }, delay);
        timers.add(t);
      };
      const exit = (r: { exitCode: number; signal?: number; failed: boolean; error?: string }): void => {
        if (done) return;
        done = true;
        for (const t of timers) t.cancel();
        timers.clear();
        sink.exited(r);
        for (const w of stopWaiters) w();
        stopWaiters = [];
      };
      const exitOn = (cfg.exit_on_signal ?? ['SIGINT', 'SIGTERM', 'SIGKILL']).map((s) =>
        normalizeSignal(String(s)),
      );
      later(
        () => {
          if (typeof cfg.start_error === 'string' && cfg.start_error !== '') {
            exit({ exitCode: -1, failed: true, error: cfg.start_error });
            return;
          }
          started = true;
          sink.event({ Type: TaskEventType.Started, Message: 'Task started by client' });
          if (cfg.run_for !== undefined) {
            later(
              () => exit({ exitCode: Number(cfg.exit_code ?? 0), failed: Number(cfg.exit_code ?? 0) !== 0 }),
              ms(cfg.run_for, 0),
            );
          }
        },
        ms(cfg.start_block_for, 100),
      );
      const handle: TaskHandle = {
        signal(sig) {
          const name = normalizeSignal(sig);
          if (!name) throw new TypeError(`Unknown signal "${sig}".`);
          if (done || !started) return;
          if (exitOn.includes(name) && !(cfg.ignore_signals && name !== 'SIGKILL')) {
            const n = ownValue(SIGNAL_NUMBERS, name) ?? 0;
            later(
              () => exit({ exitCode: 128 + n, signal: n, failed: true }),
              name === 'SIGKILL' ? 0 : ms(cfg.kill_after, 10),
            );
          } else {
            sink.event({
              Type: TaskEventType.DriverMessage,
              DriverMessage: `task received signal ${name}`,
              Message: `Received signal ${name}`,
            });
          }
        },
        stop(options) {
          if (done) return Promise.resolve();
          return new Promise<void>((resolve) => {
            stopWaiters.push(resolve);
            if (!started) {
              exit({ exitCode: 0, failed: false });
              return;
            }
            const name = normalizeSignal(options.signal ?? 'SIGINT') ?? 'SIGINT';
            const n = ownValue(SIGNAL_NUMBERS, name) ?? 2;
            if (!cfg.ignore_signals)
              later(() => exit({ exitCode: 128 + n, signal: n, failed: false }), ms(cfg.kill_after, 10));
            later(() => exit({ exitCode: 137, signal: 9, failed: false }), options.timeoutMs);
          });
        },
      };
      return handle;
    },
  };
}
