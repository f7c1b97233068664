/**
 * Runs a program to completion with a time limit, capturing its output: the release checks drive
 * real tools (pnpm, npm, tsc, node, attw, changesets) as a person would in a shell.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

/** Options of {@link run}. */
export interface RunOptions {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Killed (the whole process group) after this many milliseconds. */
  readonly timeoutMs?: number;
  /** Resolve instead of rejecting on a non-zero exit. */
  readonly allowFailure?: boolean;
}

/** What a finished program left. */
export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Thrown when a program fails or runs out of time; the message carries its output. */
export class RunError extends Error {
  override readonly name = 'RunError';
  readonly result: RunResult;
  constructor(message: string, result: RunResult) {
    super(message);
    this.result = result;
  }
}

/**
 * Runs `command args` in `cwd` and resolves with its exit code and output.
 * @throws {@link RunError} on a non-zero exit (unless `allowFailure`) or on timeout.
 */
export function run(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const result = { code: code ?? 128, stdout, stderr };
      const shown = `${command} ${args.join(' ')} (in ${options.cwd})`;
      const tail = `\n--- stdout\n${stdout.slice(-6000)}\n--- stderr\n${stderr.slice(-6000)}`;
      if (timedOut) reject(new RunError(`${shown} ran out of time after ${timeoutMs} ms${tail}`, result));
      else if (code !== 0 && options.allowFailure !== true)
        reject(new RunError(`${shown} exited with ${code ?? signal}${tail}`, result));
      else resolve(result);
    });
  });
}

/** Ends a process group started by {@link run} or {@link spawnGroup}. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** A long-running program in its own process group, with its output captured. */
export interface GroupProcess {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  /** Everything it printed so far, stdout and stderr interleaved. */
  readonly output: () => string;
  /** Ends the group (SIGTERM, then SIGKILL after the grace period) and resolves once it exited. */
  readonly close: () => Promise<void>;
}

/**
 * Starts `command args` detached in its own process group (so {@link killGroup} ends it with its
 * children), capturing its output; `close` sends SIGTERM and SIGKILL after `graceMs`.
 */
export function spawnGroup(
  command: string,
  args: readonly string[],
  options: { readonly env?: NodeJS.ProcessEnv; readonly graceMs: number; readonly cwd?: string },
): GroupProcess {
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    killGroup(child.pid, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), options.graceMs);
    await exited;
    clearTimeout(timer);
  };
  return { child, output: () => text, close };
}
