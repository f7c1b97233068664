import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { Duplex, Readable } from 'node:stream';
import Fastify from 'fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULTS } from '../defaults.js';
import { setReadHeaders } from './blocking.js';
import { HttpError } from './errors.js';
import { describeJsonNesting, jsonNestingProblem } from './json-nesting.js';

const gzip = promisify(gzipCallback);

/** Options of {@link createHttpApp}. */
export interface HttpAppOptions {
  /**
   * Largest accepted request body in bytes; a larger one is answered 413 before any handler runs.
   * @defaultValue 10485760 (10 MiB)
   */
  readonly maxBody?: number;
  /**
   * Maps an error that is not an {@link HttpError} (for example the core's `ClusterError`) to a
   * status and message; return undefined to let the default mapping run.
   */
  readonly mapError?: (error: unknown) => { status: number; message: string } | undefined;
  /**
   * The current index, for the read headers of a read (`GET`) that fails before it read anything
   * (a 400 for a bad parameter, a 403): with it, such an answer still carries `X-Svc-Index`,
   * `X-Svc-LastContact` and `X-Svc-KnownLeader`.
   */
  readonly readIndex?: () => number;
}

/** Default request body limit: 10 MiB. */
export const DEFAULT_MAX_BODY: number = DEFAULTS.maxBody;

/** Largest accepted request line plus headers (a long `filter` travels in the URL). */
export const MAX_HEADER_BYTES = 2 * 1024 * 1024;

const TEXT = 'text/plain; charset=utf-8';

/**
 * Compiles a fastify route pattern (`/v1/job/:job_id/versions`) into a regular expression that
 * matches concrete paths, so that a path known under another method answers 405.
 * @param pattern - The route URL as registered.
 * @returns A regular expression anchored at both ends.
 */
