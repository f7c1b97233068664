/** The parts of an exec session: input checks, opening the socket, reading frames, ending. */
import type { Transport } from '@sked/http';
import WebSocket from 'ws';

import { InvalidRequestError } from '../errors.js';
import { quote } from '@sked/http';
import { requireAllocId } from '../internal/ids.js';
import type { ByteQueue } from './byte-queue.js';
import { ExecError } from './error.js';
import type { ExecOptions, ExecSession } from './options.js';

/** How a session ends: with the command's exit code, or with an error. */
export type ExecOutcome = { code: number } | { error: unknown };

function rawText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

export function checkDimension(value: unknown, parameter: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 65535) {
    throw new InvalidRequestError(
      `The terminal ${parameter} must be an integer from 1 to 65535, but got ${quote(value)}.`,
      parameter,
      value,
    );
  }
  return value;
}

export function checkExecInput(
  allocId: unknown,
  task: unknown,
  command: unknown,
  options: ExecOptions,
): void {
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
export function refusedSession(error: unknown): ExecSession {
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

/** Opens the exec WebSocket of a checked request, with the transport's headers and TLS settings. */
export function openExecSocket(
  transport: Transport,
  allocId: string,
  task: string,
  command: readonly string[],
  options: ExecOptions,
): WebSocket {
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
  return socket;
}

/** Feeds one server frame to the output queues; an `exited` frame finishes the session. */
export function readServerFrame(
  data: WebSocket.RawData,
  stdout: ByteQueue,
  stderr: ByteQueue,
  finish: (outcome: ExecOutcome) => void,
): void {
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
}

/**
 * Ends the session with an {@link ExecError} when the server refuses the upgrade, the socket fails
 * or it closes before an exit code.
 */
export function watchSocketEnd(
  socket: WebSocket,
  transport: Transport,
  finish: (outcome: ExecOutcome) => void,
): void {
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
}
