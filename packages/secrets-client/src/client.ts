import {
  createTransport,
  isObject,
  isTransport,
  unusableAnswer,
  type Transport,
  type TransportDefaults,
  type TransportOptions,
} from '@sked/http';

import { call } from './internal/envelope.js';
import { mountPath } from './internal/names.js';
import { createLdapApi, type LdapApi } from './ldap.js';
import type { RequestOptions, Result, TokenLookup } from './options.js';

/** Default address of the secrets service. */
export const SECRETS_DEFAULT_ADDRESS = 'http://127.0.0.1:8200';
/** Prefix of the environment variables the secrets client reads (`SKED_SECRETS_ADDR`, ...). */
export const SECRETS_ENV_PREFIX = 'SKED_SECRETS_';

/**
 * Options of {@link createSecretsClient}: address, token, TLS, timeout, size limit, fetch, headers,
 * env, log, and the mount. Anything not given comes from the `SKED_SECRETS_*` environment variables
 * (`SKED_SECRETS_ADDR`, `SKED_SECRETS_TOKEN`, `SKED_SECRETS_CACERT`, ...), then from the defaults.
 * The secrets service has no namespace or region parameter, so they are not options.
 * @since 0.1.0
 */
export interface SecretsClientOptions extends Omit<
  TransportOptions,
  'namespace' | 'region' | 'envPrefix' | 'defaultAddress'
> {
  /**
   * Where the LDAP auth method is mounted: `ldap` (meaning `auth/ldap`), `auth/corp-ldap`, ...
   * @defaultValue `"ldap"`
   */
  readonly mount?: string | undefined;
}

/**
 * Defaults a derived client applies (see {@link SecretsClient.withDefaults}): the transport's, and
 * the mount.
 * @since 0.2.0
 */
export interface SecretsClientDefaults extends Omit<
  TransportDefaults,
  'namespace' | 'region' | 'defaultAddress'
> {
  /** Where the LDAP auth method is mounted. */
  readonly mount?: string | undefined;
}

/**
 * Token endpoints (`client.token`).
 * @since 0.1.0
 */
export interface TokenApi {
  /**
   * `GET /v1/auth/token/lookup-self`: what the client's token is (counts as one use of it).
   * @param options - Signal, timeout.
   * @returns The token's policies, metadata, TTL and expiry.
   * @throws `ApiError` 403 `permission denied` for a missing, unknown or expired token.
   */
  lookupSelf(this: void, options?: RequestOptions): Promise<Result<TokenLookup>>;
}

/**
 * A client of the secrets service's LDAP auth method: plain objects of functions, so
 * `const { login } = client.ldap` works.
 * @since 0.1.0
 */
export interface SecretsClient {
  /** The transport every call goes through. */
  readonly transport: Transport;
  /** The LDAP auth method. */
  readonly ldap: LdapApi;
  /** The token store. */
  readonly token: TokenApi;
  /**
   * Derives a client with other defaults (token, address, timeout, headers, mount); this one is
   * unchanged.
   * @param defaults - The defaults to change.
   * @returns A new client (on the same mount unless `mount` is given).
   */
  withDefaults(this: void, defaults: SecretsClientDefaults): SecretsClient;
}

function build(transport: Transport, mount: string): SecretsClient {
  return {
    transport,
    ldap: createLdapApi(transport, mount),
    token: {
      async lookupSelf(options) {
        const path = '/v1/auth/token/lookup-self';
        const { envelope, meta } = await call<TokenLookup>(transport, 'GET', path, options);
        if (!isObject(envelope?.data)) throw unusableAnswer('GET', path, 'a token (data)', envelope?.data);
        return { data: envelope.data as TokenLookup, meta };
      },
    },
    withDefaults: ({ mount: next, ...defaults }) =>
      build(transport.withDefaults(defaults), next === undefined ? mount : mountPath(next)),
  };
}

/**
 * Creates a client of the secrets service's LDAP auth method.
 *
 * @param options - Address, token, mount, TLS, timeout, fetch; or a transport of `@sked/http`
 *   (mount `ldap`; `withDefaults({ mount })` changes it). Defaults: `SKED_SECRETS_ADDR` or
 *   `http://127.0.0.1:8200`, `SKED_SECRETS_TOKEN` sent as `X-Secrets-Token`, mount `ldap`.
 * @returns The client.
 * @throws `ConfigError` for invalid options (an address that is not a URL, a TLS file that cannot be
 *   read); {@link InvalidRequestError} for a malformed mount.
 * @example
 * ```ts
 * import { createSecretsClient } from '@sked/secrets-client';
 *
 * const client = createSecretsClient({ address: 'http://127.0.0.1:8200', token: rootToken });
 * await client.ldap.config.write({ url: 'ldap://127.0.0.1:389', userdn: 'ou=people,dc=example,dc=org' });
 * const { data: auth } = await client.ldap.login('alice', 'her-password');
 * ```
 * @since 0.1.0
 */
export function createSecretsClient(options: SecretsClientOptions | Transport = {}): SecretsClient {
  if (isTransport(options)) return build(options, mountPath('ldap'));
  const { mount, ...transportOptions } = options;
  const path = mountPath(mount ?? 'ldap');
  const transport = createTransport({
    tokenHeader: 'X-Secrets-Token',
    ...transportOptions,
    envPrefix: SECRETS_ENV_PREFIX,
    defaultAddress: SECRETS_DEFAULT_ADDRESS,
  });
  return build(transport, path);
}