export function routePatternToRegExp(pattern: string): RegExp {
  const parts = pattern.split('/').map((segment) => {
    if (segment.startsWith(':')) return '[^/]+';
    if (segment === '*') return '.*';
    return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${parts.join('/')}/?$`);
}

function isReadable(payload: unknown): payload is Readable {
  return (
    typeof payload === 'object' &&
    payload !== null &&
    typeof (payload as { pipe?: unknown }).pipe === 'function'
  );
}

/** Whether an `Accept-Encoding` header value allows gzip (a `q=0` refusal counts as no). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  const text = Array.isArray(header) ? header.join(',') : header;
  for (const part of text.split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    if (coding.trim() !== 'gzip' && coding.trim() !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) return false;
    return true;
  }
  return false;
}

/**
 * Builds the fastify instance with the conventions shared by every endpoint: JSON bodies with or
 * without a content type, the body limit (413), plain-text error answers, 404 `resource not found`
 * and 405 `Invalid method`, and gzip when the client accepts it (streams excepted).
 *
 * @param options - Body limit and error mapping.
 * @returns A fastify instance with no routes yet.
 */
export function createHttpApp(options: HttpAppOptions = {}): FastifyInstance {
  const maxBody = options.maxBody ?? DEFAULT_MAX_BODY;
  const app = Fastify({
    logger: false,
    bodyLimit: maxBody,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16_384 },
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    clientErrorHandler: answerClientError,
    // A path fastify cannot decode (`/v1/job/%ff`) or a parameter over the length limit: a plain-text
    // error like every other (fastify's own answer is a JSON envelope written past the hooks).
    frameworkErrors: (error, request, reply: FastifyReply) => {
      if (isUpgrade(request.headers)) {
        // No hook runs for this answer: end an upgrade's connection here (see the onResponse hook).
        reply.header('connection', 'close');
        reply.raw.once('finish', () => request.raw.socket.destroySoon());
      }
      void reply
        .code(error.statusCode ?? 400)
        .type(TEXT)
        .send(error.message.replace(/^'(.*)' is/, 'The path "$1" is'));
    },
  });

  const knownRoutes: { methods: ReadonlySet<string>; pattern: RegExp }[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    knownRoutes.push({
      methods: new Set(methods.map((m) => String(m).toUpperCase())),
      pattern: routePatternToRegExp(route.url),
    });
  });

  acceptJsonBodies(app, 'Failed to parse the request body as JSON');
  exactJsonContentType(app);

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const known = knownRoutes.some((route) => route.pattern.test(path));
    const status = known ? 405 : 404;
    return reply
      .code(status)
      .type(TEXT)
      .send(status === 405 ? 'Invalid method' : 'resource not found');
  });

  app.setErrorHandler((error: unknown, request, reply) => {
    const { status, message } = describeError(error, options.mapError, maxBody);
    if (options.readIndex !== undefined && request.method === 'GET' && !reply.hasHeader('x-svc-index')) {
      setReadHeaders(reply, options.readIndex());
    }
    return reply.code(status).type(TEXT).send(message);
  });

  // While closing, answers (blocking queries released by the shutdown) end their connection, so
  // that keep-alive sockets do not hold the close open.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  // A WebSocket upgrade request that a route answers over HTTP (any route but a WebSocket one:
  // the WebSocket plugin sees the upgrade of every route of the listener) owns a socket Node's HTTP
  // parser has let go of: nothing would read a next request on it or end it, and `close()` would
  // wait on it forever. The answer says `Connection: close`, and the socket ends once it is sent.
  app.addHook('onResponse', (request, _reply, done) => {
    if (isUpgrade(request.headers)) request.raw.socket.destroySoon();
    done();
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (closing || isUpgrade(request.headers)) reply.header('connection', 'close');
    if (payload === null || payload === undefined || isReadable(payload)) return payload;
    if (reply.hasHeader('content-encoding')) return payload;
    if (!acceptsGzip(request.headers['accept-encoding'])) return payload;
    const input = typeof payload === 'string' ? Buffer.from(payload) : (payload as Buffer);
    const compressed = await gzip(input);
    reply.header('content-encoding', 'gzip');
    reply.header('vary', 'accept-encoding');
    reply.removeHeader('content-length');
    return compressed;
  });

  return app;
}

/**
 * Answers JSON with `Content-Type: application/json` exactly, as the real services do (fastify
 * appends `; charset=utf-8` to a string payload's type; clients compare the string).
 * @param app - A fastify instance.
 */
export function exactJsonContentType(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.getHeader('content-type') === 'application/json; charset=utf-8') {
      reply.header('content-type', 'application/json');
    }
    done(null, payload);
  });
}

/**
 * Whether a `Content-Type` names JSON: `application/json`, `text/json` or a `+json` type.
 * @param contentType - The header value (parameters allowed).
 * @returns Whether it is a JSON media type.
 */
export function isJsonContentType(contentType: string): boolean {
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || type === 'text/json' || /^application\/[^/]*\+json$/.test(type);
}

/**
 * Whether a request comes from a browser: it carries `Origin` or a `Sec-Fetch-*` header, which
 * browsers add and scripts of a page cannot remove.
 */
function fromBrowser(headers: FastifyRequest['headers']): boolean {
  return headers.origin !== undefined || headers['sec-fetch-site'] !== undefined;
}

/**
 * Whether a request asks for a protocol upgrade the way Node's HTTP parser recognises one (an
 * `Upgrade` header and the `upgrade` token in `Connection`): with an `upgrade` listener on the
 * server (the WebSocket plugin's), such a request's socket is no longer the parser's.
 * @param headers - The request headers.
 * @returns Whether it is an upgrade request.
 */
export function isUpgrade(headers: FastifyRequest['headers']): boolean {
  const connection = headers.connection ?? '';
  return headers.upgrade !== undefined && /(^|,)\s*upgrade\s*(,|$)/i.test(connection);
}

/**
 * Parses a request body as JSON whatever its content type, as the service does (an empty body is
 * `undefined`), except from a browser: a body a browser sends with a type other than JSON (the
 * `text/plain` or form types a page can send without a CORS preflight) is a 415. A body that is not
 * JSON, or nested deeper than `MAX_JSON_NESTING`, is a 400 `<prefix>: <reason>` (the reason says
 * where) and reaches no handler.
 * @param app - A fastify instance.
 * @param prefix - Start of the 400 message.
 */
export function acceptJsonBodies(app: FastifyInstance, prefix: string): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    const contentType = request.headers['content-type'];
    if (contentType !== undefined && fromBrowser(request.headers) && !isJsonContentType(contentType)) {
      done(
        new HttpError(
          415,
          `Unsupported media type ${JSON.stringify(contentType.slice(0, 100))}: a request body from a browser must be sent as application/json`,
        ),
        undefined,
      );
      return;
    }
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    const nesting = jsonNestingProblem(text);
    if (nesting !== undefined) {
      done(new HttpError(400, `${prefix}: ${describeJsonNesting(nesting)}`), undefined);
      return;
    }
    try {
      done(null, JSON.parse(text) as unknown);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      done(new HttpError(400, `${prefix}: ${reason}`), undefined);
    }
  });
}

/**
 * Answers a request Node could not parse (before fastify sees it) with a plain-text error like
 * every other answer, instead of fastify's default JSON.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let message = 'Malformed HTTP request';
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    message = `Request line and headers are larger than the limit of ${MAX_HEADER_BYTES} bytes`;
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    message = 'Request timed out';
  }
  if (socket.writable) {
    const reason =
      status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request';
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(message)}\r\nContent-Type: ${TEXT}\r\nConnection: close\r\n\r\n${message}`,
    );
  }
  socket.destroy(error);
}

