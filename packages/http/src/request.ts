/** One request of a transport: its URL, headers, body, timeout, the fetch, and its failures. */

import { describeCause, isRawBody, readAnswer } from './answer.js';
import type { FetchInit, FetchLike, TransportConfig } from './config.js';
import type { TlsFetch } from './tls-fetch.js';
import { ApiError } from './errors.js';
import { defaultFetch } from '#platform';
import type { ApiResponse, Query, QueryValue, RequestOptions } from './transport.js';

/** The absolute URL of a request as a string (cheaper than building a URL object each time). */
export function requestHref(config: TransportConfig, path: string, query: Query = {}): string {
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new TypeError(`A request path must start with "/", got ${JSON.stringify(path)}.`);
  }
  const search = new URLSearchParams();
  const add = (name: string, value: QueryValue): void => {
    if (value === undefined || value === null || value === false) return;
    if (Array.isArray(value)) {
      for (const item of value as readonly (string | number)[]) search.append(name, String(item));
    } else {
      search.append(name, String(value));
    }
  };
  // A parameter given as `undefined` is not given: the default applies (`null` leaves it out).
  if (config.namespace !== undefined && query['namespace'] === undefined) add('namespace', config.namespace);
  if (config.region !== undefined && query['region'] === undefined) add('region', config.region);
  for (const name in query) add(name, query[name]);
  const text = search.toString();
  if (text === '') return config.address + path;
  return `${config.address}${path}${path.includes('?') ? '&' : '?'}${text}`;
}

/** The token header of a transport (`Bearer` for `Authorization`), or none without a token. */
export function tokenHeaders(config: TransportConfig): Record<string, string> {
  if (config.token === undefined) return {};
  return config.tokenHeader.toLowerCase() === 'authorization'
    ? { [config.tokenHeader]: `Bearer ${config.token}` }
    : { [config.tokenHeader]: config.token };
}

/** What every request of one transport shares. */
export interface RequestContext {
  readonly config: TransportConfig;
  readonly redact: (text: string) => string;
  /** Header names in lower case, so that later layers replace earlier ones whatever their case. */
  readonly baseHeaders: Readonly<Record<string, string>>;
  /** The caller's fetch; absent: Node's global fetch, or undici's with TLS settings. */
  readonly fetch: FetchLike | undefined;
  /** The TLS side (undici's dispatcher and fetch), loaded on the first request. */
  readonly tls: (() => Promise<TlsFetch>) | undefined;
  readonly log: ((line: string) => void) | undefined;
}

/** The headers and body of a request: JSON unless the body is already raw. */
function outgoing(
  req: RequestOptions,
  baseHeaders: Readonly<Record<string, string>>,
): { headers: Record<string, string>; body: RequestInit['body'] } {
  const headers: Record<string, string> = { ...baseHeaders };
  let body: RequestInit['body'];
  if (req.body !== undefined) {
    if (isRawBody(req.body)) body = req.body as RequestInit['body'];
    else {
      body = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
  }
  if (req.headers !== undefined) {
    for (const name in req.headers) headers[name.toLowerCase()] = req.headers[name] as string;
  }
  return { headers, body };
}

/** The request's signal joined with its timeout (whose message is built only when it fires). */
function withTimeout(
  given: AbortSignal | undefined,
  timeout: number,
  message: () => string,
): { signal: AbortSignal | undefined; stop: () => void } {
  let handle: ReturnType<typeof setTimeout> | undefined;
  let signal = given;
  if (timeout > 0) {
    const timer = new AbortController();
    handle = setTimeout(() => {
      timer.abort(new DOMException(message(), 'TimeoutError'));
    }, timeout);
    signal = signal === undefined ? timer.signal : AbortSignal.any([signal, timer.signal]);
  }
  const stop = (): void => {
    if (handle !== undefined) clearTimeout(handle);
    handle = undefined;
  };
  return { signal, stop };
}

/** The `request` function of a transport. */
export function createRequest(context: RequestContext): <T>(req: RequestOptions) => Promise<ApiResponse<T>> {
  const { config, redact, tls, fetch: fetchImpl } = context;
  return async <T>(req: RequestOptions): Promise<ApiResponse<T>> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const target = requestHref(config, req.path, req.query);
    let shownUrl: string | undefined;
    /** The redacted URL, computed only when a message or log line needs it. */
    const shown = (): string => (shownUrl ??= redact(target));
    const parse = req.parse ?? 'json';
    const timeout = req.timeout ?? config.timeout;
    const started = Date.now();
    const log = (outcome: string): void => {
      if (context.log !== undefined)
        context.log(redact(`${method} ${shown()} ${outcome} (${Date.now() - started} ms)`));
    };

    const { headers, body } = outgoing(req, context.baseHeaders);
    const { signal, stop } = withTimeout(
      req.signal,
      timeout,
      () => `The request ${method} ${shown()} timed out after ${timeout} ms.`,
    );

    const fail = (error: unknown): never => {
      stop();
      if (signal?.aborted === true) {
        log(`aborted: ${String((signal.reason as Error | undefined)?.name ?? 'AbortError')}`);
        throw signal.reason;
      }
      const name = (error as { name?: unknown } | null)?.name;
      if (ApiError.is(error)) throw error;
      if (name === 'AbortError' || name === 'TimeoutError') {
        log(`failed: ${String(name)}`);
        throw error;
      }
      const reason = describeCause(error);
      log(`failed: ${reason}`);
      throw new ApiError({
        status: 0,
        method,
        url: shown(),
        message: redact(`The request ${method} ${shown()} failed before an answer arrived: ${reason}.`),
        cause: error,
      });
    };

    let response: Response;
    try {
      const init: FetchInit = { method, headers, redirect: 'manual' };
      if (signal !== undefined) init.signal = signal;
      if (body !== undefined) init.body = body;
      if (body instanceof ReadableStream) init.duplex = 'half';
      const secure = tls === undefined ? undefined : await tls();
      if (secure !== undefined) init.dispatcher = secure.dispatcher;
      response = await (fetchImpl ?? secure?.fetch ?? defaultFetch)(target, init);
    } catch (error) {
      return fail(error);
    }

    try {
      const maxBytes = req.maxBytes ?? config.maxResponseBytes;
      return await readAnswer<T>(response, { method, parse, shown, redact, stop, log, maxBytes });
    } catch (error) {
      return fail(error);
    }
  };
}
