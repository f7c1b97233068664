/**
 * A throwaway OpenLDAP server for tests: Debian's `slapd` started in the foreground on free ports
 * of 127.0.0.1 (plain LDAP with StartTLS, and LDAPS), loaded with {@link initialLdif}, stopped
 * with {@link Slapd.stop} (and killed when the process exits).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../net.js';
import { slapdCertificates, type SlapdCertificates } from './certs.js';
import * as directory from './directory.js';
import type { SlapdGroup, SlapdUser } from './directory.js';
import { SLAPD_PROGRAMS, SlapdUnavailableError, ensureSlapd } from './install.js';

const run = promisify(execFile);

/** Options of {@link startSlapd}. */
export interface StartSlapdOptions {
  /**
   * Refuse TLS clients without a certificate signed by the test CA (`TLSVerifyClient demand`).
   * @defaultValue false
   */
  readonly requireClientCert?: boolean;
  /** More entries to load after the initial ones (LDIF text). */
  readonly extraLdif?: string;
}

/** A running throwaway directory. */
export interface Slapd {
  /** Plain LDAP URL (StartTLS works on it): `ldap://127.0.0.1:PORT`. */
  readonly url: string;
  /** LDAPS URL: `ldaps://127.0.0.1:PORT`. */
  readonly ldapsUrl: string;
  /** The same LDAPS listener named `localhost` (matches the certificate's DNS name). */
  readonly ldapsLocalhostUrl: string;
  /** Port of {@link Slapd.url}. */
  readonly port: number;
  /** Port of {@link Slapd.ldapsUrl}. */
  readonly ldapsPort: number;
  /** `dc=sked,dc=test`. */
  readonly baseDn: string;
  /** `ou=people,dc=sked,dc=test`. */
  readonly peopleDn: string;
  /** `ou=groups,dc=sked,dc=test` (readable anonymously). */
  readonly groupsDn: string;
  /** `ou=staff,dc=sked,dc=test` (readable only by bound users). */
  readonly staffDn: string;
  /** Administrator DN and password (can write anything). */
  readonly root: { readonly dn: string; readonly password: string };
  /** A read-only service account for `binddn`/`bindpass`. */
  readonly reader: { readonly dn: string; readonly password: string };
  /** Domain of the people's `userPrincipalName`. */
  readonly upnDomain: string;
  /** The people loaded. */
  readonly users: readonly SlapdUser[];
  /** The groups loaded. */
  readonly groups: readonly SlapdGroup[];
  /** The CA, server, client and wrong-CA certificates. */
  readonly certificates: SlapdCertificates;
  /**
   * A configuration of the secrets service's LDAP auth method for this directory: search-then-bind
   * as the reader account, people by `uid` under `ou=people`, groups under `ou=groups`.
   */
  readonly authConfig: {
    readonly url: string;
    readonly binddn: string;
    readonly bindpass: string;
    readonly userdn: string;
    readonly userattr: 'uid';
    readonly groupdn: string;
  };
  /** Working directory (configuration, database, pid file). */
  readonly dir: string;
  /**
   * Adds entries (LDIF) as the administrator.
   * @param ldif - LDIF text of the new entries.
   */
  add(ldif: string): Promise<void>;
  /** Stops the server and removes its directory. Idempotent. */
  stop(): Promise<void>;
}

const SCHEMA = `attributetype ( 1.3.6.1.4.1.4203.666.11.99.1 NAME 'userPrincipalName'
  EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch
  SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
objectclass ( 1.3.6.1.4.1.4203.666.11.99.2 NAME 'skedPrincipal' SUP top AUXILIARY
  MAY userPrincipalName )
`;

