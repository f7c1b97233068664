import { parseGoBool } from '@sked/model';

import { readTextFile } from '#platform';

import { DEFAULT_MAX_RESPONSE_BYTES } from './bounded.js';
import { ConfigError } from './errors.js';
import { REDACTED } from './redact.js';

/**
 * TLS settings of a transport. Files are read once, when the transport is created.
 * @since 0.1.0
 */
export interface TlsOptions {
  /**
   * Path of a PEM file with the CA certificate(s) to trust (env `<prefix>CACERT`).
   * @defaultValue the system's trusted CAs
   */
  readonly caFile?: string | undefined;
  /**
   * Path of the PEM client certificate for mutual TLS (env `<prefix>CLIENT_CERT`); needs `keyFile`.
   * @defaultValue no client certificate
   */
  readonly certFile?: string | undefined;
  /**
   * Path of the PEM private key of the client certificate (env `<prefix>CLIENT_KEY`); needs `certFile`.
   * @defaultValue no client certificate
   */
  readonly keyFile?: string | undefined;
  /**
   * Accept any server certificate (env `<prefix>SKIP_VERIFY`: `true`/`1`/`false`/`0`). For tests only.
   * @defaultValue false
   */
  readonly skipVerify?: boolean | undefined;
  /**
   * PEM text of the CA certificate(s), instead of `caFile`.
   * @defaultValue none
   */
  readonly ca?: string | undefined;
  /**
   * PEM text of the client certificate, instead of `certFile`.
   * @defaultValue none
   */
  readonly cert?: string | undefined;
  /**
   * PEM text of the client key, instead of `keyFile`.
   * @defaultValue none
   */
  readonly key?: string | undefined;
}

/**
 * A `fetch`-compatible function (Node's global `fetch`, undici's, or a test double).
 * @since 0.1.0
 */
export type FetchLike = (input: string, init: FetchInit) => Promise<Response>;

/**
 * The init a transport passes to its fetch: a `RequestInit` plus undici's `dispatcher` (set only
 * when TLS options are configured) and `duplex` for streamed bodies.
 * @since 0.1.0
 */
export type FetchInit = Omit<RequestInit, 'dispatcher'> & {
  /** undici dispatcher carrying the TLS settings (absent without TLS options). */
  dispatcher?: unknown;
  /** `"half"` when the body is a stream, as fetch requires. */
  duplex?: 'half';
};

/**
 * Options of {@link createTransport}. Every field falls back to a `SKED_*` environment variable
 * (with {@link TransportOptions.envPrefix}), then to a default.
 * @since 0.1.0
 */
export interface TransportOptions {
  /**
   * Base address, such as `https://sched.example:4646` (env `<prefix>ADDR`). A path is kept as a prefix.
   * @defaultValue `defaultAddress`
   */
  readonly address?: string | undefined;
  /**
   * Token sent with every request (env `<prefix>TOKEN`).
   * @defaultValue no token
   */
  readonly token?: string | undefined;
  /**
   * Header that carries the token: `X-Svc-Token`, `X-Secrets-Token`, `X-Mesh-Token`, or
   * `Authorization` (sent as `Bearer <token>`).
   * @defaultValue `"X-Svc-Token"`
   */
  readonly tokenHeader?: string | undefined;
  /**
   * Namespace added as a query parameter to requests that do not name one (env `<prefix>NAMESPACE`).
   * @defaultValue none (the server's default namespace)
   */
  readonly namespace?: string | undefined;
  /**
   * Region added as a query parameter to requests that do not name one (env `<prefix>REGION`).
   * @defaultValue none (the server's region)
   */
  readonly region?: string | undefined;
  /**
   * TLS: CA file, client certificate and key, skip-verify (env `<prefix>CACERT`,
   * `<prefix>CLIENT_CERT`, `<prefix>CLIENT_KEY`, `<prefix>SKIP_VERIFY`).
   * @defaultValue system CAs, no client certificate, verification on
   */
  readonly tls?: TlsOptions | undefined;
  /**
   * The fetch to call. When TLS options are set, the transport passes an undici `dispatcher` in
   * the init; a custom fetch must honour it to use them.
   * @defaultValue Node's global `fetch`, or undici's own `fetch` when TLS options need a dispatcher
   */
  readonly fetch?: FetchLike | undefined;
  /**
   * Headers added to every request.
   * @defaultValue none
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Timeout per request in milliseconds (`0`: none). Covers the whole exchange, except for
   * `parse: 'stream'`, where it ends once the headers arrived.
   * @defaultValue 0
   */
  readonly timeout?: number | undefined;
  /**
   * Most bytes of an answer's body to read, after decompression (`0`: no limit). A larger answer
   * (by its `Content-Length` or as it arrives) rejects with an {@link ApiError} and the rest is not
   * read. Not applied to `parse: 'stream'` bodies, which the caller reads.
   * @defaultValue 67108864 (64 MiB)
   */
  readonly maxResponseBytes?: number | undefined;
  /**
   * Environment to read, or `false` to ignore the environment.
   * @defaultValue `process.env`
   */
  readonly env?: Readonly<Record<string, string | undefined>> | false | undefined;
  /**
   * Prefix of the environment variables: `SKED_SECRETS_` reads `SKED_SECRETS_ADDR`, ...
   * @defaultValue `"SKED_"`
   */
  readonly envPrefix?: string | undefined;
  /**
   * Address used when neither the option nor the environment gives one.
   * @defaultValue `"http://127.0.0.1:4646"`
   */
  readonly defaultAddress?: string | undefined;
  /**
   * Receives one line per request, after it ends: method, redacted URL, status (or the error), time.
   * @defaultValue no logging
   */
  readonly log?: ((line: string) => void) | undefined;
}

