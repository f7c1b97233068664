import { spawn as spawnChild } from 'node:child_process';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Pty from '@lydell/node-pty';
import { findProgram, signalGroup } from '../core/index.js';
import type { ExecSandbox } from './sandbox.js';

/** What an exec process reports. */
export interface ExecProcessEvents {
  /** Output bytes (with a tty, everything arrives on stdout). */
  data(stream: 'stdout' | 'stderr', data: Buffer): void;
  /** A stream has no more data. */
  end(stream: 'stdout' | 'stderr'): void;
  /** The process exited and every byte of its output was reported. */
  exit(exitCode: number): void;
}

/** A running command, on pipes or on a pseudo-terminal. */
export interface ExecProcess {
  readonly pid: number;
  /** Writes to stdin; false asks the writer to wait for `onDrain`. */
  write(data: Buffer): boolean;
  /** Calls `listener` once stdin can take more after `write` returned false. */
  onDrain(listener: () => void): void;
  /** Closes stdin (on a tty: sends end-of-file, ^D). */
  endInput(): void;
  /** Resizes the terminal (ignored without a tty). */
  resize(width: number, height: number): void;
  /** Stops reading output (backpressure). */
  pause(): void;
  /** Resumes reading output. */
  resume(): void;
  /** Sends SIGHUP, then SIGKILL after `graceMs`, to the whole process group. */
  kill(graceMs?: number): void;
}

/** What to run and where. */
export interface ExecSpawnOptions {
  readonly command: readonly [string, ...string[]];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly tty: boolean;
  /** Initial terminal size. @defaultValue 80 x 24 */
  readonly size?: { readonly width: number; readonly height: number };
  /** Runs the command inside this sandbox. @defaultValue none: on the host */
  readonly sandbox?: ExecSandbox | undefined;
}

/** What is really started: the program (or the sandbox around it), its arguments and `argv[0]`. */
interface Launch {
  readonly program: string;
  readonly args: readonly string[];
  readonly argv0: string;
}

const brand = Symbol.for('@sked/server/ExecCommandError');

/** Why a command could not start: a client mistake (1008). */
export class ExecCommandError extends Error {
  /** Literal class name. */
  override readonly name = 'ExecCommandError' as const;
  /** The command's program as given. */
  readonly program: string;
  readonly [brand] = true;
  /**
   * @param program - The program that could not be started.
   * @param message - What went wrong, a sentence.
   */
  constructor(program: string, message: string) {
    super(message);
    this.program = program;
  }
  /**
   * Whether a value is an {@link ExecCommandError}.
   * @param value - Anything.
   * @returns True for an {@link ExecCommandError}.
   */
  static is(value: unknown): value is ExecCommandError {
    return typeof value === 'object' && value !== null && brand in value;
  }
}

/**
 * Finds the program the way a shell does: a name with a slash is taken relative to `cwd`, any other
 * is searched on the `PATH` of `env`.
 * @returns The absolute path of the executable.
 * @throws {@link ExecCommandError} when there is no such executable.
 */
export function resolveProgram(program: string, cwd: string, env: Readonly<Record<string, string>>): string {
  const path = findProgram(program, cwd, env);
  if (path !== undefined) return path;
  throw new ExecCommandError(
    program,
    program.includes('/')
      ? `command ${JSON.stringify(program)} is not an executable file`
      : `command ${JSON.stringify(program)} was not found on the task's PATH`,
  );
}

/** Exit code of a process: its code, or 128 + the signal number when a signal ended it. */
export function exitCodeOf(code: number | null, signal: NodeJS.Signals | number | null): number {
  if (code !== null) return code;
  if (typeof signal === 'number') return 128 + signal;
  if (signal !== null) {
    const number = (
      {
        SIGHUP: 1,
        SIGINT: 2,
        SIGQUIT: 3,
        SIGKILL: 9,
        SIGPIPE: 13,
        SIGTERM: 15,
      } as Record<string, number>
    )[signal];
    return 128 + (number ?? 0);
  }
  return 0;
}

function scheduleKill(pid: number, exited: () => boolean, graceMs: number): void {
  if (exited()) return;
  signalGroup(pid, 'SIGHUP');
  const timer = setTimeout(() => {
    if (!exited()) signalGroup(pid, 'SIGKILL');
  }, graceMs);
  timer.unref();
}

function spawnPipes(options: ExecSpawnOptions, launch: Launch, events: ExecProcessEvents): ExecProcess {
  const child = spawnChild(launch.program, launch.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
    argv0: launch.argv0,
  });
  let exited = false;
  child.stdin.on('error', () => undefined);
  child.stdout.on('data', (data: Buffer) => events.data('stdout', data));
  child.stderr.on('data', (data: Buffer) => events.data('stderr', data));
  child.stdout.on('end', () => events.end('stdout'));
  child.stderr.on('end', () => events.end('stderr'));
  child.on('close', (code, signal) => {
    exited = true;
    events.exit(exitCodeOf(code, signal));
  });
  child.on('error', () => {
    // spawn failures surface as 'close' with code -2 etc.; resolveProgram rules out the usual ones
  });
  return {
    pid: child.pid ?? -1,
    write: (data) => (child.stdin.writable ? child.stdin.write(data) : true),
    onDrain: (listener) => {
      child.stdin.once('drain', listener);
    },
    endInput: () => {
      if (child.stdin.writable) child.stdin.end();
    },
    resize: () => undefined,
    pause: () => {
      child.stdout.pause();
      child.stderr.pause();
    },
    resume: () => {
      child.stdout.resume();
      child.stderr.resume();
    },
    kill: (graceMs = 2000) => {
      if (child.pid !== undefined) scheduleKill(child.pid, () => exited, graceMs);
    },
  };
}