function config(dir: string, certs: SlapdCertificates, options: StartSlapdOptions): string {
  return `include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include /etc/ldap/schema/nis.schema
include ${dir}/sked.schema
modulepath /usr/lib/ldap
moduleload back_mdb
moduleload memberof
pidfile ${dir}/slapd.pid
argsfile ${dir}/slapd.args
# a DN with an empty password is an anonymous bind (so deny_null_bind has something to deny)
allow bind_anon_dn
TLSCACertificateFile ${certs.caFile}
TLSCertificateFile ${certs.serverCertFile}
TLSCertificateKeyFile ${certs.serverKeyFile}
TLSVerifyClient ${options.requireClientCert === true ? 'demand' : 'allow'}
database mdb
maxsize 268435456
suffix "${directory.SLAPD_BASE_DN}"
rootdn "${directory.SLAPD_ROOT_DN}"
rootpw ${directory.SLAPD_ROOT_PASSWORD}
directory ${dir}/db
index objectClass,uid,cn,memberUid,member,sn,userPrincipalName eq
overlay memberof
access to attrs=userPassword by self write by anonymous auth by * none
access to dn.children="${directory.SLAPD_STAFF_DN}" by users read by * none
access to * by * read
`;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

async function waitForPort(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new SlapdUnavailableError(
        `slapd exited before it listened (${child.exitCode ?? child.signalCode}): ${stderr().trim()}`,
      );
    }
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline)
      throw new SlapdUnavailableError(`slapd did not listen on ${port} within 15 s: ${stderr().trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function ldapAdd(url: string, ldif: string, dir: string): Promise<void> {
  const file = join(dir, `add-${Date.now()}-${Math.random().toString(36).slice(2)}.ldif`);
  writeFileSync(file, ldif);
  try {
    await run(
      SLAPD_PROGRAMS.ldapadd,
      ['-x', '-H', url, '-D', directory.SLAPD_ROOT_DN, '-w', directory.SLAPD_ROOT_PASSWORD, '-f', file],
      {
        timeout: 120_000,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    throw new Error(`ldapadd failed: ${stderr.trim()}`, { cause: error });
  } finally {
    rmSync(file, { force: true });
  }
}

async function startOnce(options: StartSlapdOptions, certs: SlapdCertificates): Promise<Slapd> {
  const dir = mkdtempSync(join(tmpdir(), 'sked-slapd-'));
  mkdirSync(join(dir, 'db'));
  writeFileSync(join(dir, 'sked.schema'), SCHEMA);
  const conf = join(dir, 'slapd.conf');
  writeFileSync(conf, config(dir, certs, options));
  const [port, ldapsPort] = await Promise.all([freePort(), freePort()]);
  const url = `ldap://127.0.0.1:${port}`;
  const ldapsUrl = `ldaps://127.0.0.1:${ldapsPort}`;
  // -d 0: stay in the foreground (so the child is ours to stop) with no debug output.
  const child = spawn(SLAPD_PROGRAMS.slapd, ['-d', '0', '-f', conf, '-h', `${url}/ ${ldapsUrl}/`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      running.delete(child);
      rmSync(dir, { recursive: true, force: true });
    })();
    return stopped;
  };
  try {
    await Promise.all([waitForPort(port, child, () => stderr), waitForPort(ldapsPort, child, () => stderr)]);
    await ldapAdd(url, directory.initialLdif() + (options.extraLdif ?? ''), dir);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    ldapsUrl,
    ldapsLocalhostUrl: `ldaps://localhost:${ldapsPort}`,
    port,
    ldapsPort,
    baseDn: directory.SLAPD_BASE_DN,
    peopleDn: directory.SLAPD_PEOPLE_DN,
    groupsDn: directory.SLAPD_GROUPS_DN,
    staffDn: directory.SLAPD_STAFF_DN,
    root: { dn: directory.SLAPD_ROOT_DN, password: directory.SLAPD_ROOT_PASSWORD },
    reader: { dn: directory.SLAPD_READER.dn, password: directory.SLAPD_READER.password },
    upnDomain: directory.SLAPD_UPN_DOMAIN,
    users: directory.SLAPD_USERS,
    groups: directory.SLAPD_GROUPS,
    certificates: certs,
    authConfig: {
      url,
      binddn: directory.SLAPD_READER.dn,
      bindpass: directory.SLAPD_READER.password,
      userdn: directory.SLAPD_PEOPLE_DN,
      userattr: 'uid',
      groupdn: directory.SLAPD_GROUPS_DN,
    },
    dir,
    add: (ldif) => ldapAdd(url, ldif, dir),
    stop,
  };
}

/**
 * Starts a throwaway OpenLDAP server (installing Debian's `slapd` first when missing, see
 * {@link ensureSlapd}) with plain LDAP + StartTLS and LDAPS on free ports of 127.0.0.1, the
 * `memberOf` overlay, and the entries of {@link SLAPD_USERS} and {@link SLAPD_GROUPS}.
 *
 * @param options - Client certificate requirement, extra entries.
 * @returns The running directory; call {@link Slapd.stop} when done.
 * @throws {@link SlapdUnavailableError} saying why when slapd cannot be installed or started.
 */
export async function startSlapd(options: StartSlapdOptions = {}): Promise<Slapd> {
  await ensureSlapd();
  const certs = await slapdCertificates();
  let lastError: unknown;
  // A free port can be taken by someone else between the probe and slapd's bind: try again.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(options, certs);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
