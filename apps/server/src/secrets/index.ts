/**
 * The secrets service: the LDAP auth method and its token store, on its own listener.
 *
 * @packageDocumentation
 */
export type { SecretsService, SecretsServiceOptions } from './service.js';
export { createSecretsService, parseMount } from './service.js';
export type { RunningSecrets, StartSecretsOptions } from './start.js';
export { startSecretsService } from './start.js';
export { checkRecordName } from './routes.js';
export { DEFAULT_SETTINGS as DEFAULT_LDAP_SETTINGS } from './config.js';
export { createMemorySecretsStore } from './store.js';
export type { TokenLookup } from './tokens.js';
export type { GroupRecord, RecordTable, SecretsStore, TokenRecord, TokenTable, UserRecord } from './store.js';
