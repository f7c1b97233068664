/**
 * Wraps an async generator so that `return()` aborts the work in flight at once.
 *
 * An async generator queues `return()` behind a pending `next()`, so a consumer that gives up
 * while a request is in flight would wait for it. This wrapper aborts an internal controller first
 * (the generator sees the abort in its pending await, and ends quietly), then returns.
 *
 * @internal
 */
export function abortable<T>(
  start: (signal: AbortSignal) => AsyncGenerator<T, void, undefined>,
  outer: AbortSignal | undefined,
): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<T, void, undefined> {
      const controller = new AbortController();
      const signal = outer === undefined ? controller.signal : AbortSignal.any([outer, controller.signal]);
      const generator = start(signal);
      return {
        next: () => generator.next(),
        async return(): Promise<IteratorResult<T, void>> {
          controller.abort(new DOMException('The iteration was stopped by its consumer.', 'AbortError'));
          return generator.return(undefined);
        },
        throw: (error?: unknown) => generator.throw(error),
      };
    },
  };
}

/**
 * Whether the iteration's signal aborted because its consumer stopped it (`return()`), rather than
 * because the caller's own signal aborted: the first ends the iteration quietly, the second
 * rejects with the caller's reason.
 *
 * @internal
 */
export function stoppedByConsumer(signal: AbortSignal, outer: AbortSignal | undefined): boolean {
  return signal.aborted && outer?.aborted !== true;
}
