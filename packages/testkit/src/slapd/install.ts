/**
 * Makes Debian's `slapd` and `ldap-utils` available, installing them with apt when they are
 * missing and the machine allows it. Fails loudly with the reason otherwise: a test that needs a
 * directory never skips.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The programs the throwaway directory needs, by absolute path. */
export const SLAPD_PROGRAMS = {
  slapd: '/usr/sbin/slapd',
  slaptest: '/usr/sbin/slaptest',
  ldapadd: '/usr/bin/ldapadd',
  ldapsearch: '/usr/bin/ldapsearch',
  openssl: '/usr/bin/openssl',
} as const;

const MODULES = ['/usr/lib/ldap/back_mdb.so', '/usr/lib/ldap/memberof.so'];

/** Paths among {@link SLAPD_PROGRAMS} (and slapd's modules) that are missing. */
function missing(): string[] {
  return [...Object.values(SLAPD_PROGRAMS), ...MODULES].filter((path) => !existsSync(path));
}

/** Error thrown when OpenLDAP cannot be had on this machine; the message says why. */
export class SlapdUnavailableError extends Error {
  /** Literal class name. */
  override readonly name = 'SlapdUnavailableError' as const;
}

const APT = ['-o', 'DPkg::Lock::Timeout=300', '-q'];

async function apt(args: readonly string[]): Promise<void> {
  await run('apt-get', [...APT, ...args], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    timeout: 600_000,
    maxBuffer: 64 * 1024 * 1024,
  });
}

function describe(error: unknown): string {
  const e = error as { stderr?: string; message?: string };
  const text = (e.stderr ?? '').trim() || (e.message ?? String(error));
  return text.split('\n').slice(-4).join(' | ');
}

async function install(): Promise<void> {
  if (process.getuid?.() !== 0) {
    throw new SlapdUnavailableError(
      `OpenLDAP is missing (${missing().join(', ')}) and this process is not root, so it cannot install it. ` +
        'Install it once with: echo "slapd slapd/no_configuration boolean true" | sudo debconf-set-selections && ' +
        'sudo apt-get install -y --no-install-recommends slapd ldap-utils',
    );
  }
  try {
    // No default database and no system service: the tests start their own throwaway servers.
    await run('sh', ['-c', 'echo "slapd slapd/no_configuration boolean true" | debconf-set-selections']);
  } catch (error) {
    throw new SlapdUnavailableError(`debconf-set-selections failed: ${describe(error)}`, { cause: error });
  }
  const packages = ['install', '-y', '--no-install-recommends', 'slapd', 'ldap-utils', 'openssl'];
  try {
    await apt(packages);
  } catch {
    // A fresh machine has no package lists yet: update once, then try again.
    try {
      await apt(['update']);
      await apt(packages);
    } catch (error) {
      throw new SlapdUnavailableError(`apt-get could not install slapd and ldap-utils: ${describe(error)}`, {
        cause: error,
      });
    }
  }
}

const LOCK = join(tmpdir(), 'sked-slapd-install.lock');
let ensured: Promise<void> | undefined;

async function ensureOnce(): Promise<void> {
  if (missing().length === 0) return;
  // Several test processes may start at once: one installs, the others wait for it.
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if (missing().length === 0) return;
      // A lock older than 15 minutes belongs to a dead process.
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > 900_000) rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // it went away meanwhile
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    if (missing().length > 0) await install();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
  const still = missing();
  if (still.length > 0) {
    throw new SlapdUnavailableError(
      `OpenLDAP was installed but these are still missing: ${still.join(', ')}`,
    );
  }
}

/**
 * Makes sure `slapd`, `ldap-utils` and `openssl` are installed, with apt when they are missing
 * (as root: `debconf` no-configuration, then `apt-get install`, with one `apt-get update` when the
 * package lists are empty). Concurrent callers, in this process or others, install once.
 *
 * @returns When the programs are there.
 * @throws {@link SlapdUnavailableError} saying why when they cannot be had (not root, no network).
 */
export function ensureSlapd(): Promise<void> {
  ensured ??= ensureOnce().catch((error: unknown) => {
    ensured = undefined;
    throw error;
  });
  return ensured;
}