/**
 * TLS material of a transport after its files were read: what a WebSocket or another HTTPS client
 * needs to connect the same way.
 * @since 0.1.0
 */
export interface ResolvedTls {
  /** PEM CA certificate(s) to trust, when configured. */
  readonly ca?: string;
  /** PEM client certificate, when configured. */
  readonly cert?: string;
  /** PEM client key, when configured. */
  readonly key?: string;
  /** `false` when server certificates are not verified (`skipVerify`). */
  readonly rejectUnauthorized: boolean;
}

/**
 * The resolved configuration of a transport (options over environment over defaults).
 *
 * @remarks
 * `token` is a non-enumerable property, so logging or `JSON.stringify`-ing the configuration does
 * not print it; read it explicitly when a connection needs it (the exec WebSocket).
 * @since 0.1.0
 */
export interface TransportConfig {
  /** Base address without a trailing slash, for example `http://127.0.0.1:4646`. */
  readonly address: string;
  /** The token, when one is configured (non-enumerable). */
  readonly token?: string;
  /** Header that carries the token: `X-Svc-Token` by default, or `Authorization` (Bearer scheme). */
  readonly tokenHeader: string;
  /** Namespace added as `namespace` to every request that does not name one. */
  readonly namespace?: string;
  /** Region added as `region` to every request that does not name one. */
  readonly region?: string;
  /** TLS material, or `undefined` when no TLS option is set (system CAs apply to https). */
  readonly tls?: ResolvedTls;
  /** Headers added to every request. */
  readonly headers: Readonly<Record<string, string>>;
  /** Default timeout per request in milliseconds; `0` means none. */
  readonly timeout: number;
  /** Most bytes of an answer's body the transport reads; `0` means no limit. */
  readonly maxResponseBytes: number;
}

/** Options that {@link resolveConfig} reads. @internal */
export type ConfigInput = Pick<
  TransportOptions,
  | 'address'
  | 'token'
  | 'tokenHeader'
  | 'namespace'
  | 'region'
  | 'tls'
  | 'headers'
  | 'timeout'
  | 'maxResponseBytes'
  | 'defaultAddress'
>;

/** The address when nothing gives one: the scheduling service's, written once. @since 0.1.0 */
export const DEFAULT_ADDRESS: string = 'http://127.0.0.1:4646';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Resolves options over `<prefix>*` environment variables over defaults, reading TLS files.
 * @internal
 */
