import type { Transport } from '@sked/http';
import WebSocket from 'ws';

import { InvalidRequestError } from './errors.js';
import { quote, requireAllocId } from './internal/validate.js';

/**
 * A terminal size, in characters.
 * @since 0.1.0
 */
export interface TerminalSize {
  /** Columns, 1 to 65535. */
  readonly width: number;
  /** Rows, 1 to 65535. */
  readonly height: number;
}

/**
 * Options of {@link execAllocation} (`client.exec`).
 * @since 0.1.0
 */
export interface ExecOptions {
  /**
   * Runs the command on a pseudo-terminal: output arrives on `stdout` only, with terminal control
   * sequences, and {@link ExecSession.resize} changes its size.
   * @defaultValue false
   */
  readonly tty?: boolean;
  /**
   * Sends the token in the first WebSocket frame (`ws_handshake=true`) instead of a header, for
   * environments where upgrade requests cannot carry headers.
   * @defaultValue false
   */
  readonly wsHandshake?: boolean;
  /**
   * Terminal size sent as soon as the socket opens (with `tty`).
   * @defaultValue none (the server's 80 x 24)
   */
  readonly size?: TerminalSize;
  /**
   * Interval of the heartbeat frames (`{}`) the client sends to keep the connection alive.
   * @defaultValue 10000
   */
  readonly heartbeatMs?: number;
  /**
   * Output buffered in `stdout` or `stderr` (bytes, per stream) before the client stops reading
   * the socket until the consumer catches up.
   * @defaultValue 1048576
   */
  readonly highWaterMark?: number;
  /**
   * Aborts the session: the socket closes, the command is killed by the server and `exitCode`
   * rejects with the signal's reason.
   * @defaultValue never aborted
   */
  readonly signal?: AbortSignal;
}

/**
 * A running command inside an allocation: a duplex of stdin, stdout and stderr, plus resize and
 * the exit code.
 * @since 0.1.0
 */
export interface ExecSession {
  /** Output of the command (everything, with `tty`), as chunks of bytes; ends when the server closes it. */
  readonly stdout: AsyncIterable<Uint8Array>;
  /** Error output of the command, as chunks of bytes; empty with `tty`. */
  readonly stderr: AsyncIterable<Uint8Array>;
  /**
   * The exit code reported by the server.
   * @throws (rejects with) {@link ExecError} when the server refuses the session or the connection
   * ends without an exit code; the signal's reason on abort.
   */
  readonly exitCode: Promise<number>;
  /**
   * Writes to the command's stdin (queued until the socket is open).
   * @param data - Bytes, or text sent as UTF-8.
   */
  write(data: string | Uint8Array): void;
  /** Closes the command's stdin (on a tty the server sends end-of-file). */
  closeStdin(): void;
  /**
   * Resizes the terminal (with `tty`).
   * @param width - Columns, 1 to 65535.
   * @param height - Rows, 1 to 65535.
   * @throws {@link InvalidRequestError} for a size out of range.
   */
  resize(width: number, height: number): void;
  /** Ends the session at once; the server kills the command and `exitCode` rejects. */
  close(): void;
}

/** Largest stdin slice sent in one frame. */
const STDIN_CHUNK = 512 * 1024;

const execErrorBrand = Symbol.for('@sked/scheduler-client/ExecError');

/**
 * An exec session that ended without an exit code: refused by the server (close code 1008 for
 * a client-side problem such as an unknown task or a missing permission, 1011 for a server fault,
 * with the server's message), refused at the upgrade (an HTTP status), or a lost connection.
 * @since 0.1.0
 */
export class ExecError extends Error {
  /** Always `"ExecError"`. */
  override readonly name = 'ExecError' as const;
  /** The WebSocket close code (1008, 1011, 1006 for a lost connection), or 0 when the upgrade failed. */
  readonly code: number;
  /** The close reason sent by the server (its message), or `""`. */
  readonly reason: string;
  /** The HTTP status of a refused upgrade, or 0. */
  readonly status: number;

  /**
   * Creates the error.
   * @param message - A sentence.
   * @param details - Close code, reason and HTTP status.
   */
  constructor(
    message: string,
    details: { code: number; reason: string; status?: number },
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.code = details.code;
    this.reason = details.reason;
    this.status = details.status ?? 0;
    Object.defineProperty(this, execErrorBrand, { value: true });
  }

  /**
   * Tells whether a value is an {@link ExecError}, even from another copy of this package.
   * @param value - Any value.
   * @returns `true` for an {@link ExecError}.
   */
  static is(value: unknown): value is ExecError {
    return typeof value === 'object' && value !== null && execErrorBrand in value;
  }
}

