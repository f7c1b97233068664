/**
 * Options of {@link IndexWatch.waitFor}.
 * @since 0.1.0
 */
export interface WaitForOptions {
  /** Longest time to wait, in milliseconds (from {@link parseWait}); a random extra of up to `waitMs / 16` is added. */
  readonly waitMs: number;
  /**
   * Ends the wait at once when aborted (the client went away); the waiter is freed at once.
   * @defaultValue never aborted
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Source of the random extra delay, returning a number in `[0, 1)`.
   * @defaultValue `Math.random`
   */
  readonly random?: (() => number) | undefined;
}

/**
 * Options of {@link createIndexWatch}.
 * @since 0.1.0
 */
export interface IndexWatchOptions {
  /**
   * Clock in milliseconds; must agree with the global `setTimeout` (fake timers fake both).
   * @defaultValue `Date.now`
   */
  readonly now?: (() => number) | undefined;
}

/**
 * The index of one table, and the blocking queries waiting for it to pass a value.
 * @since 0.1.0
 */
export interface IndexWatch {
  /** The current index. */
  readonly current: number;
  /** Number of requests waiting now (for metrics and leak checks). */
  readonly waiting: number;
  /**
   * Moves the index forward and wakes every waiter whose `after` is now passed. An index not
   * greater than the current one changes nothing.
   * @param index - The new index, a non-negative safe integer.
   * @throws RangeError when `index` is not a non-negative safe integer.
   */
  readonly advance: (index: number) => void;
  /**
   * Waits until the index is greater than `after`, the time is up, or the signal aborts.
   * @param after - The index the client has seen (its `index` parameter).
   * @param options - Wait time, abort signal, randomness.
   * @returns The current index when the wait ends; never rejects for a timeout or an abort.
   * @throws RangeError when `after` is not a non-negative number or `waitMs` is not a
   * non-negative finite number.
   */
  readonly waitFor: (after: number, options: WaitForOptions) => Promise<number>;
}

interface Waiter {
  readonly after: number;
  readonly deadline: number;
  readonly resolve: (index: number) => void;
  /** The request's signal, if any. */
  readonly signal: AbortSignal | undefined;
  done: boolean;
}

/**
 * Creates an {@link IndexWatch}: a table's index plus its waiting blocking queries.
 *
 * @remarks
 * Waiters share two structures: a map from the awaited index to the set of its waiters (so an
 * advance wakes whole groups) and one binary heap of deadlines driven by a single timer (so 10,000
 * waiters cost one timer, not 10,000). A woken or aborted waiter leaves the map at once and the heap
 * lazily; the heap is compacted whenever dead entries outnumber live ones, so nothing leaks. Each
 * distinct `AbortSignal` gets one abort listener, shared by all the waits that use it; it is left
 * attached (holding an empty set) when those waits end, because removing a listener costs more
 * than the rest of a wake-up, and it goes away with the signal. The timer is `unref`'d where the
 * platform supports it. Deadlines are rounded up to whole milliseconds.
 *
 * @param initial - The starting index.
 * @param options - The clock.
 * @returns The watch.
 * @throws RangeError when `initial` is not a non-negative safe integer.
 * @example
 * ```ts
 * const jobsIndex = createIndexWatch(1);
 * const wait = parseWait('30s');
 * if (!wait.ok) throw new Error(wait.message);
 * const index = await jobsIndex.waitFor(1, { waitMs: wait.ms, signal });
 * // elsewhere, after a write:
 * jobsIndex.advance(2);
 * ```
 * @since 0.1.0
 */
