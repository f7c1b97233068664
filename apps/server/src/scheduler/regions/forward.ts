/**
 * Forwarding of `?region=R` requests to the member serving R, with undici (the engine of Node's
 * `fetch`) over a pooled keep-alive connection: the request goes out as it came (method, path and
 * query, body streamed, token unchanged), and the member's answer comes back as it is (status,
 * headers, body streamed with backpressure, gzip untouched). Each hop has a deadline longer than
 * the blocking wait it carries; a member that cannot be reached is a 502 (504 past the deadline)
 * naming the region, within the connect timeout.
 */
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { request as undiciRequest } from 'undici';
import { parseWait } from '@sked/query';
import { queryString, type Query } from '../../http/conventions.js';
import { HttpError } from '../../http/errors.js';
import type { MemberState, MemberTable } from './table.js';

/** Header a forwarded request carries (the forwarding member's region): it is never forwarded again. */
export const HOP_HEADER = 'x-sked-forwarded-region';

/** Headers of one connection, never copied from one hop to the next (RFC 9110 section 7.6.1). */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'origin',
  HOP_HEADER,
]);

/** Deadline of a hop that does not block, to the answer's headers and between body chunks. */
export const PLAIN_HOP_MS = 30_000;
/** What a blocking hop's deadline adds to the wait it carries (and its wait/16 of jitter). */
export const BLOCKING_MARGIN_MS = 15_000;

/** Options of {@link registerForwarding}. */
export interface ForwardingContext {
  /** The region this member serves. */
  readonly region: string;
  /** The membership table. */
  readonly table: MemberTable;
  /** The HTTP client's connection pool. */
  readonly dispatcher: Dispatcher;
  /** Largest request body forwarded, in bytes (the listener's own limit). */
  readonly maxBody: number;
  /** Longest silence between two chunks of a forwarded event stream, in milliseconds. */
  readonly streamIdleMs: number;
}

/**
 * The deadline of a hop: a blocking query (`index` above 0) waits up to its `wait` (the service's
 * default and cap) plus wait/16 of jitter, so its hop allows that and a margin; the event stream
 * has no end, so only its silence is bounded; anything else answers at once.
 * @param request - The request.
 * @param streamIdleMs - The event stream's allowed silence.
 * @returns The headers and body timeouts of undici, in milliseconds (0: none).
 */
export function hopDeadline(
  request: Pick<FastifyRequest, 'query' | 'url'>,
  streamIdleMs: number,
): { headersTimeout: number; bodyTimeout: number } {
  const path = request.url.split('?')[0] ?? '';
  if (path === '/v1/event/stream') return { headersTimeout: PLAIN_HOP_MS, bodyTimeout: streamIdleMs };
  const query = request.query as Query;
  const index = queryString(query, 'index');
  if (index === undefined || !/^\d+$/.test(index) || Number(index) === 0) {
    return { headersTimeout: PLAIN_HOP_MS, bodyTimeout: PLAIN_HOP_MS };
  }
  const wait = parseWait(queryString(query, 'wait'));
  // an invalid wait is answered 400 at once by the member; the longest wait bounds the hop anyway
  const ms = wait.ok ? wait.ms : 10 * 60_000;
  return { headersTimeout: Math.ceil(ms + ms / 16) + BLOCKING_MARGIN_MS, bodyTimeout: PLAIN_HOP_MS };
}

/**
 * The request headers sent to the member: the client's, less those of the connection, `Host`
 * (the member's own address goes there) and `Origin` (checked here already), plus the hop header.
 * @param headers - The client's headers.
 * @param region - This member's region.
 * @returns The headers for undici.
 */
export function forwardedHeaders(headers: FastifyRequest['headers'], region: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    out[name] = value;
  }
  out[HOP_HEADER] = region;
  return out;
}

/** The reason undici gives, in words (never a header or a token). */
export function networkReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was closed';
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return 'no connection in time';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'unknown host';
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message : String(error);
}