/** Queued pty writes (stdin frames) above which the client is paused, and below which it resumes. */
const PTY_QUEUE_HIGH = 16;
const PTY_QUEUE_LOW = 4;

let ptyModule: typeof Pty | undefined;

/**
 * The terminal library, loaded on the first `tty: true` exec only: the server starts without it,
 * and an install that lacks its prebuilt binary (`--omit=optional`, an unsupported platform) still
 * serves everything but terminals. `load` is replaceable for tests.
 */
export function loadPty(
  program: string,
  load: () => typeof Pty = () => createRequire(import.meta.url)('@lydell/node-pty') as typeof Pty,
): typeof Pty {
  if (ptyModule !== undefined) return ptyModule;
  try {
    const loaded = load();
    ptyModule = loaded;
    return loaded;
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    throw new ExecCommandError(
      program,
      `a terminal (tty) is not available on this server: @lydell/node-pty could not be loaded (${reason}); ` +
        'exec without a tty still works. Reinstall @sked/server without --omit=optional on a supported platform ' +
        '(Linux, macOS or Windows on x64 or arm64).',
    );
  }
}

function spawnPty(options: ExecSpawnOptions, launch: Launch, events: ExecProcessEvents): ExecProcess {
  const pty = loadPty(launch.argv0);
  const term = pty.spawn(launch.program, [...launch.args], {
    name: options.env['TERM'] ?? 'xterm-256color',
    cols: options.size?.width ?? 80,
    rows: options.size?.height ?? 24,
    cwd: options.cwd,
    env: options.env,
    encoding: null,
  });
  let exited = false;
  // The terminal's stdin backlog, read (defensively: internals) so that a client flooding stdin is
  // paused, not buffered: @lydell/node-pty writes to the terminal's socket, whose buffered bytes
  // are counted in KiB; node-pty 1.1 queues writes of its own (one entry each).
  const internals = term as unknown as {
    _writeStream?: { _writeQueue?: unknown[] };
    _socket?: { writableLength?: number };
  };
  const queued = (): number =>
    internals._writeStream?._writeQueue?.length ?? Math.ceil((internals._socket?.writableLength ?? 0) / 1024);
  /** Drops stdin the program will never read (it is being killed or is gone). */
  const dropInput = (): void => {
    const queue = internals._writeStream?._writeQueue;
    if (queue !== undefined) queue.length = 0;
  };
  term.onData((data: string | Buffer) => {
    events.data('stdout', typeof data === 'string' ? Buffer.from(data) : data);
  });
  term.onExit(({ exitCode, signal }) => {
    exited = true;
    events.end('stdout');
    events.end('stderr');
    events.exit(signal !== undefined && signal !== 0 && exitCode === 0 ? 128 + signal : exitCode);
  });
  return {
    pid: term.pid,
    write: (data) => {
      if (!exited) (term.write as (data: string | Buffer) => void)(data);
      return exited || queued() < PTY_QUEUE_HIGH;
    },
    onDrain: (listener) => {
      const timer = setInterval(() => {
        if (!exited && queued() > PTY_QUEUE_LOW) return;
        clearInterval(timer);
        listener();
      }, 10);
      timer.unref();
    },
    endInput: () => {
      if (!exited) term.write('\x04');
    },
    resize: (width, height) => {
      if (!exited) term.resize(width, height);
    },
    pause: () => term.pause(),
    resume: () => term.resume(),
    kill: (graceMs = 2000) => {
      dropInput();
      scheduleKill(term.pid, () => exited, graceMs);
    },
  };
}

/**
 * Starts a command in `cwd` with exactly `env`, on pipes or (with `tty`) on a real pseudo-terminal,
 * inside `sandbox` when one is given.
 * @param options - Command, directory, environment, tty and initial size.
 * @param events - Where output and the exit are reported.
 * @returns The running process.
 * @throws {@link ExecCommandError} when the program does not exist; an Error when the task
 *   directory is missing (a server fault).
 */
export function spawnExecProcess(options: ExecSpawnOptions, events: ExecProcessEvents): ExecProcess {
  try {
    if (!statSync(options.cwd).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new Error(`task directory ${JSON.stringify(options.cwd)} does not exist`);
  }
  const [name, ...args] = options.command;
  const program = resolveProgram(name, options.cwd, options.env);
  const launch: Launch =
    options.sandbox === undefined
      ? { program, args, argv0: name }
      : {
          ...options.sandbox.wrap(program, args, options.cwd, { tty: options.tty }),
          argv0: 'bwrap',
        };
  return options.tty ? spawnPty(options, launch, events) : spawnPipes(options, launch, events);
}
