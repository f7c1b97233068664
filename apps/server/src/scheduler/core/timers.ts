import type { Clock, TimerHandle } from './clock.js';

/** The core's timers: every one is cancelled on close, and none fires after it. */
export interface Timers {
  /** Runs `fn` after `ms` (never after close). */
  later(fn: () => void, ms: number): TimerHandle;
  /** Whether {@link Timers.close} was called. */
  readonly closed: boolean;
  /** Cancels every pending timer; later timers never fire. */
  close(): void;
}

/**
 * Timers on a clock, tracked so that closing the cluster cancels them all.
 * @param clock - The clock the timers run on.
 * @returns the timers.
 */
export function createTimers(clock: Clock): Timers {
  const pending = new Set<TimerHandle>();
  let closed = false;
  return {
    later(fn, ms) {
      const t = clock.setTimeout(() => {
        pending.delete(t);
        if (!closed) fn();
      }, ms);
      pending.add(t);
      return t;
    },
    get closed() {
      return closed;
    },
    close() {
      closed = true;
      for (const t of pending) t.cancel();
      pending.clear();
    },
  };
}
