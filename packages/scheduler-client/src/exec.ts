/**
 * Exec into an allocation's task over a WebSocket: {@link execAllocation} ties the socket
 * (`exec/session.ts`), the output queues (`exec/byte-queue.ts`) and the session handle together.
 */
import type { Transport } from '@sked/http';
import WebSocket from 'ws';

import { byteQueue } from './exec/byte-queue.js';
import type { ExecOptions, ExecSession } from './exec/options.js';
import {
  checkDimension,
  checkExecInput,
  type ExecOutcome,
  openExecSocket,
  readServerFrame,
  refusedSession,
  watchSocketEnd,
} from './exec/session.js';

export { ExecError } from './exec/error.js';
export type { ExecOptions, ExecSession, TerminalSize } from './exec/options.js';

/** Largest stdin slice sent in one frame. */
const STDIN_CHUNK = 512 * 1024;

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
  const socket = openExecSocket(transport, allocId, task, command, options);

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
  const finish = (outcome: ExecOutcome): void => {
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

  socket.on('message', (data: WebSocket.RawData) => readServerFrame(data, stdout, stderr, finish));
  watchSocketEnd(socket, transport, finish);

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
