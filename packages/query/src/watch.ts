import { abortable, stoppedByConsumer } from './internal/abortable.js';
import { formatWait } from './parse-wait.js';
import { sleep } from './sleep.js';

/**
 * The blocking parameters {@link watch} adds to each request.
 * @since 0.1.0
 */
export interface WatchCursor {
  /** Last index seen; `0` asks for an answer at once. */
  readonly index: number;
  /** Longest blocking time as a duration string (absent: the server's default of 5 minutes). */
  readonly wait?: string;
}

/**
 * What a watch fetcher resolves to; only `meta.index` is read.
 * @since 0.1.0
 */
export interface WatchResponse {
  /** Response metadata. */
  readonly meta: {
    /** Index of what was read (`X-Svc-Index`). */
    readonly index?: number | undefined;
  };
}

/**
 * Performs one blocking request: receives the caller's parameters plus the {@link WatchCursor}, and
 * a signal that aborts when the consumer stops or the caller's signal aborts.
 * @typeParam P - The caller's parameters.
 * @typeParam R - The response type.
 * @since 0.1.0
 */
export type WatchFetcher<P, R> = (request: P & WatchCursor, signal: AbortSignal) => Promise<R>;

/**
 * What {@link WatchOptions.onError} learns about a failure that will be retried.
 * @since 0.1.0
 */
export interface WatchRetry {
  /** Consecutive failures so far, starting at 1. */
  readonly attempt: number;
  /** Milliseconds until the next attempt. */
  readonly delayMs: number;
}

/**
 * Options of {@link watch}.
 * @since 0.1.0
 */
export interface WatchOptions {
  /**
   * Aborts the watch: the pending `next()` rejects with the signal's reason at once.
   * @defaultValue never aborted
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Longest blocking time per request: a duration string (`"30s"`) or milliseconds.
   * @defaultValue the server's default (5 minutes)
   */
  readonly wait?: string | number | undefined;
  /**
   * Index to start after; with `0` the first answer comes at once and is yielded.
   * @defaultValue 0
   */
  readonly index?: number | undefined;
  /**
   * Consecutive failed requests retried before the last error is rethrown.
   * @defaultValue 5
   */
  readonly maxRetries?: number | undefined;
  /**
   * Delay before the first retry, in milliseconds; it doubles with each consecutive failure.
   * @defaultValue 1000
   */
  readonly backoffMs?: number | undefined;
  /**
   * Upper bound of the delay between retries, in milliseconds.
   * @defaultValue 30000
   */
  readonly maxBackoffMs?: number | undefined;
  /**
   * Decides whether an error is worth retrying.
   * @defaultValue retry everything except errors with a numeric `status` from 400 to 499 (other
   * than 408 and 429), which a retry would not fix
   */
  readonly retryable?: ((error: unknown) => boolean) | undefined;
  /**
   * Called before each retry (for logging); an exception it throws ends the watch with that error.
   * @defaultValue none
   */
  readonly onError?: ((error: unknown, retry: WatchRetry) => void) | undefined;
  /**
   * Shortest time between two requests when the index did not move, in milliseconds: protects a
   * server (or an endpoint) that answers at once instead of blocking from a request storm.
   * @defaultValue 0 (no pause)
   */
  readonly minIntervalMs?: number | undefined;
  /**
   * Source of the jitter, returning a number in `[0, 1)`.
   * @defaultValue `Math.random`
   */
  readonly random?: (() => number) | undefined;
}

/**
 * The default {@link WatchOptions.retryable}: everything but a client error (4xx other than 408/429).
 *
 * @param error - The error a fetcher threw.
 * @returns `true` when a retry may succeed.
 * @since 0.1.0
 */
export function isRetryable(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status !== 'number') return true;
  return !(status >= 400 && status < 500 && status !== 408 && status !== 429);
}