class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge' as const;
}

/** The request body, counted: past `max` bytes it fails (and the hop is aborted). */
function limitedBody(source: Readable, max: number): Readable {
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > max) done(new BodyTooLarge());
      else done(null, chunk);
    },
  });
  pipeline(source, counter).catch(() => undefined);
  return counter;
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Forwards one request to a member and sends its answer.
 * @param request - The client's request.
 * @param reply - Its reply.
 * @param member - The member serving the region named.
 * @param ctx - Pool, limits and this member's region.
 * @returns The reply, sent.
 * @throws 413 for a body over the limit, 502 when the member cannot be reached, 504 past the deadline.
 */
export async function forwardRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  member: MemberState,
  ctx: ForwardingContext,
): Promise<FastifyReply> {
  const declared = Number(request.headers['content-length'] ?? '0');
  if (declared > ctx.maxBody) {
    throw new HttpError(413, `Request body is larger than the limit of ${ctx.maxBody} bytes`);
  }
  const controller = new AbortController();
  const onClose = (): void => {
    if (!reply.raw.writableFinished) controller.abort();
  };
  reply.raw.once('close', onClose);
  const { headersTimeout, bodyTimeout } = hopDeadline(request, ctx.streamIdleMs);
  const named = JSON.stringify(member.Region);
  let answer: Dispatcher.ResponseData;
  try {
    answer = await undiciRequest(`${member.Address}${request.url}`, {
      method: request.method as Dispatcher.HttpMethod,
      headers: forwardedHeaders(request.headers, ctx.region),
      body: hasBody(request) ? limitedBody(request.raw, ctx.maxBody) : null,
      dispatcher: ctx.dispatcher,
      signal: controller.signal,
      headersTimeout,
      bodyTimeout,
    });
  } catch (error) {
    reply.raw.removeListener('close', onClose);
    const cause = (error as { cause?: unknown }).cause ?? error;
    if (cause instanceof BodyTooLarge || error instanceof BodyTooLarge) {
      throw new HttpError(413, `Request body is larger than the limit of ${ctx.maxBody} bytes`);
    }
    if ((error as { code?: unknown }).code === 'UND_ERR_HEADERS_TIMEOUT') {
      throw new HttpError(504, `Region ${named} did not answer in time (member ${member.Address})`);
    }
    throw new HttpError(502, `Region ${named} is unreachable: ${networkReason(error)} (member ${member.Address})`);
  }
  reply.code(answer.statusCode);
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name === 'date') continue;
    reply.header(name, value);
  }
  // a failure mid-body (the member went away) ends the client's answer there: the stream errors
  answer.body.once('error', () => undefined);
  return reply.send(answer.body);
}

/**
 * Registers the forwarding hook on the scheduling service's app, after the local-only guard (a
 * request is checked here first) and before routing: a request whose `region` names another
 * member's region goes there. A WebSocket upgrade is left to the exec route, which relays it; a
 * request that was forwarded once is never forwarded again (a stale table elsewhere gets a 502
 * saying so, not a loop).
 * @param app - The scheduling service's fastify instance.
 * @param ctx - Region, table, pool and limits.
 */
export function registerForwarding(app: FastifyInstance, ctx: ForwardingContext): void {
  app.addHook('onRequest', async (request, reply) => {
    const query = request.query as Query;
    const region = queryString(query, 'region');
    if (region === undefined || region === '' || region === ctx.region) return undefined;
    if (request.headers.upgrade !== undefined) return undefined;
    if (request.headers[HOP_HEADER] !== undefined) {
      throw new HttpError(
        502,
        `Region ${JSON.stringify(region)} is not served by this member (it serves ${JSON.stringify(ctx.region)}): the forwarding member's membership is out of date`,
      );
    }
    const member = ctx.table.get(region);
    if (member === undefined) return undefined;
    return forwardRequest(request, reply, member, ctx);
  });
}
