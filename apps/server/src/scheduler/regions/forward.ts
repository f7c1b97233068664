/**
 * Forwarding of `?region=R` requests to the member serving R, with undici (the engine of Node's
 * `fetch`) over pooled keep-alive connections (plain reads pipelined on a pool of their own): the
 * request goes out as it came (method, path and query, body streamed, token unchanged), and the
 * member's answer comes back as it is (status, headers, body written to the client as it arrives,
 * gzip untouched). Each hop has a deadline (./hop.ts) longer than the blocking wait it carries; a
 * member that cannot be reached is a 502 naming the region within the connect timeout, one that
 * does not answer a 504 past the deadline.
 *
 * A plain read is forwarded in front of fastify, on the listener's `request` event, while no fault
 * rule is in place (this member's routing, hooks and reply objects would cost more than the read
 * it forwards); every other hop from an `onRequest` hook after the fault injector's. Both check the
 * local-only rules first (the same `checkLocalOnly` as every listener's guard); a request naming
 * no region, this member's, a region no member serves, or `OPTIONS` is fastify's.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gzipSync } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { acceptsGzip, isUpgrade } from '../../http/app.js';
import { checkLocalOnly, type LocalOnlyOptions } from '../../http/local-only.js';
import { hopDeadline, namedRegion } from './hop.js';
import type { MemberState, MemberTable } from './table.js';

export { BLOCKING_MARGIN_MS, hopDeadline, namedRegion, PLAIN_HOP_MS } from './hop.js';

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

/** Options of {@link installForwarding}. */
export interface ForwardingContext {
  /** The listener's local-only options (allowed hosts). */
  readonly localOnly: LocalOnlyOptions;
  /** Whether the listener is closing (then fastify answers, 503). */
  readonly closing: () => boolean;
  /** The region this member serves. */
  readonly region: string;
  /** The membership table. */
  readonly table: MemberTable;
  /** Connection pool of hops that may wait (blocking queries, the event stream, writes). */
  readonly dispatcher: Dispatcher;
  /**
   * Connection pool of plain reads (`GET`/`HEAD` answered at once): few connections per member,
   * several reads pipelined on each, so one read from the member carries several answers.
   * @defaultValue the dispatcher
   */
  readonly reads?: Dispatcher | undefined;
  /** Largest request body forwarded, in bytes (the listener's own limit). */
  readonly maxBody: number;
  /**
   * Whether a plain read may be forwarded ahead of fastify (no fault rule in place): else, and
   * for every other hop, the listener's hooks (fault injection) run first. @defaultValue always
   */
  readonly fastPath?: (() => boolean) | undefined;
  /** Longest silence between two chunks of a forwarded event stream, in milliseconds. */
  readonly streamIdleMs: number;
}

/**
 * The request headers sent to the member: the client's, less those of the connection, `Host`
 * (the member's own address goes there) and `Origin` (checked here already), plus the hop header.
 * @param headers - The client's headers.
 * @param region - This member's region.
 * @returns The headers for undici.
 */
export function forwardedHeaders(
  headers: IncomingHttpHeaders,
  region: string,
): Record<string, string | string[]> {
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

function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Answers an error in the listener's format: the message as `text/plain; charset=utf-8`, gzipped
 * when the client accepts it; the connection closed when a request body was left unread.
 */
function answerError(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  message: string,
): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  let body = Buffer.from(message, 'utf8');
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
  if (acceptsGzip(request.headers['accept-encoding'])) {
    body = gzipSync(body);
    headers['content-encoding'] = 'gzip';
    headers['vary'] = 'accept-encoding';
  }
  headers['content-length'] = String(body.length);
  if (hasBody(request) && !request.readableEnded) headers['connection'] = 'close';
  response.writeHead(status, headers).end(body);
}

/**
 * Forwards one request to a member and writes its answer as it arrives: undici's dispatch API,
 * whose handler writes the member's head and body chunks straight into the client's response (a
 * full client buffer pauses the member's connection until it drains; the client going away aborts
 * the hop, which frees the member's waiter).
 * @param request - The client's request.
 * @param response - Its response.
 * @param member - The member serving the region named.
 * @param ctx - Pool, limits and this member's region.
 * @param parsed - The body to send instead of the request's (read already, to route by it), as JSON.
 * @returns Nothing; a failure before the member's head is answered in the listener's error format:
 *   413 for a body over the limit, 502 when the member cannot be reached, 504 past the deadline.
 */
