/**
 * Hooks that keep a view's data current: `useWatch` follows a blocking query (the clients' `watch`,
 * which waits on the server until the index moves: no polling, no reload), `useLoad` reads once
 * per change of its inputs. Both stop their request when the view goes away.
 */
import { ApiError } from '@sked/scheduler-client';
import { useEffect, useState } from 'preact/hooks';

/** What a view shows of a read. */
export interface ReadState<T> {
  /** The latest data. */
  readonly data: T | undefined;
  /** The error of the latest attempt, when it failed. */
  readonly error: unknown;
  /** Whether nothing arrived yet. */
  readonly loading: boolean;
}

const START: ReadState<never> = { data: undefined, error: undefined, loading: true };

/**
 * Follows a blocking query: each result replaces the data.
 * @param start - Starts the watch (`client.jobs.list.watch({ ..., signal })`); undefined: nothing to watch.
 * @param deps - What the watch depends on; a change starts a new one.
 * @returns The latest data or error.
 */
export function useWatch<T>(
  start: ((signal: AbortSignal) => AsyncIterable<{ readonly data: T }>) | undefined,
  deps: readonly unknown[],
): ReadState<T> {
  const [state, setState] = useState<ReadState<T>>(START);
  useEffect(() => {
    // the last data stays on screen until the new watch answers (no flash of an empty table)
    setState((old) => ({ ...old, error: undefined, loading: true }));
    if (start === undefined) return undefined;
    const controller = new AbortController();
    void (async () => {
      try {
        for await (const result of start(controller.signal)) {
          setState({ data: result.data, error: undefined, loading: false });
        }
      } catch (error) {
        if (!controller.signal.aborted) setState((old) => ({ ...old, error, loading: false }));
      }
    })();
    return () => controller.abort();
  }, deps);
  return state;
}

/**
 * Reads once per change of `deps`.
 * @param read - The read (`client.jobs.versions(id, { signal })`).
 * @param deps - What the read depends on.
 * @returns The data or error.
 */
export function useLoad<T>(
  read: ((signal: AbortSignal) => Promise<{ readonly data: T }>) | undefined,
  deps: readonly unknown[],
): ReadState<T> & { reload(): void } {
  const [state, setState] = useState<ReadState<T>>(START);
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (read === undefined) return undefined;
    const controller = new AbortController();
    read(controller.signal).then(
      (result) => setState({ data: result.data, error: undefined, loading: false }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState((old) => ({ ...old, error, loading: false }));
      },
    );
    return () => controller.abort();
  }, [...deps, round]);
  return { ...state, reload: () => setRound((n) => n + 1) };
}

/**
 * Whether an error asks for a token (403 from the service: ACLs on, and no token or a token
 * that does not allow this).
 * @param error - The error of a read.
 * @returns Whether a token would help.
 */
export function needsToken(error: unknown): boolean {
  return ApiError.is(error) && (error.status === 403 || error.status === 401);
}

/**
 * A sentence for an error of a read or write: the service's own message for an `ApiError`.
 * @param error - The error.
 * @returns The sentence.
 */
export function describeError(error: unknown): string {
  if (ApiError.is(error))
    return `${error.status === 0 ? 'No answer' : `Error ${error.status}`}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
