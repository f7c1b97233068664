/**
 * A typed client for the LDAP auth method of the secrets service: configuration, groups, users,
 * login, and the token self-lookup.
 *
 * See the package README for a walk-through.
 *
 * @packageDocumentation
 */

// Client
export { createSecretsClient, SECRETS_DEFAULT_ADDRESS, SECRETS_ENV_PREFIX } from './client.js';
export type { SecretsClient, SecretsClientDefaults, SecretsClientOptions, TokenApi } from './client.js';

// LDAP auth method
export type { LdapApi, LdapConfigApi, LdapGroupInput, LdapRecordsApi, LdapUserInput } from './ldap.js';
export type { CallOptions, RequestOptions, Result, SecretsMeta, TokenLookup } from './options.js';

// Errors
export { InvalidRequestError } from './errors.js';

// Types of @sked/model, re-exported for convenience
export type { LdapAuth, LdapConfig, LdapConfigRequest, LdapGroup, LdapUser } from '@sked/model';

// Re-exported from @sked/http, so that one import is enough
export { ApiError, ConfigError, createTransport } from '@sked/http';
export type { Transport, TransportDefaults, TransportOptions } from '@sked/http';
