/**
 * Options of {@link sleep}.
 * @since 0.1.0
 */
export interface SleepOptions {
  /**
   * Rejects the sleep with the signal's reason when aborted.
   * @defaultValue never aborted
   */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Waits for a number of milliseconds, or until the signal aborts.
 *
 * @remarks
 * Accepts the signal directly (`sleep(ms, signal)`, as STYLE 4.9 writes it) or in an options object.
 * The timer and the abort listener are both released when it settles.
 *
 * @param ms - Milliseconds to wait; negative values wait 0.
 * @param signalOrOptions - An `AbortSignal`, or {@link SleepOptions}.
 * @returns A promise that resolves after `ms`.
 * @throws The signal's `reason` (an `AbortError` `DOMException` unless the caller chose another),
 * through rejection, when the signal aborts before or during the wait.
 * @example
 * ```ts
 * await sleep(1000, AbortSignal.timeout(5000));
 * ```
 * @since 0.1.0
 */
export function sleep(ms: number, signalOrOptions?: AbortSignal | SleepOptions): Promise<void> {
  const signal = isSignal(signalOrOptions) ? signalOrOptions : signalOrOptions?.signal;
  if (signal?.aborted === true) return Promise.reject(signal.reason as Error);
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function isSignal(value: unknown): value is AbortSignal {
  return typeof value === 'object' && value !== null && 'aborted' in value && 'addEventListener' in value;
}
