/**
 * Debian packages that tests need (`@sked/testkit/apt`): installed with apt when missing and the
 * machine allows it, once across concurrent test processes; a fast no-op when already there.
 * Fails loudly with the reason otherwise: a test that needs a program never skips.
 *
 * @packageDocumentation
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What to make available. */
export interface AptRequirement {
  /** Short name for messages and the install lock (`slapd`, `shells`). */
  readonly name: string;
  /** Debian packages to install (`--no-install-recommends`). */
  readonly packages: readonly string[];
  /** Absolute paths that must exist afterwards: the requirement is met when all of them do. */
  readonly paths: readonly string[];
  /** debconf selections to set before installing (`slapd slapd/no_configuration boolean true`). */
  readonly debconf?: readonly string[];
}

/** Error thrown when the packages cannot be had on this machine; the message says why. */
export class AptUnavailableError extends Error {
  /** Literal class name. */
  override readonly name: string = 'AptUnavailableError';
}

/** Paths of `requirement` that are missing. */
export function missingPaths(requirement: AptRequirement): string[] {
  return requirement.paths.filter((path) => !existsSync(path));
}

const APT = ['-o', 'DPkg::Lock::Timeout=300', '-q'];

/** How long {@link aptGet} waits for a lock another process holds. */
const LOCK_WAIT_MS = 300_000;

/** apt's answer when another process holds one of its locks. */
const LOCK_HELD = /Could not get lock|Unable to lock/;

/**
 * Runs `apt-get` with these arguments, non-interactively, waiting up to five minutes for locks that
 * other processes hold. `DPkg::Lock::Timeout` waits for dpkg's lock only: `apt-get update` (the
 * package lists' lock) and a download (the archives' lock) fail at once when another apt holds them
 * (apt 2.6), so those are tried again every half second until the deadline. @internal
 * @param args - The arguments after the lock options (`['install', '-y', 'zsh']`).
 * @param waitMs - How long to wait for locks held elsewhere.
 * @returns apt-get's standard error (its warnings).
 * @throws the `execFile` error (with `stderr`) when apt-get fails for another reason or the wait ends.
 */
export async function aptGet(args: readonly string[], waitMs: number = LOCK_WAIT_MS): Promise<string> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const { stderr } = await run('apt-get', [...APT, ...args], {
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
        timeout: 600_000,
        maxBuffer: 64 * 1024 * 1024,
      });
      return stderr;
    } catch (error) {
      const stderr = (error as { stderr?: unknown }).stderr;
      if (typeof stderr !== 'string' || !LOCK_HELD.test(stderr) || Date.now() >= deadline) throw error;
      await sleep(500);
    }
  }
}

function describe(error: unknown): string {
  const e = error as { stderr?: string; message?: string };
  const text = (e.stderr ?? '').trim() || (e.message ?? String(error));
  return text.split('\n').slice(-4).join(' | ');
}

async function install(
  req: AptRequirement,
  fail: (message: string, cause?: unknown) => Error,
): Promise<void> {
  const command = `apt-get install -y --no-install-recommends ${req.packages.join(' ')}`;
  if (process.getuid?.() !== 0) {
    const debconf = (req.debconf ?? []).map((line) => `echo "${line}" | sudo debconf-set-selections && `);
    throw fail(
      `${req.name}: ${missingPaths(req).join(', ')} missing and this process is not root, so it cannot ` +
        `install it. Install it once with: ${debconf.join('')}sudo ${command}`,
    );
  }
  for (const line of req.debconf ?? []) {
    try {
      await run('sh', ['-c', 'printf "%s\\n" "$1" | debconf-set-selections', 'sh', line]);
    } catch (error) {
      throw fail(`debconf-set-selections failed: ${describe(error)}`, error);
    }
  }
  const args = ['install', '-y', '--no-install-recommends', ...req.packages];
  try {
    await aptGet(args);
  } catch {
    // A fresh machine has no package lists yet: update once, then try again.
    try {
      await aptGet(['update']);
      await aptGet(args);
    } catch (error) {
      throw fail(`apt-get could not install ${req.packages.join(', ')}: ${describe(error)}`, error);
    }
  }
}

async function ensureOnce(
  req: AptRequirement,
  fail: (message: string, cause?: unknown) => Error,
): Promise<void> {
  if (missingPaths(req).length === 0) return;
  // Several test processes may start at once, each wanting packages of its own: one apt runs at a
  // time on the machine (two `apt-get update`s at once fail), the others wait for it.
  const lock = join(tmpdir(), 'sked-apt-install.lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (missingPaths(req).length === 0) return;
      // A lock older than 15 minutes belongs to a dead process.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 900_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        // it went away meanwhile
      }
      await sleep(500);
    }
  }
  try {
    if (missingPaths(req).length > 0) await install(req, fail);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  const still = missingPaths(req);
  if (still.length > 0)
    throw fail(`${req.name} was installed but these are still missing: ${still.join(', ')}`);
}

const ensured = new Map<string, Promise<void>>();

/**
 * Makes sure the packages of `requirement` are installed: nothing to do when its `paths` exist;
 * otherwise, as root, its debconf selections, then `apt-get -o DPkg::Lock::Timeout=300 install -y
 * --no-install-recommends PACKAGES` (with one `apt-get update` first when that fails, as on a
 * fresh machine without package lists). Concurrent callers, in this process or others, install once.
 *
 * @param makeError - builds the error thrown (default {@link AptUnavailableError}).
 * @throws saying why when the packages cannot be had (not root, no network).
 */
export function ensureAptPackages(
  requirement: AptRequirement,
  makeError: (message: string, cause?: unknown) => Error = (message, cause) =>
    new AptUnavailableError(message, cause === undefined ? undefined : { cause }),
): Promise<void> {
  let promise = ensured.get(requirement.name);
  if (promise === undefined) {
    promise = ensureOnce(requirement, makeError).catch((error: unknown) => {
      ensured.delete(requirement.name);
      throw error;
    });
    ensured.set(requirement.name, promise);
  }
  return promise;
}
