/**
 * The local-only defaults of every listener (scheduling, secrets, mesh): a request must be addressed
 * to this server (`Host`), and a browser page of another origin cannot change anything (`Origin`).
 * Clients outside browsers (the CLI, the client packages, curl) send no `Origin` and address the
 * server by the name they dialled, so they keep working.
 *
 * @packageDocumentation
 */
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

/** Options of {@link guardLocalOnly} and {@link checkLocalOnly}. */
export interface LocalOnlyOptions {
  /**
   * Host names (or addresses) accepted in `Host` besides the listener's own address and the loopback
   * names and addresses, compared without the port and case-insensitively; `*` accepts any.
   * @defaultValue none
   */
  readonly allowedHosts?: readonly string[];
}

/** What {@link checkLocalOnly} reads of a request. */
export interface LocalOnlyRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The address the connection arrived on (the listener's own address). */
  readonly localAddress: string | undefined;
}

/** Methods that never change state; other methods (and WebSocket upgrades) need a same-origin `Origin`. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Strips an IPv4-mapped prefix and the brackets of an IPv6 literal; lower-cases. */
function plainAddress(address: string): string {
  let out = address.toLowerCase();
  if (out.startsWith('[') && out.endsWith(']')) out = out.slice(1, -1);
  if (out.startsWith('::ffff:') && isIP(out.slice(7)) === 4) out = out.slice(7);
  return out;
}

/**
 * The host name of a `Host` header value, without the port: `[::1]:4646` gives `::1`.
 * @param host - A `Host` header value.
 * @returns The host name, lower-cased, or undefined when the value is not a host name.
 */
export function hostnameOf(host: string): string | undefined {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith('[')) {
    const end = trimmed.indexOf(']');
    if (end < 0) return undefined;
    const rest = trimmed.slice(end + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return undefined;
    return trimmed.slice(1, end);
  }
  const match = /^([^:]*)(?::\d{1,5})?$/.exec(trimmed);
  if (match === null || match[1] === undefined || match[1] === '') return undefined;
  return match[1].replace(/\.$/, '');
}

/** Whether a host name is a loopback name (`localhost`, `*.localhost`) or address (127/8, `::1`). */
export function isLoopbackHost(hostname: string): boolean {
  const plain = plainAddress(hostname);
  if (plain === 'localhost' || plain.endsWith('.localhost')) return true;
  if (plain === '::1') return true;
  return isIP(plain) === 4 && plain.startsWith('127.');
}

function hostAllowed(hostname: string, request: LocalOnlyRequest, options: LocalOnlyOptions): boolean {
  if (isLoopbackHost(hostname)) return true;
  const plain = plainAddress(hostname);
  if (request.localAddress !== undefined && plain === plainAddress(request.localAddress)) return true;
  return (options.allowedHosts ?? []).some((allowed) => {
    const name = allowed.trim().toLowerCase();
    return name === '*' || plainAddress(hostnameOf(name) ?? name) === plain;
  });
}

function isUpgrade(request: Pick<LocalOnlyRequest, 'headers'>): boolean {
  return single(request.headers['upgrade'])?.toLowerCase() === 'websocket';
}

/**
 * Checks a request against the local-only rules, in this order:
 * 1. `Host` (when present) must name the listener's own address, a loopback name or address (any
 *    port), or an allowed host: otherwise 403, which defeats DNS rebinding;
 * 2. a state-changing request (any method but GET, HEAD and OPTIONS) and a WebSocket upgrade with an
 *    `Origin` must come from the origin the request is addressed to (`Origin` host equal to `Host`)
 *    or from a page served under an allowed host (a proxy's name; `*` does not count): otherwise
 *    403. No `Origin` (clients outside browsers) is fine.
 * @param request - Method, headers and the connection's local address.
 * @param options - The allowed hosts.
 * @returns Undefined when the request may go on; else the refusal's status and message.
 */
export function checkLocalOnly(
  request: LocalOnlyRequest,
  options: LocalOnlyOptions = {},
): { status: number; message: string } | undefined {
  const host = single(request.headers['host']);
  if (host !== undefined) {
    const hostname = hostnameOf(host);
    if (hostname === undefined || !hostAllowed(hostname, request, options)) {
      return {
        status: 403,
        message: `Host ${JSON.stringify(host.slice(0, 200))} is not allowed: this server answers requests addressed to its own address, to a loopback name or address, or to a host given with --allowed-host`,
      };
    }
  }
  const origin = single(request.headers['origin']);
  if (origin === undefined || (SAFE_METHODS.has(request.method.toUpperCase()) && !isUpgrade(request))) {
    return undefined;
  }
  let originHost: string | undefined;
  let originName: string | undefined;
  try {
    const url = new URL(origin);
    if (url.protocol === 'http:' || url.protocol === 'https:') {
      originHost = url.host.toLowerCase();
      originName = plainAddress(url.hostname);
    }
  } catch {
    originHost = undefined;
  }
  if (originHost !== undefined && host !== undefined && originHost === host.trim().toLowerCase()) {
    return undefined;
  }
  // a page served under an allowed host name (a proxy in front of the server) is not a stranger;
  // `*` allows any Host, never any Origin
  const named = (options.allowedHosts ?? []).some(
    (allowed) => allowed.trim() !== '*' && plainAddress(hostnameOf(allowed) ?? allowed) === originName,
  );
  if (originName !== undefined && named) return undefined;
  return {
    status: 403,
    message: `Origin ${JSON.stringify(origin.slice(0, 200))} is not allowed: requests that change state and WebSocket connections are accepted only from the server's own origin`,
  };
}

/**
 * Applies {@link checkLocalOnly} to every request of `app` (WebSocket upgrades included) before
 * routing, refusals answered through the app's error handler (each listener's own error format),
 * and answers `OPTIONS` (CORS preflights) with 204 and no `Access-Control-Allow-*` header, which
 * grants no cross-origin access.
 * @param app - A fastify instance, before it is ready.
 * @param options - The allowed hosts.
 */
export function guardLocalOnly(app: FastifyInstance, options: LocalOnlyOptions = {}): void {
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    const refusal = checkLocalOnly(
      { method: request.method, headers: request.headers, localAddress: request.socket.localAddress },
      options,
    );
    if (refusal !== undefined) {
      if (isUpgrade(request)) {
        // A refused upgrade's socket belongs to no HTTP connection the server would close: end it.
        void reply.header('connection', 'close');
        reply.raw.once('finish', () => request.raw.socket.destroy());
      }
      throw new HttpError(refusal.status, refusal.message);
    }
    if (request.method === 'OPTIONS') {
      return reply.code(204).header('allow', 'GET, HEAD, PUT, POST, DELETE').send();
    }
    return undefined;
  });
}
