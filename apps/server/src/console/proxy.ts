/**
 * The console's way to the secrets and mesh listeners. A page may only talk to its own origin (the
 * scheduling listener that served it), and the other two listeners grant no cross-origin access, so
 * `/ui/api/secrets/v1/…` and `/ui/api/mesh/v1/…` on the scheduling listener are passed to
 * `/v1/…` of those listeners: the same request (method, query, token header, JSON body) and
 * their answer, streamed back as it comes. The local-only guard of the scheduling listener has
 * already checked `Host` and `Origin`; the other listener sees a local client without `Origin`,
 * and checks the token itself.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.js';

/** The listeners the console reaches through this listener, by name; each resolves to its base URL. */
export interface ConsoleUpstreams {
  /** The secrets listener, `http://HOST:PORT`. */
  readonly secrets: () => string | undefined;
  /** The mesh listener, `http://HOST:PORT`. */
  readonly mesh: () => string | undefined;
}

/** Request headers passed on (the token headers of both services, content negotiation). */
const REQUEST_HEADERS = [
  'accept',
  'accept-encoding',
  'authorization',
  'x-secrets-token',
  'x-mesh-token',
] as const;

/** Answer headers not passed back: they describe the hop, not the answer. */
const HOP_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-authenticate',
  'trailer',
]);

/** Longest wait for the other listener's answer: a blocking query waits at most 10 min + wait/16. */
export const UPSTREAM_DEADLINE_MS = 11 * 60_000;

const SERVICE_NAMES = { secrets: 'secrets', mesh: 'mesh' } as const;

/** The target path: `/v1/…` after the prefix, as it arrived (query included), without `.`/`..` segments. */
function targetPath(request: FastifyRequest, prefix: string): string {
  const url = request.raw.url ?? request.url;
  const rest = url.slice(prefix.length);
  const path = rest.split('?')[0] ?? '';
  const segments = path.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
  if (!rest.startsWith('/v1/') || segments.some((s) => s === '.' || s === '..' || /[/\\]/.test(s))) {
    throw new HttpError(404, 'resource not found');
  }
  return rest;
}

/**
 * The address to dial for a listener's URL: a wildcard bind address is reached on loopback (and is
 * then also the `Host`, which the other listener accepts).
 */
export function dialTarget(base: string): { hostname: string; port: number } {
  const url = new URL(base);
  let hostname = url.hostname.replace(/^\[|\]$/g, '');
  if (hostname === '0.0.0.0') hostname = '127.0.0.1';
  if (hostname === '::') hostname = '::1';
  return { hostname, port: Number(url.port) };
}

function forward(
  service: keyof typeof SERVICE_NAMES,
  base: string,
  request: FastifyRequest,
  path: string,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const headers: Record<string, string> = {};
  for (const name of REQUEST_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  const { hostname, port } = dialTarget(base);
  return new Promise((resolve, reject) => {
    const upstream = httpRequest({ hostname, port, method: request.method, path, headers, signal }, resolve);
    upstream.on('error', (error) => {
      const timedOut =
        signal.aborted && signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError';
      reject(
        timedOut
          ? new HttpError(
              504,
              `The ${service} service did not answer within ${UPSTREAM_DEADLINE_MS / 60_000} minutes`,
            )
          : new HttpError(502, `The ${service} service at ${base} did not answer: ${error.message}`),
      );
    });
    upstream.end(body);
  });
}

/**
 * Registers `/ui/api/secrets/*` and `/ui/api/mesh/*` on a listener.
 * @param app - The scheduling listener's app, before it listens.
 * @param upstreams - The other listeners' URLs (read per request: the mesh listener starts later).
 */
export function registerConsoleProxy(app: FastifyInstance, upstreams: ConsoleUpstreams): void {
  const closing = new AbortController();
  app.addHook('preClose', (done) => {
    closing.abort();
    done();
  });
  for (const service of ['secrets', 'mesh'] as const) {
    const prefix = `/ui/api/${service}`;
    app.route({
      method: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
      url: `${prefix}/*`,
      handler: async (request, reply) => {
        const path = targetPath(request, prefix);
        const base = upstreams[service]();
        if (base === undefined) throw new HttpError(503, `The ${service} service is not running`);
        // ends with the answer, the deadline, the browser going away, or the server closing
        const gone = new AbortController();
        reply.raw.once('close', () => {
          if (!reply.raw.writableFinished) gone.abort();
        });
        const signal = AbortSignal.any([
          gone.signal,
          closing.signal,
          AbortSignal.timeout(UPSTREAM_DEADLINE_MS),
        ]);
        const answer = await forward(service, base, request, path, signal);
        void reply.code(answer.statusCode ?? 502);
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !HOP_HEADERS.has(name)) void reply.header(name, value);
        }
        return reply.send(answer);
      },
    });
  }
}
