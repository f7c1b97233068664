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
 * Sets the read headers: `X-Svc-Index` (at least 1), `X-Svc-LastContact: 0` and
 * `X-Svc-KnownLeader: true` (the single server is its own leader).
 * @param reply - The reply.
 * @param index - The index of what was read.
 */
export function setReadHeaders(reply: FastifyReply, index: number): void {
  reply.header('X-Svc-Index', String(Math.max(1, index)));
  reply.header('X-Svc-LastContact', '0');
  reply.header('X-Svc-KnownLeader', 'true');
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
 * @returns The index reported in `X-Svc-Index`.
 * @throws 400 `Invalid index` or `Invalid wait time`.
 */
export async function blockingRead(
  ctx: BlockingContext,
  request: FastifyRequest,
  reply: FastifyReply,
  watches: readonly IndexWatch[],
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
    ctx.shutdown.addEventListener('abort', abort, { once: true });
    try {
      await Promise.race(
        watches.map((watch) => watch.waitFor(after, { waitMs: wait.ms, signal: controller.signal })),
      );
    } finally {
      controller.abort();
      raw.removeListener('close', abort);
      ctx.shutdown.removeEventListener('abort', abort);
    }
  }
  const index = current();
  setReadHeaders(reply, index);
  return index;
}
