/**
 * The transport: its public types, {@link createTransport} and the wiring of one transport. A request
 * is made in `request.ts`; its answer is read in `answer.ts`.
 */

import {
  type ConfigInput,
  type FetchLike,
  resolveConfig,
  type TransportConfig,
  type TransportOptions,
} from './config.js';
import { redactText, redactUrl } from './redact.js';
import { lazyTlsFetch, type TlsFetch } from './tls-fetch.js';
import { createRequest, requestHref, tokenHeaders } from './request.js';
import type { QueryMeta } from './meta.js';

/**
 * One query-string value: arrays repeat the parameter; `undefined`, `null` and `false` leave it out;
 * `true` is sent as `true`.
 * @since 0.1.0
 */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

/**
 * Query-string parameters of a request.
 * @since 0.1.0
 */
export type Query = Readonly<Record<string, QueryValue>>;

/**
 * How {@link Transport.request} reads a successful answer.
 * - `json` (default): parsed JSON, or `undefined` for an empty body;
 * - `text`: the body as a string;
 * - `stream`: the body as a `ReadableStream<Uint8Array>`, unread (event stream); cancel it when done.
 * @since 0.1.0
 */
export type ParseMode = 'json' | 'text' | 'stream';

/**
 * One request.
 * @since 0.1.0
 */
export interface RequestOptions {
  /**
   * HTTP method.
   * @defaultValue `"GET"`
   */
  readonly method?: string | undefined;
  /** Path after the base address, starting with `/`, such as `/v1/jobs`. */
  readonly path: string;
  /**
   * Query-string parameters; `namespace` and `region` default to the transport's.
   * @defaultValue none
   */
  readonly query?: Query | undefined;
  /**
   * Body: a string, bytes or stream is sent as is; anything else as JSON.
   * @defaultValue no body
   */
  readonly body?: unknown;
  /**
   * Headers of this request (over the transport's).
   * @defaultValue none
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Aborts the request; the promise rejects with the signal's reason, unwrapped.
   * @defaultValue never aborted
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Timeout of this request in milliseconds (`0`: none); rejects with a `TimeoutError` `DOMException`.
   * @defaultValue the transport's `timeout`
   */
  readonly timeout?: number | undefined;
  /**
   * How to read a successful answer.
   * @defaultValue `"json"`
   */
  readonly parse?: ParseMode | undefined;
  /**
   * Most bytes of this answer's body to read (`0`: no limit); a larger answer rejects with an
   * {@link ApiError} and the rest is not read. Not applied with `parse: 'stream'`.
   * @defaultValue the transport's `maxResponseBytes`
   */
  readonly maxBytes?: number | undefined;
}

/**
 * A successful answer: the data and the metadata of its headers.
 * @typeParam T - The data's type.
 * @since 0.1.0
 */
export interface ApiResponse<T> {
  /** The body, read according to the parse mode. */
  readonly data: T;
  /** Index, last contact, known leader and next token. */
  readonly meta: QueryMeta;
}

/**
 * Options {@link Transport.withDefaults} may change.
 * @since 0.1.0
 */
export type TransportDefaults = Omit<TransportOptions, 'env' | 'envPrefix'>;

/**
 * The transport options a client of a service without namespaces or regions accepts: the client
 * sets its own environment prefix and default address.
 * @since 0.2.0
 */
export type ServiceOptions = Omit<TransportOptions, 'namespace' | 'region' | 'envPrefix' | 'defaultAddress'>;

/**
 * What `withDefaults` of such a client may change.
 * @since 0.2.0
 */
export type ServiceDefaults = Omit<TransportDefaults, 'namespace' | 'region' | 'defaultAddress'>;

/**
 * A configured HTTP client for one service. Plain object: its methods can be destructured.
 * @since 0.1.0
 */
export interface Transport {
  /** The resolved configuration (address, token header, namespace, region, TLS material). */
  readonly config: TransportConfig;
  /**
   * Sends one request.
   * @typeParam T - The expected data type (not validated).
   * @param options - Method, path, query, body, headers, signal, timeout, parse mode.
   * @returns The data and its metadata.
   * @throws {@link ApiError} for every non-2xx answer, for a network failure (status 0) and for a
   * 2xx answer that cannot be read; the signal's reason (`AbortError`, `TimeoutError`) unwrapped.
   */
  readonly request: <T = unknown>(options: RequestOptions) => Promise<ApiResponse<T>>;
  /**
   * Derives a transport with other defaults; this one is unchanged.
   * @param defaults - Options that replace this transport's (`tls` replaces it as a whole).
   * @returns The new transport.
   * @throws {@link ConfigError} when a new option is invalid.
   */
  readonly withDefaults: (defaults: TransportDefaults) => Transport;
  /**
   * Builds the absolute URL of a path with the default namespace and region (without the token),
   * as a request would use it. For WebSockets, change the protocol to `ws:`/`wss:`.
   * @param path - Path starting with `/`.
   * @param query - Query-string parameters.
   * @returns The URL.
   * @throws TypeError when `path` does not start with `/`.
   */
  readonly url: (path: string, query?: Query) => URL;
  /**
   * Headers that carry the token (empty without a token): for WebSocket handshakes.
   * @returns A new record, such as `{ "X-Svc-Token": "..." }`.
   */
  readonly authHeaders: () => Record<string, string>;
  /**
   * Removes this transport's token (and token-like URL parameters) from a text or URL.
   * @param text - Any text or URL.
   * @returns The text with secrets replaced by `[REDACTED]`.
   */
  readonly redact: (text: string) => string;
}