/**
 * Follows a blocking query: yields a response each time the index increases.
 *
 * @remarks
 * The first request carries `index` (0 by default, so it answers at once); each following one the
 * last index seen and `wait`. A reply whose index did not increase is not yielded (it was a timeout
 * or an idempotent write). When the index goes backwards (the server lost its state), the watch
 * restarts from 0: that reply is yielded and waiting continues from it. An index of 0 is read as 1.
 *
 * Failed requests are retried after `backoffMs * 2^(attempt-1)` milliseconds (at most
 * `maxBackoffMs`), of which a random half is jitter; after `maxRetries` consecutive failures, or for
 * an error `retryable` rejects, the error is rethrown. A success resets the count.
 *
 * With `minIntervalMs`, an answer whose index did not move is followed by a pause so that
 * requests are at least that far apart (for endpoints that answer at once instead of blocking).
 *
 * Breaking out of the loop aborts the request in flight; the caller's signal rejects the pending
 * `next()` with its reason at once, even during a backoff, and leaves no unhandled rejection.
 *
 * @typeParam P - The caller's parameters.
 * @typeParam R - The response type.
 * @param fetch - Performs one blocking request.
 * @param params - Parameters passed to every call of `fetch`, merged with the cursor.
 * @param options - Signal, wait, start index, retry policy.
 * @returns An async iterable of responses with increasing indexes.
 * @throws TypeError when a response carries no valid `meta.index` (the endpoint does not block);
 * the fetcher's error after the retry budget; the signal's reason on abort.
 * @example
 * ```ts
 * const controller = new AbortController();
 * for await (const { data, meta } of watch((req, signal) => client.jobs.read('web', { ...req, signal }), {}, {
 *   signal: controller.signal,
 *   wait: '1m',
 * })) {
 *   console.log(meta.index, data.Status);
 * }
 * ```
 * @since 0.1.0
 */
export function watch<P extends object, R extends WatchResponse>(
  fetch: WatchFetcher<P, R>,
  params: P,
  options: WatchOptions = {},
): AsyncIterable<R> {
  const outer = options.signal;
  const {
    index: start = 0,
    maxRetries = 5,
    backoffMs = 1_000,
    maxBackoffMs = 30_000,
    retryable = isRetryable,
    onError,
    random = Math.random,
    minIntervalMs = 0,
  } = options;
  checkCount('index', start);
  checkCount('maxRetries', maxRetries);
  checkCount('backoffMs', backoffMs);
  checkCount('maxBackoffMs', maxBackoffMs);
  checkCount('minIntervalMs', minIntervalMs);
  const wait = typeof options.wait === 'number' ? formatWait(options.wait) : options.wait;
  return abortable(async function* loop(signal): AsyncGenerator<R, void, undefined> {
    let last = start;
    let failures = 0;
    for (;;) {
      if (signal.aborted) {
        if (stoppedByConsumer(signal, outer)) return;
        throw outer?.reason;
      }
      const cursor: { index: number; wait?: string } = { index: last };
      if (wait !== undefined) cursor.wait = wait;
      let response: R;
      const started = Date.now();
      try {
        response = await fetch({ ...params, ...cursor } as P & WatchCursor, signal);
      } catch (error) {
        if (signal.aborted) {
          if (stoppedByConsumer(signal, outer)) return;
          throw outer?.reason;
        }
        if (failures >= maxRetries || !retryable(error)) throw error;
        failures++;
        const ceiling = Math.min(maxBackoffMs, backoffMs * 2 ** (failures - 1));
        const delayMs = ceiling / 2 + random() * (ceiling / 2);
        onError?.(error, { attempt: failures, delayMs });
        try {
          await sleep(delayMs, signal);
        } catch (abortReason) {
          if (stoppedByConsumer(signal, outer)) return;
          throw abortReason;
        }
        continue;
      }
      failures = 0;
      const raw = response.meta.index;
      if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < 0) {
        throw new TypeError(
          `A blocking query must answer a non-negative integer index, got ${JSON.stringify(raw) ?? 'undefined'}.`,
        );
      }
      const index = Math.max(1, raw);
      if (index < last) last = 0;
      if (index > last) {
        last = index;
        yield response;
      } else if (minIntervalMs > 0) {
        const rest = minIntervalMs - (Date.now() - started);
        if (rest > 0) {
          try {
            await sleep(rest, signal);
          } catch (abortReason) {
            if (stoppedByConsumer(signal, outer)) return;
            throw abortReason;
          }
        }
      }
    }
  }, outer);
}

function checkCount(name: string, value: number): void {
  const ok =
    typeof value === 'number' &&
    value >= 0 &&
    (name === 'index' ? Number.isSafeInteger(value) : !Number.isNaN(value));
  if (!ok) {
    const expected = name === 'index' ? 'a non-negative integer' : 'a non-negative number';
    throw new RangeError(`${name} must be ${expected}, got ${String(value)}.`);
  }
}