export function forwardRequest(
  request: IncomingMessage,
  response: ServerResponse,
  member: MemberState,
  ctx: ForwardingContext,
  parsed?: string,
): void {
  const url = request.url ?? '/';
  const tooLarge = `Request body is larger than the limit of ${ctx.maxBody} bytes`;
  if (parsed === undefined && Number(request.headers['content-length'] ?? '0') > ctx.maxBody) {
    return answerError(request, response, 413, tooLarge);
  }
  const { headersTimeout, bodyTimeout, immediate } = hopDeadline(url, ctx.streamIdleMs);
  const method = request.method ?? 'GET';
  const read =
    parsed === undefined && immediate && (method === 'GET' || method === 'HEAD') && !hasBody(request);
  const headers = forwardedHeaders(request.headers, ctx.region);
  if (parsed !== undefined) {
    delete headers['content-encoding'];
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(parsed));
  }
  let hop: Dispatcher.DispatchController | undefined;
  let started = false;
  let draining = false;
  const onClose = (): void => {
    if (!response.writableFinished) hop?.abort(new Error('the client went away'));
  };
  const onDrain = (): void => {
    draining = false;
    hop?.resume();
  };
  response.once('close', onClose);
  const dispatcher = read ? (ctx.reads ?? ctx.dispatcher) : ctx.dispatcher;
  dispatcher.dispatch(
    {
      origin: member.Address,
      path: url,
      method: method as Dispatcher.HttpMethod,
      // a read answered at once may share a connection with the reads before it
      blocking: !read,
      headers,
      body: parsed ?? (hasBody(request) ? limitedBody(request, ctx.maxBody) : null),
      headersTimeout,
      bodyTimeout,
    },
    {
      onRequestStart(controller) {
        hop = controller;
        if (response.destroyed) controller.abort(new Error('the client went away'));
      },
      onResponseStart(_controller, statusCode, headers) {
        started = true;
        // the head and a body that arrived with it leave in one write
        response.cork();
        process.nextTick(() => response.uncork());
        response.writeHead(statusCode, answerHeaders(headers));
      },
      onResponseData(controller, chunk) {
        // a pipelined read's answer (whole on the member already) is never paused: a slow client
        // would hold up the reads of others behind it on the same connection; it is buffered here
        if (response.write(chunk) || draining || read) return;
        draining = true;
        controller.pause();
        response.once('drain', onDrain);
      },
      onResponseEnd() {
        response.removeListener('close', onClose);
        response.end();
      },
      onResponseError(_controller, error) {
        response.removeListener('close', onClose);
        // the member went away mid-answer, or the client did: the client's answer ends there
        if (started || response.destroyed) return void response.destroy();
        const cause = (error as { cause?: unknown }).cause ?? error;
        if (cause instanceof BodyTooLarge || error instanceof BodyTooLarge) {
          return answerError(request, response, 413, tooLarge);
        }
        const named = JSON.stringify(member.Region);
        if ((error as { code?: unknown }).code === 'UND_ERR_HEADERS_TIMEOUT') {
          return answerError(
            request,
            response,
            504,
            `Region ${named} did not answer in time (member ${member.Address})`,
          );
        }
        return answerError(
          request,
          response,
          502,
          `Region ${named} is unreachable: ${networkReason(error)} (member ${member.Address})`,
        );
      },
    },
  );
  return undefined;
}

/** The member's answer headers for the client: all but those of the connection (and its Date). */
function answerHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name === 'date') continue;
    out[name] = value;
  }
  return out;
}

/**
 * Puts forwarding in front of the listener's fastify handler and in its first `onRequest` hooks:
 * a request whose `region` names another member's region is checked by the local-only rules and
 * forwarded there; a request that was forwarded once is never forwarded again (a stale table
 * elsewhere gets a 502 saying so, not a loop). A plain read (`GET`/`HEAD` answered at once) is
 * forwarded from the `request` event, before fastify, when no fault rule is in place; any other
 * hop is forwarded from an `onRequest` hook added after the fault injector's, so that the faults
 * of this member (status, latency, cuts, drops, leaderless) apply to requests it forwards.
 * WebSocket upgrades never reach either (the exec route relays them).
 * @param app - The listener's fastify instance (its routes and the fault hook registered or not).
 * @param ctx - Region, table, pool, limits and the local-only options.
 */
export function installForwarding(app: FastifyInstance, ctx: ForwardingContext): void {
  const server = app.server;
  const handlers = server.listeners('request') as ((
    request: IncomingMessage,
    response: ServerResponse,
  ) => void)[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!forwards(request, response, ctx, false))
      for (const handler of handlers) handler.call(server, request, response);
  });
  app.addHook('onRequest', (request, reply, done) => {
    // a WebSocket upgrade (exec) goes through the routes as well: the exec route relays it
    if (!isUpgrade(request.headers) && forwards(request.raw, reply.raw, ctx, true)) reply.hijack();
    done();
  });
}

function forwards(
  request: IncomingMessage,
  response: ServerResponse,
  ctx: ForwardingContext,
  hooked: boolean,
): boolean {
  const url = request.url ?? '/';
  // an absolute-form request target (`GET http://host/path`) is fastify's to answer, never a hop's
  if (!url.startsWith('/')) return false;
  const region = namedRegion(url);
  if (region === undefined || region === '' || region === ctx.region || request.method === 'OPTIONS')
    return false;
  const hop = request.headers[HOP_HEADER] !== undefined;
  const member = hop ? undefined : ctx.table.get(region);
  if ((!hop && member === undefined) || ctx.closing()) return false;
  if (!hooked && !plainRead(request, url, ctx)) return false;
  const refusal = checkLocalOnly(
    { method: request.method ?? 'GET', headers: request.headers, localAddress: request.socket.localAddress },
    ctx.localOnly,
  );
  if (refusal !== undefined) answerError(request, response, refusal.status, refusal.message);
  else if (member === undefined) {
    answerError(
      request,
      response,
      502,
      `Region ${JSON.stringify(region)} is not served by this member (it serves ${JSON.stringify(ctx.region)}): the forwarding member's membership is out of date`,
    );
  } else forwardRequest(request, response, member, ctx);
  return true;
}

/** A read answered at once, forwarded before fastify while no fault rule is in place. */
function plainRead(request: IncomingMessage, url: string, ctx: ForwardingContext): boolean {
  const method = request.method;
  if ((method !== 'GET' && method !== 'HEAD') || hasBody(request)) return false;
  return (ctx.fastPath?.() ?? true) && hopDeadline(url, ctx.streamIdleMs).immediate;
}
