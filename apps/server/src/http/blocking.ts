import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseWait, type IndexWatch } from '@sked/query';
import { type Query, queryString, readIndex } from './conventions.js';
import { badRequest } from './errors.js';

/** What a blocking read needs from the server. */
export interface BlockingContext {
  /** Aborted when the server shuts down: every waiting query answers at once. */
  readonly shutdown: AbortSignal;
}

/**
 * Callbacks to run when a shutdown signal aborts, kept in a Set (O(1) add and delete) behind one
 * listener per signal, instead of one `abort` listener per waiting request on the signal itself.
 */
const shutdownCallbacks = new WeakMap<AbortSignal, Set<() => void>>();

function onShutdown(signal: AbortSignal, callback: () => void): () => void {
  let callbacks = shutdownCallbacks.get(signal);
  if (callbacks === undefined) {
    const set = new Set<() => void>();
    callbacks = set;
    shutdownCallbacks.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        for (const fn of set) fn();
        set.clear();
      },
      { once: true },
    );
  }
  const set = callbacks;
  set.add(callback);
  return () => void set.delete(callback);
}

/**
 * Sets the read headers: `X-Svc-Index` (at least 1), `X-Svc-LastContact: 0` and
 * `X-Svc-KnownLeader: true` (the single server is its own leader).
 * @param reply - The reply.
 * @param index - The index of what was read.
 * @param prefix - Header prefix of the service (`X-Mesh` for the mesh service).
 */
export function setReadHeaders(reply: FastifyReply, index: number, prefix = 'X-Svc'): void {
  reply.header(`${prefix}-Index`, String(Math.max(1, index)));
  reply.header(`${prefix}-LastContact`, '0');
  reply.header(`${prefix}-KnownLeader`, 'true');
}

/**
 * Runs the blocking-query part of a read: validates `index` and `wait`, waits while the index of
 * every watched table is at most `index` (until one passes it, `wait` elapses, the client goes
 * away or the server shuts down), then sets the read headers.
 *
 * @param ctx - The shutdown signal.
 * @param request - The request (`index`, `wait`).
 * @param reply - The reply (its close frees the waiter; gets the read headers).
 * @param watches - The indexes of the tables the read covers.
 * @param headerPrefix - Prefix of the read headers (`X-Mesh` for the mesh service).
 * @returns The index reported in `X-Svc-Index`.
 * @throws 400 `Invalid index` or `Invalid wait time`.
 */
export async function blockingRead(
  ctx: BlockingContext,
  request: FastifyRequest,
  reply: FastifyReply,
  watches: readonly IndexWatch[],
  headerPrefix = 'X-Svc',
): Promise<number> {
  const query = request.query as Query;
  const after = readIndex(query);
  const wait = parseWait(queryString(query, 'wait'));
  if (!wait.ok) throw badRequest(wait.message);
  const current = (): number => Math.max(1, ...watches.map((watch) => watch.current));
  if (after > 0 && current() <= after && !ctx.shutdown.aborted) {
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    const raw = reply.raw;
    raw.once('close', abort);
    const forget = onShutdown(ctx.shutdown, abort);
    try {
      await Promise.race(
        watches.map((watch) => watch.waitFor(after, { waitMs: wait.ms, signal: controller.signal })),
      );
    } finally {
      controller.abort();
      raw.removeListener('close', abort);
      forget();
    }
  }
  const index = current();
  setReadHeaders(reply, index, headerPrefix);
  return index;
}