/** A single-consumer async iterable of byte chunks fed by the socket. */
function byteQueue(onLevel: (bytes: number) => void) {
  const chunks: Uint8Array[] = [];
  let buffered = 0;
  let ended = false;
  let waiter: (() => void) | undefined;
  const wake = (): void => {
    const next = waiter;
    waiter = undefined;
    next?.();
  };
  return {
    push(chunk: Uint8Array): void {
      if (ended) return;
      chunks.push(chunk);
      buffered += chunk.byteLength;
      onLevel(buffered);
      wake();
    },
    end(): void {
      ended = true;
      wake();
    },
    get buffered(): number {
      return buffered;
    },
    iterable: {
      async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array, void, undefined> {
        for (;;) {
          const chunk = chunks.shift();
          if (chunk !== undefined) {
            buffered -= chunk.byteLength;
            onLevel(buffered);
            yield chunk;
            continue;
          }
          if (ended) return;
          await new Promise<void>((resolve) => {
            waiter = resolve;
          });
        }
      },
    } as AsyncIterable<Uint8Array>,
  };
}

function rawText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

function checkDimension(value: unknown, parameter: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 65535) {
    throw new InvalidRequestError(
      `The terminal ${parameter} must be an integer from 1 to 65535, but got ${quote(value)}.`,
      parameter,
      value,
    );
  }
  return value;
}

function checkExecInput(allocId: unknown, task: unknown, command: unknown, options: ExecOptions): void {
  requireAllocId(allocId);
  if (typeof task !== 'string' || task === '') {
    throw new InvalidRequestError(
      `The task name must be a non-empty string, but got ${quote(task)}.`,
      'task',
      task,
    );
  }
  if (
    !Array.isArray(command) ||
    command.length === 0 ||
    !command.every((part) => typeof part === 'string') ||
    command[0] === ''
  ) {
    throw new InvalidRequestError(
      `The command must be a non-empty array of strings naming the program first, but got ${quote(command)}.`,
      'command',
      command,
    );
  }
  if (options.size !== undefined) {
    checkDimension(options.size.width, 'width');
    checkDimension(options.size.height, 'height');
  }
}

/** A session that never connected: empty output, `exitCode` rejected with `error`. */
function refusedSession(error: unknown): ExecSession {
  const exitCode = Promise.reject(error as Error);
  exitCode.catch(() => undefined);
  const empty: AsyncIterable<Uint8Array> = {
    async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array, void, undefined> {
      // nothing: the session never started
    },
  };
  return {
    stdout: empty,
    stderr: empty,
    exitCode,
    write: () => undefined,
    closeStdin: () => undefined,
    resize: (width, height) => {
      checkDimension(width, 'width');
      checkDimension(height, 'height');
    },
    close: () => undefined,
  };
}

/**
 * Runs a command inside a task of an allocation over the exec WebSocket
 * (`/v1/client/allocation/:alloc_id/exec`), as a duplex session.
 *
 * @remarks
 * The token goes in the transport's token header, or with `wsHandshake` in the first frame. The
 * transport's TLS settings apply (`wss:` for an `https:` address). Output is buffered per stream up
 * to `highWaterMark`, then the socket is paused until the consumer reads: read both `stdout` and
 * `stderr` (or neither) to avoid stalling the command.
 *
 * @param transport - The transport of the scheduling service.
 * @param allocId - Full allocation ID (a UUID).
 * @param task - Task name inside the allocation.
 * @param command - The program and its arguments, such as `['/bin/sh', '-c', 'ls']`.
 * @param options - tty, handshake, initial size, heartbeat, buffering, signal.
 * @returns The session, at once; every failure arrives through `exitCode`, which rejects with
 * {@link InvalidRequestError} (before any connection) for a short allocation ID, an empty task or
 * command or a bad size, and with {@link ExecError} when the server refuses the session.
 * @example
 * ```ts
 * const session = client.exec(allocId, 'web', ['sh', '-c', 'echo hello']);
 * for await (const chunk of session.stdout) process.stdout.write(chunk);
 * console.log('exit code', await session.exitCode);
 * ```
 * @since 0.1.0
 */
