import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import xterm from '@xterm/headless';
import * as pty from '@lydell/node-pty';

/** The built `sked` entry point. */
export const SKED = fileURLToPath(new URL('../dist/main.js', import.meta.url));
/** The built `sked-server` entry point. */
export const SERVER = fileURLToPath(new URL('./main.js', import.meta.resolve('@sked/server')));

/** A `sked-server` process with its listeners. */
export interface ServerProcess {
  /** Address of the scheduling service. */
  readonly url: string;
  /** Address of each listener, by the name of its ready line (`scheduler`, `secrets`, `mesh`). */
  readonly listeners: Readonly<Record<string, string>>;
  /** The secrets service's root token (set with --secrets-root-token). */
  readonly secretsRootToken: string;
  /** The environment that points sked at this server's listeners. */
  readonly env: Record<string, string>;
  readonly child: ChildProcess;
  close(): Promise<void>;
}

/** The port flags `sked-server` takes, read from its --help (the listeners it has). */
let portFlags: Promise<string[]> | undefined;
function serverPortFlags(): Promise<string[]> {
  portFlags ??= new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER, '--help'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('close', () => resolve([...new Set(out.match(/--[a-z]+-port\b/g) ?? [])]));
  });
  return portFlags;
}

/**
 * Starts `sked-server` with every listener it has on a free port (with demo data unless `args`
 * say otherwise), and waits for each ready line.
 */