export function createIndexWatch(initial = 0, options: IndexWatchOptions = {}): IndexWatch {
  checkIndex('initial', initial);
  const now = options.now ?? Date.now;
  let current = initial;
  let live = 0;
  const groups = new Map<number, Set<Waiter>>();
  let heap: Waiter[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerAt = Number.POSITIVE_INFINITY;

  // One abort listener per signal, not per waiter, and one handler function for all signals. The
  // listener stays attached when the waits of its signal end (`null` entry): removing it costs more
  // than the rest of a wake-up, its size is bounded by the live signals, and it goes with the signal.
  const bySignal = new WeakMap<AbortSignal, Waiter | Set<Waiter> | null>();

  const onAbort = (event: Event): void => {
    const signal = event.target as AbortSignal;
    const entry = bySignal.get(signal);
    bySignal.delete(signal);
    if (entry === undefined || entry === null) return;
    for (const waiter of entry instanceof Set ? [...entry] : [entry]) {
      leave(waiter);
      settle(waiter);
    }
    schedule();
  };

  const track = (signal: AbortSignal, waiter: Waiter): void => {
    const entry = bySignal.get(signal);
    if (entry === undefined) {
      signal.addEventListener('abort', onAbort, { once: true });
      bySignal.set(signal, waiter);
    } else if (entry === null) bySignal.set(signal, waiter);
    else if (entry instanceof Set) entry.add(waiter);
    else bySignal.set(signal, new Set([entry, waiter]));
  };

  const untrack = (signal: AbortSignal, waiter: Waiter): void => {
    const entry = bySignal.get(signal);
    if (entry === waiter) bySignal.set(signal, null);
    else if (entry instanceof Set) entry.delete(waiter);
  };

  const settle = (waiter: Waiter): void => {
    waiter.done = true;
    live--;
    if (waiter.signal !== undefined) untrack(waiter.signal, waiter);
    waiter.resolve(current);
  };

  const leave = (waiter: Waiter): void => {
    const group = groups.get(waiter.after);
    if (group !== undefined) {
      group.delete(waiter);
      if (group.size === 0) groups.delete(waiter.after);
    }
  };

  const push = (waiter: Waiter): void => {
    heap.push(waiter);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >>> 1;
      if ((heap[parent] as Waiter).deadline <= waiter.deadline) break;
      heap[i] = heap[parent] as Waiter;
      i = parent;
    }
    heap[i] = waiter;
  };

  const pop = (): void => {
    const last = heap.pop() as Waiter;
    if (heap.length === 0) return;
    let i = 0;
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && (heap[r] as Waiter).deadline < (heap[l] as Waiter).deadline ? r : l;
      if ((heap[child] as Waiter).deadline >= last.deadline) break;
      heap[i] = heap[child] as Waiter;
      i = child;
    }
    heap[i] = last;
  };

  const compact = (): void => {
    if (heap.length > 64 && heap.length > 2 * live) {
      const alive = heap.filter((w) => !w.done);
      heap = [];
      for (const w of alive) push(w);
    }
    while (heap.length > 0 && (heap[0] as Waiter).done) pop();
  };

  const schedule = (): void => {
    compact();
    const next = heap[0]?.deadline ?? Number.POSITIVE_INFINITY;
    if (next === timerAt) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    timerAt = next;
    if (next === Number.POSITIVE_INFINITY) return;
    timer = setTimeout(onTimer, Math.max(0, next - now()));
    (timer as { unref?: () => void }).unref?.();
  };

  const onTimer = (): void => {
    timer = undefined;
    timerAt = Number.POSITIVE_INFINITY;
    const t = now();
    while (heap.length > 0 && (heap[0] as Waiter).deadline <= t) {
      const waiter = heap[0] as Waiter;
      pop();
      if (!waiter.done) {
        leave(waiter);
        settle(waiter);
      }
    }
    schedule();
  };

  return {
    get current(): number {
      return current;
    },
    get waiting(): number {
      return live;
    },
    advance(index) {
      checkIndex('index', index);
      if (index <= current) return;
      current = index;
      for (const [after, group] of groups) {
        if (after >= index) continue;
        groups.delete(after);
        for (const waiter of group) settle(waiter);
      }
      schedule();
    },
    waitFor(after, { waitMs, signal, random = Math.random }) {
      if (typeof after !== 'number' || Number.isNaN(after) || after < 0) {
        throw new RangeError(`The index to wait after must be a non-negative number, got ${String(after)}.`);
      }
      if (typeof waitMs !== 'number' || !Number.isFinite(waitMs) || waitMs < 0) {
        throw new RangeError(`waitMs must be a non-negative finite number, got ${String(waitMs)}.`);
      }
      if (current > after || signal?.aborted === true) return Promise.resolve(current);
      const deadline = Math.ceil(now() + waitMs + random() * (waitMs / 16));
      return new Promise<number>((resolve) => {
        const waiter: Waiter = { after, deadline, resolve, signal, done: false };
        if (signal !== undefined) track(signal, waiter);
        live++;
        let group = groups.get(after);
        if (group === undefined) groups.set(after, (group = new Set()));
        group.add(waiter);
        push(waiter);
        if (deadline < timerAt) schedule();
      });
    },
  };
}

function checkIndex(what: string, index: number): void {
  if (!Number.isSafeInteger(index) || index < 0) {
    throw new RangeError(`The ${what} must be a non-negative safe integer, got ${String(index)}.`);
  }
}