export function execAllocation(
  transport: Transport,
  allocId: string,
  task: string,
  command: readonly string[],
  options: ExecOptions = {},
): ExecSession {
  try {
    checkExecInput(allocId, task, command, options);
  } catch (error) {
    return refusedSession(error);
  }
  const highWaterMark = options.highWaterMark ?? 1024 * 1024;

  const url = transport.url(`/v1/client/allocation/${encodeURIComponent(allocId)}/exec`, {
    command: JSON.stringify(command),
    task,
    tty: options.tty === true,
    ws_handshake: options.wsHandshake === true,
  });
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const tls = transport.config.tls;
  const headers: Record<string, string> = { ...transport.config.headers };
  if (options.wsHandshake !== true) Object.assign(headers, transport.authHeaders());
  const socket = new WebSocket(url, {
    headers,
    ...(tls === undefined
      ? {}
      : {
          rejectUnauthorized: tls.rejectUnauthorized,
          ...(tls.ca === undefined ? {} : { ca: tls.ca }),
          ...(tls.cert === undefined ? {} : { cert: tls.cert }),
          ...(tls.key === undefined ? {} : { key: tls.key }),
        }),
  });

  let paused = false;
  const levels = (): void => {
    const high = Math.max(stdout.buffered, stderr.buffered);
    if (!paused && high > highWaterMark) {
      paused = true;
      socket.pause();
    } else if (paused && high <= highWaterMark / 2) {
      paused = false;
      socket.resume();
    }
  };
  const stdout = byteQueue(levels);
  const stderr = byteQueue(levels);
  const outgoing: string[] = [];
  let settled = false;
  let resolveExit: (code: number) => void = () => undefined;
  let rejectExit: (error: unknown) => void = () => undefined;
  const exitCode = new Promise<number>((resolve, reject) => {
    resolveExit = resolve;
    rejectExit = reject;
  });
  exitCode.catch(() => undefined);

  const sendFrame = (frame: unknown): void => {
    const text = JSON.stringify(frame);
    if (socket.readyState === WebSocket.OPEN) socket.send(text);
    else if (socket.readyState === WebSocket.CONNECTING) outgoing.push(text);
  };

  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const finish = (outcome: { code: number } | { error: unknown }): void => {
    if (settled) return;
    settled = true;
    clearInterval(heartbeat);
    options.signal?.removeEventListener('abort', onAbort);
    stdout.end();
    stderr.end();
    if ('code' in outcome) resolveExit(outcome.code);
    else rejectExit(outcome.error);
  };

  const onAbort = (): void => {
    finish({ error: options.signal?.reason });
    socket.terminate();
  };
  if (options.signal?.aborted === true) {
    queueMicrotask(onAbort);
  } else {
    options.signal?.addEventListener('abort', onAbort, { once: true });
  }

  socket.on('open', () => {
    if (options.wsHandshake === true) {
      socket.send(JSON.stringify({ version: 1, auth_token: transport.config.token ?? '' }));
    }
    if (options.size !== undefined) {
      socket.send(JSON.stringify({ tty_size: { width: options.size.width, height: options.size.height } }));
    }
    for (const text of outgoing.splice(0)) socket.send(text);
    heartbeat = setInterval(() => sendFrame({}), options.heartbeatMs ?? 10_000);
    heartbeat.unref();
  });

  socket.on('message', (data: WebSocket.RawData) => {
    let frame: Record<string, unknown>;
    try {
      frame = JSON.parse(rawText(data)) as Record<string, unknown>;
    } catch {
      return;
    }
    for (const [name, queue] of [
      ['stdout', stdout],
      ['stderr', stderr],
    ] as const) {
      const part = frame[name] as { data?: unknown; close?: unknown } | undefined;
      if (part === undefined || part === null) continue;
      if (typeof part.data === 'string' && part.data !== '') queue.push(Buffer.from(part.data, 'base64'));
      if (part.close === true) queue.end();
    }
    if (frame['exited'] === true) {
      const result = frame['result'] as { exit_code?: unknown } | undefined;
      const code = typeof result?.exit_code === 'number' ? result.exit_code : -1;
      finish({ code });
    }
  });

  socket.on('unexpected-response', (_request, response) => {
    const status = response.statusCode ?? 0;
    let body = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      if (body.length < 4096) body += chunk;
    });
    response.on('end', () => {
      const message = transport.redact(body.trim());
      finish({
        error: new ExecError(
          `The server refused the exec WebSocket with HTTP ${status}${message === '' ? '' : `: ${message}`}`,
          { code: 0, reason: message, status },
        ),
      });
      socket.terminate();
    });
  });

  socket.on('error', (error: Error) => {
    finish({
      error: new ExecError(
        `The exec WebSocket failed: ${transport.redact(error.message)}`,
        { code: 1006, reason: '' },
        {
          cause: error,
        },
      ),
    });
  });

  socket.on('close', (code: number, reasonBytes: Buffer) => {
    const reason = reasonBytes.toString('utf8');
    finish({
      error: new ExecError(
        reason === ''
          ? `The exec session ended without an exit code (WebSocket close code ${code}).`
          : `The exec session was refused: ${reason} (WebSocket close code ${code}).`,
        { code, reason },
      ),
    });
  });

  return {
    stdout: stdout.iterable,
    stderr: stderr.iterable,
    exitCode,
    write(data) {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
      // One frame per 512 KiB keeps each frame well under the server's frame limit.
      for (let at = 0; at < bytes.byteLength; at += STDIN_CHUNK) {
        sendFrame({ stdin: { data: bytes.subarray(at, at + STDIN_CHUNK).toString('base64') } });
      }
    },
    closeStdin() {
      sendFrame({ stdin: { close: true } });
    },
    resize(width, height) {
      checkDimension(width, 'width');
      checkDimension(height, 'height');
      sendFrame({ tty_size: { width, height } });
    },
    close() {
      finish({ error: new DOMException('The exec session was closed by the client.', 'AbortError') });
      if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
      else socket.close(1000);
    },
  };
}