export async function startServer(args: readonly string[] = ['--demo']): Promise<ServerProcess> {
  const ports = (await serverPortFlags()).flatMap((flag) => [flag, '0']);
  const secretsRootToken = `root-${Math.random().toString(36).slice(2)}`;
  const withToken = ports.includes('--secrets-port') ? ['--secrets-root-token', secretsRootToken] : [];
  const child = spawn(process.execPath, [SERVER, ...ports, ...withToken, '--enable-raw-exec', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const expected = ports.length / 2;
  const listeners: Record<string, string> = {};
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sked-server did not start: ${stderr}`)), 30_000);
    lines.on('line', (line) => {
      const match = /^(\w+) listening on (https?:\/\/\S+)$/.exec(line);
      if (!match) return;
      listeners[match[1]!] = match[2]!;
      if (Object.keys(listeners).length === expected) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`sked-server exited with ${code}: ${stderr}`)));
  });
  const url = listeners['scheduler']!;
  const env: Record<string, string> = { SKED_ADDR: url };
  if (listeners['secrets']) env['SKED_SECRETS_ADDR'] = listeners['secrets'];
  if (listeners['mesh']) env['SKED_MESH_ADDR'] = listeners['mesh'];
  return {
    url,
    listeners,
    secretsRootToken,
    env,
    child,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** What a finished `sked` process left. */
export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment of a sked process: this one's without SKED_* and colour settings, plus `env`. */
export function cleanEnv(env: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !key.startsWith('SKED_') && key !== 'NO_COLOR' && key !== 'FORCE_COLOR')
      out[key] = value;
  return { ...out, ...env };
}

/** Runs `sked ARGS` as a process, with `input` on stdin (closed at once when absent). */
export function sked(
  args: readonly string[],
  options: { env?: Record<string, string>; input?: string | Buffer; timeoutMs?: number; cwd?: string } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SKED, ...args], {
      env: cleanEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `sked ${args.join(' ')} did not end within ${options.timeoutMs ?? 30_000} ms:\n${stdout}\n${stderr}`,
        ),
      );
    }, options.timeoutMs ?? 30_000);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal === null ? -1 : 128), stdout, stderr });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  });
}

/** `sked` on a pseudo-terminal, read through a headless terminal emulator. */
export interface TerminalRun {
  /** The text on the screen now (rows joined by newlines, trailing blanks trimmed), from row `from` of the buffer. */
  screen(from?: number): string;
  /** The row of the buffer (scrollback included) the cursor is on. */
  cursorRow(): number;
  /** Everything written to the terminal, escape sequences included. */
  raw(): string;
  /** Resolves once the screen shows `pattern`. */
  waitFor(pattern: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Types `data`; throws once the program has exited (a test that still types has lost track). */
  write(data: string): void;
  resize(cols: number, rows: number): void;
  readonly exitCode: Promise<number>;
  /** Hangs up (SIGHUP) once what was typed has reached the terminal; resolves when the program is gone. */
  kill(): Promise<void>;
}

/**
 * The terminal's writes not yet made. node-pty 1.1 queues each write and makes it later; when the
 * program exits meanwhile, it closes the terminal first and the late write fails with EBADF, which
 * it prints as "Unhandled pty write error" (nothing to catch). @lydell/node-pty writes to the
 * terminal's socket, which buffers what the terminal cannot take yet. So a hang-up waits for that
 * backlog to empty. Private to the library: a version with neither fails here, loudly.
 */
function pendingWrites(proc: pty.IPty): { count(): number; drop(): void } {
  const internals = proc as unknown as {
    _writeStream?: { _writeQueue?: unknown };
    _socket?: { writableLength?: unknown };
  };
  const queue = internals._writeStream?._writeQueue;
  if (Array.isArray(queue)) return { count: () => queue.length, drop: () => (queue.length = 0) };
  const socket = internals._socket;
  if (typeof socket?.writableLength !== 'number')
    throw new Error(
      'the pty has neither _writeStream._writeQueue nor _socket.writableLength: see pendingWrites in test/harness.ts.',
    );
  return { count: () => Number(socket.writableLength), drop: () => undefined };
}

/** Runs `sked ARGS` on a pseudo-terminal of `cols` x `rows` (@lydell/node-pty), screen kept by @xterm/headless. */
export function skedOnTerminal(
  args: readonly string[],
  options: { env?: Record<string, string>; cols?: number; rows?: number } = {},
): TerminalRun {
  return onTerminal(process.execPath, [SKED, ...args], options);
}

/** Runs `file ARGS` (a shell, `sked`) on a pseudo-terminal, screen kept by @xterm/headless. */
export function onTerminal(
  file: string,
  args: readonly string[],
  options: { env?: Record<string, string>; cols?: number; rows?: number; cwd?: string } = {},
): TerminalRun {
  const cols = options.cols ?? 100;
  const rows = options.rows ?? 40;
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 1000 });
  const proc = pty.spawn(file, [...args], {
    name: 'xterm-256color',
    cols,
    rows,
    env: cleanEnv({ TERM: 'xterm-256color', ...options.env }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  let raw = '';
  let pending = Promise.resolve();
  proc.onData((data) => {
    raw += data;
    pending = pending.then(() => new Promise<void>((resolve) => term.write(data, resolve)));
  });
  let exited = false;
  const exitCode = new Promise<number>((resolve) =>
    proc.onExit(({ exitCode: code }) => {
      exited = true;
      resolve(code);
    }),
  );
  const queue = pendingWrites(proc);
  const screen = (from = 0): string => {
    const buffer = term.buffer.active;
    const out: string[] = [];
    for (let i = from; i < buffer.length; i++) out.push(buffer.getLine(i)?.translateToString(true) ?? '');
    return out.join('\n').trimEnd();
  };
  return {
    screen,
    cursorRow: () => term.buffer.active.baseY + term.buffer.active.cursorY,
    raw: () => raw,
    async waitFor(pattern, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await pending;
        const text = screen();
        if (typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text)) return text;
        if (Date.now() > deadline)
          throw new Error(`Timed out waiting for ${String(pattern)}; screen:\n${text}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    write(data) {
      if (exited) throw new Error(`Typed ${JSON.stringify(data)} after the program on the terminal exited.`);
      proc.write(data);
    },
    resize(c, r) {
      term.resize(c, r);
      proc.resize(c, r);
    },
    exitCode: exitCode.then(async (code) => {
      await pending;
      return code;
    }),
    async kill() {
      if (exited) return;
      // What was typed reaches the program first; input it leaves unread for 5 s is dropped with it.
      for (const deadline = Date.now() + 5000; queue.count() > 0 && Date.now() < deadline;)
        await new Promise((r) => setTimeout(r, 10));
      queue.drop();
      proc.kill('SIGHUP');
      const gone = setTimeout(() => proc.kill('SIGKILL'), 5000);
      await exitCode;
      clearTimeout(gone);
    },
  };
}

/** Polls `check` until it returns something other than undefined. */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await Promise.resolve()
      .then(check)
      .catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
