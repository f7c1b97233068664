/**
 * The exec sandbox: a command exec'd into a task of the `mock` driver runs under bubblewrap
 * (`bwrap`, Debian's `bubblewrap`) in its own user, mount, PID, IPC, UTS, cgroup and network
 * namespaces, with every capability dropped, seeing only:
 * - the system read-only (`/usr` and the `/bin`, `/lib`, ... links to it; from `/etc` only the
 *   files programs need to start: `passwd`, `group`, `nsswitch.conf`, `ld.so.cache`, `localtime`),
 * - its own `/proc` (its own processes only), a minimal `/dev`, an empty `/tmp`,
 * - the task directory, read-write, at its own path (the task's environment names it).
 *
 * No other task's directory, no file of the server (ACL file, data dir, its command line) and no
 * network is reachable from inside.
 *
 * @packageDocumentation
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where Debian's bubblewrap installs its program. */
export const BWRAP = '/usr/bin/bwrap';

/** Wraps a command so that it runs inside the sandbox. */
export interface ExecSandbox {
  /** A name for messages (`bubblewrap`). */
  readonly name: string;
  /**
   * The program and arguments that run `program args` inside the sandbox, in `dir`.
   * @param program - Absolute path of the program (as resolved on the host; the system is the same).
   * @param args - Its arguments.
   * @param dir - The task directory: bound read-write, and the working directory.
   * @param tty - Whether the command has a terminal (then it keeps the session, for job control).
   */
  wrap(
    program: string,
    args: readonly string[],
    dir: string,
    options: { readonly tty: boolean },
  ): { readonly program: string; readonly args: readonly string[] };
}

const SYSTEM_LINKS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
const ETC_FILES = [
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
  '/etc/ld.so.cache',
  '/etc/localtime',
  '/etc/alternatives',
];

/** The mount arguments of the read-only system: `/usr`, the merged-/usr links, a few `/etc` files. */
function systemArgs(): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const path of SYSTEM_LINKS) {
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else if (stat.isDirectory()) args.push('--ro-bind', path, path);
  }
  for (const path of ETC_FILES) if (existsSync(path)) args.push('--ro-bind', path, path);
  return args;
}

/**
 * The bubblewrap sandbox (see the module's description).
 * @param bwrap - Path of the `bwrap` program.
 * @returns The sandbox.
 */
export function bubblewrapSandbox(bwrap = BWRAP): ExecSandbox {
  const system = systemArgs();
  return {
    name: 'bubblewrap',
    wrap(program, args, dir, options) {
      return {
        program: bwrap,
        args: [
          '--unshare-all',
          '--unshare-user',
          '--die-with-parent',
          '--cap-drop',
          'ALL',
          // a command without a terminal cannot reach the server's terminal (TIOCSTI)
          ...(options.tty ? [] : ['--new-session']),
          ...system,
          '--proc',
          '/proc',
          '--dev',
          '/dev',
          '--tmpfs',
          '/tmp',
          '--bind',
          dir,
          dir,
          '--chdir',
          dir,
          '--hostname',
          'sandbox',
          '--',
          program,
          ...args,
        ],
      };
    },
  };
}

let probed: { readonly bwrap: string; readonly works: boolean } | undefined;

/** The probe's command: `sh -c 'exit 0'` in the sandbox, in a fresh empty folder (removed by `done`). */
function probeCommand(bwrap: string): { program: string; args: readonly string[]; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'sked-sandbox-probe-'));
  const command = bubblewrapSandbox(bwrap).wrap('/bin/sh', ['-c', 'exit 0'], dir, { tty: false });
  return { ...command, done: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The exec sandbox when it works on this machine: `bwrap` is installed and can create its
 * namespaces here (a probe run once per process, 5 s at most; {@link probeExecSandbox} runs it in
 * the background ahead of the first exec); undefined otherwise.
 * @param bwrap - Path of the `bwrap` program.
 * @returns The sandbox, or undefined when it cannot run here.
 */
export function detectExecSandbox(bwrap = BWRAP): ExecSandbox | undefined {
  if (probed?.bwrap !== bwrap) {
    let works = false;
    if (existsSync(bwrap)) {
      const command = probeCommand(bwrap);
      try {
        const result = spawnSync(command.program, command.args, { timeout: 5000, stdio: 'ignore' });
        works = result.status === 0;
      } finally {
        command.done();
      }
    }
    probed = { bwrap, works };
  }
  return probed.works ? bubblewrapSandbox(bwrap) : undefined;
}

/**
 * Starts the probe of {@link detectExecSandbox} in the background (a child process; the event loop
 * is not held), so that a server starts without waiting for it and its first exec finds the answer
 * ready. An exec that comes before the probe ends runs the probe itself.
 * @param bwrap - Path of the `bwrap` program.
 * @returns A promise of whether the sandbox works; it never rejects.
 */
export function probeExecSandbox(bwrap = BWRAP): Promise<boolean> {
  if (probed?.bwrap === bwrap) return Promise.resolve(probed.works);
  if (!existsSync(bwrap)) {
    probed = { bwrap, works: false };
    return Promise.resolve(false);
  }
  const command = probeCommand(bwrap);
  return new Promise((resolve) => {
    const settle = (works: boolean): void => {
      command.done();
      // a synchronous probe that ran meanwhile has already answered: keep its answer
      if (probed?.bwrap !== bwrap) probed = { bwrap, works };
      resolve(probed.works);
    };
    const child = spawn(command.program, command.args, { timeout: 5000, stdio: 'ignore' });
    child.once('error', () => settle(false));
    child.once('close', (code) => settle(code === 0));
    child.unref();
  });
}
