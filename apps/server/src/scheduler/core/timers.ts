import type { Clock, TimerHandle } from './clock.js';
import type { WorkOwner } from './contain.js';

/** The core's timers: every one is cancelled on close, and none fires after it. */
export interface Timers {
  /**
   * Runs `fn` after `ms` (never after close). What `fn` throws is contained: the allocation,
   * deployment or job `owner` names is marked failed and the error is logged (./contain.ts);
   * without an owner the failure is the cluster's and is only logged.
   */
  later(fn: () => void, ms: number, owner?: WorkOwner): TimerHandle;
  /** Whether {@link Timers.close} was called. */
  readonly closed: boolean;
  /** Cancels every pending timer; later timers never fire. */
  close(): void;
}

/** Where the timers hand what a timer's function throws. */
export type TimerFailure = (owner: WorkOwner, error: unknown) => void;

const CLUSTER_TIMER: WorkOwner = { kind: 'cluster', what: 'timer' };

/**
 * Timers on a clock, tracked so that closing the cluster cancels them all.
 * @param clock - The clock the timers run on.
 * @param onFailure - Gets what a timer's function throws, with the timer's owner (late bound: read at each failure).
 * @returns the timers.
 */
export function createTimers(clock: Clock, onFailure: () => TimerFailure): Timers {
  const pending = new Set<TimerHandle>();
  let closed = false;
  return {
    later(fn, ms, owner = CLUSTER_TIMER) {
      const t = clock.setTimeout(() => {
        pending.delete(t);
        if (closed) return;
        try {
          fn();
        } catch (error) {
          onFailure()(owner, error);
        }
      }, ms);
      pending.add(t);
      return {
        cancel: () => {
          pending.delete(t);
          t.cancel();
        },
      };
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