interface Setup {
  readonly input: ConfigInput;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly prefix: string;
  readonly fetch: FetchLike | undefined;
  readonly log: ((line: string) => void) | undefined;
  /** The TLS side, loaded on first use (shared by the transports `withDefaults` derives). */
  readonly tls: (() => Promise<TlsFetch>) | undefined;
}

/**
 * Whether a value is a {@link Transport} (an object with `request` and `withDefaults` functions),
 * for client factories that take a transport or the options to create one.
 * @param value - Anything.
 * @returns `true` for a transport.
 * @since 0.1.0
 */
export function isTransport(value: unknown): value is Transport {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { request?: unknown }).request === 'function' &&
    typeof (value as { withDefaults?: unknown }).withDefaults === 'function'
  );
}

/**
 * Creates a transport: the HTTP layer shared by the service clients.
 *
 * @remarks
 * Every request gets the base address, `Accept: application/json`, `Accept-Encoding: gzip` (fetch
 * decompresses), the token header, and `namespace`/`region` unless it names them. Redirects are not
 * followed (a token must not travel to another host): a 3xx is an {@link ApiError}. Nothing is
 * retried: a 5xx is not expected to succeed on retry.
 *
 * @param options - Address, token, TLS, defaults; each falls back to `SKED_*` environment variables.
 * @returns The transport.
 * @throws {@link ConfigError} for an address that is not an http(s) URL, an unreadable CA,
 * certificate or key file, a certificate without its key, an invalid `SKED_SKIP_VERIFY`, a bad
 * timeout or token header.
 * @example
 * ```ts
 * const transport = createTransport({ address: 'http://127.0.0.1:4646', namespace: 'default' });
 * const { data, meta } = await transport.request<unknown[]>({ path: '/v1/jobs', query: { per_page: 10 } });
 * console.log(data.length, meta.index, meta.nextToken);
 * ```
 * @since 0.1.0
 */
export function createTransport(options: TransportOptions = {}): Transport {
  const envOption = options.env;
  const env = envOption === false ? {} : (envOption ?? processEnv());
  const input: ConfigInput = { ...options };
  return build({
    input,
    env: { ...env },
    prefix: options.envPrefix ?? 'SKED_',
    fetch: options.fetch,
    log: options.log,
    tls: undefined,
  });
}

/** Node's environment; a browser has none (no `process`), so nothing is read there. */
function processEnv(): Readonly<Record<string, string | undefined>> {
  return typeof process === 'undefined' ? {} : process.env;
}

function build(setup: Setup): Transport {
  const config = resolveConfig(setup.input, setup.env, setup.prefix);
  const tls = setup.tls ?? (config.tls === undefined ? undefined : lazyTlsFetch(config.tls));
  const secrets = [config.token];
  const redact = (text: string): string =>
    /^[a-z][a-z0-9+.-]*:\/\/\S*$/i.test(text) ? redactUrl(text, secrets) : redactText(text, secrets);

  const url = (path: string, query?: Query): URL => new URL(requestHref(config, path, query));
  const authHeaders = (): Record<string, string> => tokenHeaders(config);

  // Header names in lower case, so that later layers replace earlier ones whatever their case.
  const baseHeaders: Record<string, string> = { accept: 'application/json', 'accept-encoding': 'gzip' };
  for (const [name, value] of Object.entries({ ...config.headers, ...authHeaders() })) {
    baseHeaders[name.toLowerCase()] = value;
  }

  const request = createRequest({
    config,
    redact,
    baseHeaders,
    fetch: setup.fetch,
    tls,
    log: setup.log,
  });

  return {
    config,
    request,
    withDefaults(defaults) {
      const keepDispatcher = defaults.tls === undefined && !('tls' in defaults);
      return build({
        input: { ...setup.input, ...defaults },
        env: setup.env,
        prefix: setup.prefix,
        fetch: 'fetch' in defaults ? defaults.fetch : setup.fetch,
        log: 'log' in defaults ? defaults.log : setup.log,
        tls: keepDispatcher ? tls : undefined,
      });
    },
    url,
    authHeaders,
    redact,
  };
}
