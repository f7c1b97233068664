/**
 * What a forwarded request is, read from its path and query without fastify: the region it names
 * and how long its hop may take (./forward.ts).
 */
import { parseWait } from '@sked/query';

/**
 * Deadline of a hop that does not block, to the answer's head and between body chunks: a member
 * that accepted the connection and never answers (hung, stopped) is a 504 naming its region then.
 */
export const PLAIN_HOP_MS = 5000;
/** What a blocking hop's deadline adds to the wait it carries (and its wait/16 of jitter). */
export const BLOCKING_MARGIN_MS = 5000;

/**
 * The region a request names: the last `region` of its query string, decoded as fastify's query
 * parser decodes it; undefined without one (checked without parsing when the query has no
 * `region=`, the common case).
 * @param url - The request's path and query.
 * @returns The region, or undefined.
 */
export function namedRegion(url: string): string | undefined {
  const at = url.indexOf('?');
  if (at < 0 || !url.includes('region=', at)) return undefined;
  return new URLSearchParams(url.slice(at + 1)).getAll('region').at(-1);
}

/** How a hop is sent: its undici deadlines, and whether it answers at once (may be pipelined). */
export interface HopDeadline {
  /** To the member's answer head, in milliseconds. */
  readonly headersTimeout: number;
  /** Longest silence between two body chunks, in milliseconds. */
  readonly bodyTimeout: number;
  /** The hop answers at once (no blocking `index`, not the event stream). */
  readonly immediate: boolean;
}

/**
 * The deadline of a hop: a blocking query (`index` above 0) waits up to its `wait` (the service's
 * default and cap) plus wait/16 of jitter, so its hop allows that and a margin; the event stream
 * has no end, so only its silence is bounded; anything else answers at once.
 * @param url - The request's path and query.
 * @param streamIdleMs - The event stream's allowed silence.
 * @returns The headers and body timeouts of undici, in milliseconds.
 */
export function hopDeadline(url: string, streamIdleMs: number): HopDeadline {
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  if (path === '/v1/event/stream' || path === '/v1/event/stream/') {
    return { headersTimeout: PLAIN_HOP_MS, bodyTimeout: streamIdleMs, immediate: false };
  }
  // without `index=` (nor a `%` that could spell it) the query needs no parsing: the common read
  if (at < 0 || (!url.includes('index', at) && !url.includes('%', at))) {
    return { headersTimeout: PLAIN_HOP_MS, bodyTimeout: PLAIN_HOP_MS, immediate: true };
  }
  const query = new URLSearchParams(url.slice(at + 1));
  const index = query.getAll('index').at(-1);
  if (index === undefined || !/^\d+$/.test(index) || Number(index) === 0) {
    return { headersTimeout: PLAIN_HOP_MS, bodyTimeout: PLAIN_HOP_MS, immediate: true };
  }
  const wait = parseWait(query.getAll('wait').at(-1));
  // an invalid wait is answered 400 at once by the member; the longest wait bounds the hop anyway
  const ms = wait.ok ? wait.ms : 10 * 60_000;
  return {
    headersTimeout: Math.ceil(ms + ms / 16) + BLOCKING_MARGIN_MS,
    bodyTimeout: PLAIN_HOP_MS,
    immediate: false,
  };
}