function describeError(
  error: unknown,
  mapError: HttpAppOptions['mapError'],
  maxBody: number,
): { status: number; message: string } {
  if (HttpError.is(error)) return { status: error.status, message: error.message };
  const fastifyError = error as Partial<FastifyError>;
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { status: 413, message: `Request body is larger than the limit of ${maxBody} bytes` };
  }
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return { status: 415, message: 'Unsupported media type' };
  }
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
    return { status: 400, message: 'Request body size did not match Content-Length' };
  }
  const mapped = mapError?.(error);
  if (mapped !== undefined) return mapped;
  const status = fastifyError.statusCode;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof status === 'number' && status >= 400 && status < 500) return { status, message };
  return { status: 500, message: `internal server error: ${message}` };
}

/** Options of {@link sendJson}. */
export interface SendJsonOptions {
  /** Status code. @defaultValue 200 */
  readonly status?: number;
}

/**
 * Answers with a JSON body, indented when the request has `?pretty` (any value but `false`/`0`).
 * @param request - The request (for `pretty`).
 * @param reply - The reply to send on.
 * @param body - Any JSON-serialisable value.
 * @param options - Status code.
 * @returns The reply, for fastify's async handler contract.
 */
export function sendJson(
  request: FastifyRequest,
  reply: FastifyReply,
  body: unknown,
  options: SendJsonOptions = {},
): FastifyReply {
  const query = request.query as Record<string, unknown> | undefined;
  const pretty = isFlagSet(query?.['pretty']);
  const text = pretty ? `${JSON.stringify(body, null, 4)}\n` : JSON.stringify(body);
  return reply
    .code(options.status ?? 200)
    .type('application/json')
    .send(text ?? 'null');
}

/**
 * Answers with JSON text that is already serialised (compact), re-indenting it for `?pretty`.
 * @param request - The request (for `pretty`).
 * @param reply - The reply to send on.
 * @param text - Compact JSON text.
 * @returns The reply.
 */
export function sendJsonText(request: FastifyRequest, reply: FastifyReply, text: string): FastifyReply {
  const query = request.query as Record<string, unknown> | undefined;
  if (isFlagSet(query?.['pretty'])) return sendJson(request, reply, JSON.parse(text) as unknown);
  return reply.code(200).type('application/json').send(text);
}

/**
 * Reads a presence flag such as `?pretty` or `?stale`: present with no value, or any value other
 * than `false`/`0`, means on.
 * @param value - The raw query value.
 * @returns Whether the flag is set.
 */
export function isFlagSet(value: unknown): boolean {
  if (value === undefined) return false;
  const last = Array.isArray(value) ? (value.at(-1) as unknown) : value;
  if (typeof last !== 'string') return true;
  const lower = last.toLowerCase();
  return lower !== 'false' && lower !== '0';
}
