/**
 * Makes Debian's `slapd` and `ldap-utils` available, installing them with apt when they are
 * missing and the machine allows it. Fails loudly with the reason otherwise: a test that needs a
 * directory never skips.
 */
import { ensureAptPackages, type AptRequirement } from '../apt.js';

/** The programs the throwaway directory needs, by absolute path. */
export const SLAPD_PROGRAMS = {
  slapd: '/usr/sbin/slapd',
  slaptest: '/usr/sbin/slaptest',
  ldapadd: '/usr/bin/ldapadd',
  ldapsearch: '/usr/bin/ldapsearch',
  openssl: '/usr/bin/openssl',
} as const;

const MODULES = ['/usr/lib/ldap/back_mdb.so', '/usr/lib/ldap/memberof.so'];

/** Error thrown when OpenLDAP cannot be had on this machine; the message says why. */
export class SlapdUnavailableError extends Error {
  /** Literal class name. */
  override readonly name = 'SlapdUnavailableError' as const;
}

const SLAPD: AptRequirement = {
  name: 'slapd',
  packages: ['slapd', 'ldap-utils', 'openssl'],
  paths: [...Object.values(SLAPD_PROGRAMS), ...MODULES],
  // No default database and no system service: the tests start their own throwaway servers.
  debconf: ['slapd slapd/no_configuration boolean true'],
};

/**
 * Makes sure `slapd`, `ldap-utils` and `openssl` are installed, with apt when they are missing
 * (as root: `debconf` no-configuration, then `apt-get install`, with one `apt-get update` when the
 * package lists are empty). Concurrent callers, in this process or others, install once.
 *
 * @returns When the programs are there.
 * @throws {@link SlapdUnavailableError} saying why when they cannot be had (not root, no network).
 */
export function ensureSlapd(): Promise<void> {
  return ensureAptPackages(SLAPD, (message, cause) =>
    cause === undefined ? new SlapdUnavailableError(message) : new SlapdUnavailableError(message, { cause }),
  );
}
