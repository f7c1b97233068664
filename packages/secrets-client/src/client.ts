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
import type { CallOptions, TokenLookup } from './options.js';

/**
 * Options of {@link createSecretsClient}: the transport's (address, token, TLS, timeout, fetch) plus
 * the mount. Anything not given comes from the `SKED_SECRETS_*` environment variables
 * (`SKED_SECRETS_ADDR`, `SKED_SECRETS_TOKEN`, `SKED_SECRETS_CACERT`, ...), then from the defaults.
 * @since 0.1.0
 */
export interface SecretsClientOptions extends TransportOptions {
  /**
   * Where the LDAP auth method is mounted: `ldap` (meaning `auth/ldap`), `auth/corp-ldap`, ...
   * @defaultValue `"ldap"`
   */
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
  lookupSelf(this: void, options?: CallOptions): Promise<TokenLookup>;
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
   * Derives a client with other defaults (token, address, timeout, headers); this one is unchanged.
   * @param defaults - The defaults to change.
   * @returns A new client on the same mount.
   */
  withDefaults(this: void, defaults: TransportDefaults): SecretsClient;
}

function build(transport: Transport, mount: string): SecretsClient {
  return {
    transport,
    ldap: createLdapApi(transport, mount),
    token: {
      async lookupSelf(options) {
        const envelope = await call<TokenLookup>(transport, 'GET', '/v1/auth/token/lookup-self', options);
        if (envelope === undefined || !isObject(envelope.data)) {
          throw unusableAnswer('GET', '/v1/auth/token/lookup-self', 'a token (data)', envelope?.data);
        }
        return envelope.data;
      },
    },
    withDefaults: (defaults) => build(transport.withDefaults(defaults), mount),
  };
}

/**
 * Creates a client of the secrets service's LDAP auth method.
 *
 * @param options - Address, token, mount, TLS, timeout, fetch; or a transport of `@sked/http` plus
 *   an optional mount. Defaults: `SKED_SECRETS_ADDR` or `http://127.0.0.1:8200`,
 *   `SKED_SECRETS_TOKEN` sent as `X-Secrets-Token`, mount `ldap`.
 * @param mount - With a transport as first argument: the mount.
 * @returns The client.
 * @throws `ConfigError` for invalid options (an address that is not a URL, a TLS file that cannot be
 *   read); {@link InvalidRequestError} for a malformed mount.
 * @example
 * ```ts
 * import { createSecretsClient } from '@sked/secrets-client';
 *
 * const client = createSecretsClient({ address: 'http://127.0.0.1:8200', token: rootToken });
 * await client.ldap.config.write({ url: 'ldap://127.0.0.1:389', userdn: 'ou=people,dc=example,dc=org' });
 * const auth = await client.ldap.login('alice', 'her-password');
 * ```
 * @since 0.1.0
 */
export function createSecretsClient(
  options: SecretsClientOptions | Transport = {},
  mount?: string,
): SecretsClient {
  if (isTransport(options)) return build(options, mountPath(mount ?? 'ldap'));
  const { mount: optionMount, ...transportOptions } = options;
  const path = mountPath(optionMount ?? mount ?? 'ldap');
  const transport = createTransport({
    envPrefix: 'SKED_SECRETS_',
    tokenHeader: 'X-Secrets-Token',
    defaultAddress: 'http://127.0.0.1:8200',
    ...transportOptions,
  });
  return build(transport, path);
}
