/** A timer handle of a {@link Clock}. */
export interface TimerHandle {
  /** Cancels the timer (no effect when it already fired). */
  cancel(): void;
}

/** Time as the core sees it: injectable so tests are fast and deterministic. */
export interface Clock {
  /** Current time in milliseconds since the Unix epoch (may be fractional). */
  now(): number;
  /** Runs `fn` after `ms` milliseconds. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
}

/** Longest delay Node's setTimeout takes (2^31 - 1 ms, about 24.8 days); a longer one fires after 1 ms. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** Longest run of due timer callbacks before the clock yields to I/O (other requests, streams). */
export const TIMER_SLICE_MS = 10;

/**
 * The real clock (Date.now and setTimeout; timers are unref'd so they never keep the process alive).
 * A delay past Node's limit (a yearly periodic launch) is waited in steps instead of firing at once.
 * Callbacks run in the order they fall due, in slices that yield to I/O (see {@link TIMER_SLICE_MS}).
 */
export function systemClock(): Clock {
  // Due callbacks, run in order. Node runs every expired timer in one phase, with no I/O in
  // between: a thousand simulated clients reporting at the same millisecond, each write costing a
  // few milliseconds, would stall every request for seconds. Instead each expired timer queues its
  // callback here, and the queue runs callbacks for at most TIMER_SLICE_MS before yielding
  // (setImmediate): a stall is bounded by the slowest single callback plus the slice.
  const due: { fn: () => void; cancelled: boolean }[] = [];
  let draining = false;
  const drain = (): void => {
    const started = performance.now();
    try {
      while (due.length > 0 && performance.now() - started < TIMER_SLICE_MS) {
        const next = due.shift();
        if (next && !next.cancelled) next.fn();
      }
    } finally {
      if (due.length > 0) setImmediate(drain).unref();
      else draining = false;
    }
  };
  const runSoon = (entry: { fn: () => void; cancelled: boolean }): void => {
    due.push(entry);
    if (draining) return;
    draining = true;
    setImmediate(drain).unref();
  };
  return {
    now: () => Date.now(),
    setTimeout(fn, ms) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const entry = { fn, cancelled: false };
      const arm = (left: number): void => {
        const step = Math.min(MAX_TIMEOUT_MS, Math.max(0, left));
        timer = setTimeout(left > MAX_TIMEOUT_MS ? () => arm(left - step) : () => runSoon(entry), step);
        timer.unref?.();
      };
      arm(ms);
      return {
        cancel: () => {
          entry.cancelled = true;
          clearTimeout(timer);
        },
      };
    },
  };
}

/** A manual clock for tests: time moves only through {@link ManualClock.advance}. */
export interface ManualClock extends Clock {
  /** Moves time forward by `ms`, running every timer that falls due, in time order. */
  advance(ms: number): void;
  /** Number of timers still pending. */
  pending(): number;
}

/**
 * Creates a manual clock starting at `start` ms.
 * @param start - Initial time in ms since the epoch.
 * @returns the clock.
 */
export function manualClock(start = 1_700_000_000_000): ManualClock {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; seq: number; fn: () => void }>();
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = ++seq;
      timers.set(id, { at: now + Math.max(0, ms), seq: id, fn });
      return { cancel: () => void timers.delete(id) };
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        let next: { at: number; seq: number; fn: () => void } | undefined;
        let nextId = 0;
        for (const [id, t] of timers) {
          if (t.at <= end && (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq))) {
            next = t;
            nextId = id;
          }
        }
        if (!next) break;
        timers.delete(nextId);
        now = Math.max(now, next.at);
        next.fn();
      }
      now = end;
    },
    pending: () => timers.size,
  };
}
