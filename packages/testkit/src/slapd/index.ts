/**
 * Throwaway OpenLDAP servers for tests (`@sked/testkit/slapd`).
 *
 * @packageDocumentation
 */
export { startSlapd } from './slapd.js';
export type { Slapd, StartSlapdOptions } from './slapd.js';
export { ensureSlapd, SlapdUnavailableError, SLAPD_PROGRAMS } from './install.js';
export { slapdCertificates } from './certs.js';
export type { SlapdCertificates } from './certs.js';
export {
  SLAPD_BASE_DN,
  SLAPD_GROUPS,
  SLAPD_GROUPS_DN,
  SLAPD_PEOPLE_DN,
  SLAPD_READER,
  SLAPD_ROOT_DN,
  SLAPD_ROOT_PASSWORD,
  SLAPD_STAFF_DN,
  SLAPD_UPN_DOMAIN,
  SLAPD_USERS,
} from './directory.js';
export type { SlapdGroup, SlapdUser } from './directory.js';
