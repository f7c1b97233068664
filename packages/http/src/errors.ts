import type { QueryMeta } from './meta.js';

const API_ERROR = Symbol.for('@sked/http/ApiError');
const CONFIG_ERROR = Symbol.for('@sked/http/ConfigError');

/**
 * What {@link ApiError} is constructed from.
 * @since 0.1.0
 */
export interface ApiErrorInit {
  /** HTTP status; `0` when no answer arrived (network failure). */
  readonly status: number;
  /** HTTP method of the request. */
  readonly method: string;
  /** URL of the request, already redacted. */
  readonly url: string;
  /** The error's message (the server's, or a sentence of ours). */
  readonly message: string;
  /**
   * The answer's body: parsed JSON when it is JSON, otherwise its text (redacted).
   * @defaultValue undefined
   */
  readonly body?: unknown;
  /**
   * Metadata read from the answer's headers.
   * @defaultValue `{}`
   */
  readonly meta?: QueryMeta;
  /**
   * The underlying error (network failures).
   * @defaultValue undefined
   */
  readonly cause?: unknown;
}

/**
 * A request that did not succeed: every non-2xx answer, a network failure (`status` 0), or a 2xx
 * answer that cannot be read (a body that is not JSON, an index beyond 2^53-1).
 *
 * @remarks
 * `message` is the server's own message: the text body, or for JSON bodies the `errors` array
 * (joined with `"; "`), `message` or `error` field. When the body is empty, a sentence naming the
 * status. Tokens never appear in `message`, `url` or `body`: the transport's token is replaced by
 * `[REDACTED]`, as are token-like query parameters. Aborts and timeouts are not wrapped: they
 * reject with the signal's reason (`AbortError` / `TimeoutError`).
 *
 * @example
 * ```ts
 * try {
 *   await transport.request({ method: 'GET', path: '/v1/job/nope' });
 * } catch (error) {
 *   if (ApiError.is(error) && error.status === 404) console.log(error.message); // "job not found"
 * }
 * ```
 * @since 0.1.0
 */
export class ApiError extends Error {
  /** Always `"ApiError"`. */
  override readonly name = 'ApiError' as const;
  /** HTTP status; `0` for a network failure. */
  readonly status: number;
  /** HTTP method of the request. */
  readonly method: string;
  /** Redacted URL of the request. */
  readonly url: string;
  /** Parsed JSON body, or its text; `undefined` when there was none. */
  readonly body: unknown;
  /** Metadata read from the answer's headers (empty for network failures). */
  readonly meta: QueryMeta;

  /**
   * Creates an ApiError.
   * @param init - Status, method, redacted URL, message, body, meta, cause.
   */
  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.method = init.method;
    this.url = init.url;
    this.body = init.body;
    this.meta = init.meta ?? {};
    Object.defineProperty(this, API_ERROR, { value: true });
  }

  /**
   * Whether a value is an ApiError, even one from another copy of this package.
   * @param value - Any value.
   * @returns `true` for an ApiError.
   */
  static is(value: unknown): value is ApiError {
    return (
      typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[API_ERROR] === true
    );
  }
}

/**
 * A transport option or environment variable that cannot be used, found by {@link createTransport}.
 *
 * @example
 * ```ts
 * createTransport({ address: 'localhost:4646' });
 * // ConfigError: The address "localhost:4646" (option address) is not an http:// or https:// URL.
 * ```
 * @since 0.1.0
 */
export class ConfigError extends Error {
  /** Always `"ConfigError"`. */
  override readonly name = 'ConfigError' as const;
  /** Where the value came from: an option name (`"tls.caFile"`) or a variable (`"SKED_CACERT"`). */
  readonly source: string;
  /** The offending value (never a token). */
  readonly value: string | undefined;

  /**
   * Creates a ConfigError.
   * @param message - A sentence quoting the value.
   * @param source - The option or environment variable.
   * @param value - The offending value.
   * @param options - The underlying error, if any.
   */
  constructor(message: string, source: string, value: string | undefined, options?: ErrorOptions) {
    super(message, options);
    this.source = source;
    this.value = value;
    Object.defineProperty(this, CONFIG_ERROR, { value: true });
  }

  /**
   * Whether a value is a ConfigError, even one from another copy of this package.
   * @param value - Any value.
   * @returns `true` for a ConfigError.
   */
  static is(value: unknown): value is ConfigError {
    return (
      typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CONFIG_ERROR] === true
    );
  }
}