export function resolveConfig(
  input: ConfigInput,
  env: Readonly<Record<string, string | undefined>>,
  prefix: string,
): TransportConfig {
  const pick = (
    option: string,
    value: string | undefined,
    variable: string,
  ): [string | undefined, string] => {
    if (value !== undefined) return [value, `option ${option}`];
    const fromEnv = env[prefix + variable];
    return fromEnv === undefined || fromEnv === '' ? [undefined, ''] : [fromEnv, prefix + variable];
  };

  const [rawAddress, addressSource] = pick('address', input.address, 'ADDR');
  const address = parseAddress(
    rawAddress ?? input.defaultAddress ?? DEFAULT_ADDRESS,
    addressSource || 'option defaultAddress',
  );
  const [token] = pick('token', input.token, 'TOKEN');
  const tokenHeader = input.tokenHeader ?? 'X-Svc-Token';
  if (!HEADER_NAME.test(tokenHeader)) {
    throw new ConfigError(
      `The token header ${JSON.stringify(tokenHeader)} (option tokenHeader) is not a valid header name.`,
      'option tokenHeader',
      tokenHeader,
    );
  }
  if (token !== undefined && /[\r\n\0]/.test(token)) {
    throw new ConfigError(
      'The token contains a line break or NUL character, which a header cannot carry.',
      'token',
      undefined,
    );
  }
  const [namespace] = pick('namespace', input.namespace, 'NAMESPACE');
  const [region] = pick('region', input.region, 'REGION');

  const tlsIn = input.tls ?? {};
  const [caFile, caSource] = pick('tls.caFile', tlsIn.caFile, 'CACERT');
  const [certFile, certSource] = pick('tls.certFile', tlsIn.certFile, 'CLIENT_CERT');
  const [keyFile, keySource] = pick('tls.keyFile', tlsIn.keyFile, 'CLIENT_KEY');
  let skipVerify = tlsIn.skipVerify;
  if (skipVerify === undefined) {
    const raw = env[`${prefix}SKIP_VERIFY`];
    if (raw !== undefined && raw !== '') skipVerify = parseBool(raw, `${prefix}SKIP_VERIFY`);
  }
  const ca = tlsIn.ca ?? (caFile === undefined ? undefined : readPem(caFile, caSource, 'CA certificate'));
  const cert =
    tlsIn.cert ?? (certFile === undefined ? undefined : readPem(certFile, certSource, 'client certificate'));
  const key = tlsIn.key ?? (keyFile === undefined ? undefined : readPem(keyFile, keySource, 'client key'));
  if (cert !== undefined && key === undefined) {
    throw new ConfigError(
      `A client certificate was given (${certSource || 'option tls.cert'}) without a client key (option tls.keyFile or ${prefix}CLIENT_KEY); mutual TLS needs both.`,
      certSource || 'option tls.cert',
      undefined,
    );
  }
  if (key !== undefined && cert === undefined) {
    throw new ConfigError(
      `A client key was given (${keySource || 'option tls.key'}) without a client certificate (option tls.certFile or ${prefix}CLIENT_CERT); mutual TLS needs both.`,
      keySource || 'option tls.key',
      undefined,
    );
  }

  const timeout = input.timeout ?? 0;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout < 0) {
    throw new ConfigError(
      `The timeout ${String(timeout)} (option timeout) must be a non-negative number of milliseconds.`,
      'option timeout',
      String(timeout),
    );
  }

  const maxResponseBytes = input.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(maxResponseBytes) || maxResponseBytes < 0) {
    throw new ConfigError(
      `The limit ${String(maxResponseBytes)} (option maxResponseBytes) must be a non-negative whole number of bytes.`,
      'option maxResponseBytes',
      String(maxResponseBytes),
    );
  }

  const config: Record<string, unknown> = {
    address,
    tokenHeader,
    headers: { ...input.headers },
    timeout,
    maxResponseBytes,
  };
  if (namespace !== undefined) config['namespace'] = namespace;
  if (region !== undefined) config['region'] = region;
  if (ca !== undefined || cert !== undefined || skipVerify !== undefined) {
    const tls: Record<string, unknown> = { rejectUnauthorized: skipVerify !== true };
    if (ca !== undefined) tls['ca'] = ca;
    if (cert !== undefined) tls['cert'] = cert;
    if (key !== undefined) tls['key'] = key;
    config['tls'] = tls;
  }
  if (token !== undefined) {
    Object.defineProperty(config, 'token', { value: token, enumerable: false });
  }
  return config as unknown as TransportConfig;
}

function parseAddress(raw: string, source: string): string {
  // Quote the address without credentials, even in the error for a malformed one.
  const shown = raw.replace(/\/\/[^/?#]*@/, `//${REDACTED}@`);
  const notHttp = (cause?: unknown): ConfigError =>
    new ConfigError(
      `The address ${JSON.stringify(shown)} (${source}) is not an http:// or https:// URL.`,
      source,
      shown,
      cause === undefined ? undefined : { cause },
    );
  let url: URL;
  try {
    url = new URL(raw);
  } catch (cause) {
    throw notHttp(cause);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw notHttp();
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    const bare = `${url.protocol}//${url.host}${url.pathname}`;
    throw new ConfigError(
      `The address ${JSON.stringify(bare)} (${source}) must not carry credentials, a query or a fragment.`,
      source,
      bare,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function parseBool(raw: string, source: string): boolean {
  const parsed = parseGoBool(raw.trim());
  if (parsed !== undefined) return parsed;
  throw new ConfigError(
    `${source} must be a boolean (true, false, 1, 0, t, f), got ${JSON.stringify(raw)}.`,
    source,
    raw,
  );
}

function readPem(file: string, source: string, what: string): string {
  let text: string;
  try {
    text = readTextFile(file);
  } catch (cause) {
    const code = (cause as { code?: string }).code ?? 'error';
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EBROWSER' ? 'a browser cannot read files' : code;
    throw new ConfigError(
      `Could not read the ${what} file ${JSON.stringify(file)} (${source}): ${reason}.`,
      source,
      file,
      { cause },
    );
  }
  if (!text.includes('-----BEGIN ')) {
    throw new ConfigError(
      `The ${what} file ${JSON.stringify(file)} (${source}) holds no PEM block.`,
      source,
      file,
    );
  }
  return text;
}
