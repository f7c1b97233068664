/** A fetcher call that waits until the test settles it, or until its signal aborts. */
export interface PendingCall<Req, Res> {
  readonly request: Req;
  readonly signal: AbortSignal;
  resolve(value: Res): void;
  reject(error: unknown): void;
}

/**
 * A controllable fetcher: each call is queued in `calls` and settles when the test says so. It
 * honours its signal like fetch does: an abort rejects the call with the signal's reason.
 */
export function controllableFetcher<Req, Res>(): {
  fetch: (request: Req, signal: AbortSignal) => Promise<Res>;
  calls: PendingCall<Req, Res>[];
  nextCall: () => Promise<PendingCall<Req, Res>>;
} {
  const calls: PendingCall<Req, Res>[] = [];
  const waiting: ((call: PendingCall<Req, Res>) => void)[] = [];
  const fetch = (request: Req, signal: AbortSignal): Promise<Res> =>
    new Promise<Res>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      const call = { request, signal, resolve, reject };
      calls.push(call);
      waiting.shift()?.(call);
    });
  let taken = 0;
  const nextCall = (): Promise<PendingCall<Req, Res>> => {
    const existing = calls[taken];
    if (existing !== undefined) {
      taken++;
      return Promise.resolve(existing);
    }
    return new Promise((resolve) =>
      waiting.push((call) => {
        taken++;
        resolve(call);
      }),
    );
  };
  return { fetch, calls, nextCall };
}
