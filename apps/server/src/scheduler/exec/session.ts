import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import type { Acl, Principal } from '../acl/index.js';
import { secretFromHeaders } from '../acl/index.js';
import { parseClientFrame, serverFrame, type ExecClientMessage } from './frames.js';
import { parseExecParams, type ExecParams } from './params.js';
import { ExecCommandError, spawnExecProcess, type ExecProcess } from './process.js';
import { defaultBaseEnv } from '../core/index.js';
import type { ExecSandbox } from './sandbox.js';
import { DEFAULTS } from '../../defaults.js';

/** Close code for a client-side problem: bad parameters, permission, unknown alloc or task. */
export const CLOSE_POLICY = 1008;
/** Close code for a server fault. */
export const CLOSE_SERVER_ERROR = 1011;
/** Close code of a session that ended with the `exited` frame. */
export const CLOSE_NORMAL = 1000;

/** The part of a `ws` WebSocket a session uses. */
export interface ExecSocket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string, callback?: (error?: Error) => void): void;
  close(code?: number, reason?: string): void;
  on(event: 'message', listener: (data: unknown, isBinary: boolean) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  pause?(): void;
  resume?(): void;
}

/** A task of an allocation, as exec needs it. */
export interface ExecTask {
  /** The task's driver (`mock`, `raw_exec`, ...). */
  readonly driver: string;
  /** The task directory: the command's working directory. */
  readonly dir: string;
  /** The task's environment. */
  readonly env: Readonly<Record<string, string>>;
  /** The task's State (`pending`, `running`, `dead`), when known. */
  readonly state?: string;
}

/** An allocation, as exec needs it. */
export interface ExecAllocation {
  readonly id: string;
  readonly namespace: string;
  /** Looks up a task of the allocation by name. */
  task(name: string): ExecTask | undefined;
}

/** What an exec session needs from the server. */
export interface ExecContext {
  /** The server's ACL; absent or disabled means exec only over loopback connections. */
  readonly acl?: Acl;
  /** The region served; a request naming another is closed with 1008 `No path to region "<name>"`. */
  readonly region?: string;
  /** Looks up an allocation by its full ID. */
  readonly findAllocation: (allocId: string) => ExecAllocation | undefined;
  /**
   * Interval of the server's heartbeat frames (`{}`).
   * @defaultValue 10000
   */
  readonly heartbeatMs?: number;
  /**
   * How long to wait for the authentication frame when `ws_handshake=true`.
   * @defaultValue 10000
   */
  readonly handshakeTimeoutMs?: number;
  /**
   * The environment every command starts from, under the task's own.
   * @defaultValue PATH, HOME, LANG and TZ of the server process (nothing else, so no secret leaks)
   */
  readonly baseEnv?: Readonly<Record<string, string>>;
  /**
   * The sandbox commands run in (for every driver but `raw_exec`, whose tasks run on the host).
   * Without one, exec into any task needs `alloc-node-exec` as well as `alloc-exec`.
   * @defaultValue none: commands run on the host
   */
  readonly sandbox?: ExecSandbox | undefined;
  /**
   * Takes over a socket whose request names another region's member (federation): returns true
   * when it relays the socket there, false to serve it here.
   * @defaultValue none: another region is refused with 1008 `No path to region "<name>"`
   */
  readonly relay?: ((socket: ExecSocket, request: ExecRelayRequest) => boolean) | undefined;
}

/** What a relay reads of an exec request: path and query as sent, the parsed query, the headers. */
export type ExecRelayRequest = Pick<ExecRequest, 'query' | 'headers'> & { readonly url: string };

/** The request a session serves. */
export interface ExecRequest {
  readonly allocId: string;
  readonly query: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Local address of the connection (for the loopback rule when ACL is off). */
  readonly localAddress: string | undefined;
}

const OPEN = 1;
const HIGH_WATER = 1024 * 1024;
const LOW_WATER = 256 * 1024;
const MAX_PENDING_FRAMES = 256;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether an address is a loopback address (127.0.0.0/8, ::1, or their IPv4-mapped forms). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (plain === '::1' || plain === 'localhost') return true;
  return isIP(plain) === 4 && plain.startsWith('127.');
}

/** Trims a close reason to the 123 bytes a WebSocket close frame allows. */
export function closeReason(message: string): string {
  if (Buffer.byteLength(message) <= 123) return message;
  let out = message;
  while (Buffer.byteLength(`${out}…`) > 123) out = out.slice(0, -1);
  return `${out}…`;
}

function textOf(data: unknown): string {
  if (typeof data === 'string') return data;
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data as Buffer[]).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return String(data);
}

class ExecRefusal extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

function authorize(
  ctx: ExecContext,
  request: ExecRequest,
  token: string | undefined,
  task: string,
): ExecTask & { readonly allocation: ExecAllocation } {
  let principal: Principal | undefined;
  if (ctx.acl?.enabled === true) {
    principal = ctx.acl.resolve(token);
    if (principal === undefined) throw new ExecRefusal(CLOSE_POLICY, 'ACL token not found');
  } else if (!isLoopbackAddress(request.localAddress)) {
    throw new ExecRefusal(CLOSE_POLICY, 'exec is only allowed over loopback while ACLs are off');
  }
  if (!UUID.test(request.allocId)) {
    throw new ExecRefusal(
      CLOSE_POLICY,
      `alloc ID ${JSON.stringify(request.allocId.slice(0, 40))} is not a full UUID`,
    );
  }
  const allocation = ctx.findAllocation(request.allocId);
  if (allocation === undefined) throw new ExecRefusal(CLOSE_POLICY, 'alloc not found');
  if (principal !== undefined && !principal.allowNamespace(allocation.namespace, 'alloc-exec')) {
    throw new ExecRefusal(CLOSE_POLICY, 'Permission denied');
  }
  const found = allocation.task(task);
  if (found === undefined) {
    throw new ExecRefusal(
      CLOSE_POLICY,
      `task ${JSON.stringify(task.slice(0, 40))} not found in allocation ${allocation.id}`,
    );
  }
  // a command that runs on the host (raw_exec, or any task when there is no sandbox) is a host shell
  if (
    principal !== undefined &&
    (found.driver === 'raw_exec' || ctx.sandbox === undefined) &&
    !principal.allowNamespace(allocation.namespace, 'alloc-node-exec')
  ) {
    throw new ExecRefusal(CLOSE_POLICY, 'Permission denied');
  }
  if (found.state === 'dead') {
    throw new ExecRefusal(CLOSE_POLICY, `task ${JSON.stringify(task.slice(0, 40))} is not running`);
  }
  if ((found.state === undefined || found.state === 'pending') && !existsSync(found.dir)) {
    throw new ExecRefusal(CLOSE_POLICY, `task ${JSON.stringify(task.slice(0, 40))} has not started yet`);
  }
  return { ...found, allocation };
}

/** A running session, for shutdown. */
export interface ExecSessionHandle {
  /** Settles when the socket is closed and the process is gone or being killed. */
  readonly done: Promise<void>;
  /** Kills the process and closes the socket with 1001 (going away). */
  stop(): void;
}

/** Delivers a client frame to the running command (stdin with backpressure, close, resize). */
function dispatchFrame(
  proc: ExecProcess,
  socket: ExecSocket,
  flow: { inputPaused: boolean },
  message: ExecClientMessage,
): void {
  switch (message.kind) {
    case 'stdin':
      if (!proc.write(message.data) && !flow.inputPaused && socket.pause !== undefined) {
        flow.inputPaused = true;
        socket.pause();
        proc.onDrain(() => {
          flow.inputPaused = false;
          socket.resume?.();
        });
      }
      return;
    case 'stdin-close':
      proc.endInput();
      return;
    case 'resize':
      proc.resize(message.width, message.height);
      return;
    case 'heartbeat':
    case 'auth':
      return;
  }
}

/**
 * Serves one exec WebSocket: validates the parameters, takes the token from the headers or the
 * first frame (`ws_handshake`), checks the ACL (`alloc-exec`, plus `alloc-node-exec` for
 * `raw_exec` tasks and for every task when there is no sandbox) or the loopback rule, runs the
 * command in the task directory (inside the sandbox but for `raw_exec` tasks; on a real
 * pseudo-terminal with `tty`), relays every frame of both tables, and ends with the `exited`
 * frame and a normal close. Failures close with 1008 (client problem) or 1011 (server fault),
 * the message as the reason.
 *
 * @param socket - The accepted WebSocket.
 * @param request - Allocation ID, query, headers and local address.
 * @param ctx - ACL, allocation lookup, heartbeat and handshake settings.
 * @returns A handle to stop the session.
 */
export function serveExecSession(
  socket: ExecSocket,
  request: ExecRequest,
  ctx: ExecContext,
): ExecSessionHandle {
  let finished = false;
  let proc: ExecProcess | undefined;
  let outputPaused = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let handshakeTimer: NodeJS.Timeout | undefined;
  let handshake: ((message: ExecClientMessage) => void) | undefined;
  const pending: ExecClientMessage[] = [];
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });

  const cleanup = (): void => {
    finished = true;
    clearInterval(heartbeat);
    clearTimeout(handshakeTimer);
    handshake = undefined;
    pending.length = 0;
  };

  const end = (code: number, reason: string): void => {
    if (finished) return;
    cleanup();
    proc?.kill();
    if (socket.readyState === OPEN) socket.close(code, closeReason(reason));
    resolveDone();
  };

  const afterSend = (): void => {
    if (outputPaused && socket.bufferedAmount < LOW_WATER) {
      outputPaused = false;
      proc?.resume();
    }
  };

  const send = (text: string): void => {
    if (socket.readyState !== OPEN) return;
    socket.send(text, afterSend);
    if (!outputPaused && socket.bufferedAmount > HIGH_WATER) {
      outputPaused = true;
      proc?.pause();
    }
  };

  const flow = { inputPaused: false };
  const dispatch = (message: ExecClientMessage): void => {
    if (proc === undefined || finished) return;
    dispatchFrame(proc, socket, flow, message);
  };

  const start = (token: string | undefined, params: ExecParams): void => {
    if (finished) return;
    try {
      const target = authorize(ctx, request, token, params.task);
      const env: Record<string, string> = {
        ...(ctx.baseEnv ?? defaultBaseEnv()),
        ...(params.tty ? { TERM: 'xterm-256color' } : {}),
        ...target.env,
      };
      const firstResize = pending.find((m) => m.kind === 'resize');
      proc = spawnExecProcess(
        {
          command: params.command,
          cwd: target.dir,
          env,
          tty: params.tty,
          ...(target.driver === 'raw_exec' || ctx.sandbox === undefined ? {} : { sandbox: ctx.sandbox }),
          ...(firstResize?.kind === 'resize'
            ? { size: { width: firstResize.width, height: firstResize.height } }
            : {}),
        },
        {
          data: (stream, data) => send(serverFrame.data(stream, data)),
          end: (stream) => send(serverFrame.close(stream)),
          exit: (exitCode) => {
            if (finished) return;
            send(serverFrame.exited(exitCode));
            cleanup();
            if (socket.readyState === OPEN) socket.close(CLOSE_NORMAL);
            resolveDone();
          },
        },
      );
    } catch (error) {
      if (error instanceof ExecRefusal) end(error.code, error.message);
      else if (ExecCommandError.is(error)) end(CLOSE_POLICY, error.message);
      else end(CLOSE_SERVER_ERROR, `exec failed: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    heartbeat = setInterval(
      () => send(serverFrame.heartbeat()),
      Math.max(1, ctx.heartbeatMs ?? DEFAULTS.heartbeatMs),
    );
    heartbeat.unref();
    for (const message of pending.splice(0)) dispatch(message);
  };

  socket.on('error', () => end(CLOSE_SERVER_ERROR, 'WebSocket error'));
  socket.on('close', () => {
    if (finished) return;
    cleanup();
    proc?.kill();
    resolveDone();
  });
  socket.on('message', (data) => {
    if (finished) return;
    const parsed = parseClientFrame(textOf(data));
    if (!parsed.ok) {
      end(CLOSE_POLICY, parsed.message);
      return;
    }
    if (handshake !== undefined) {
      handshake(parsed.message);
      return;
    }
    if (proc !== undefined) {
      dispatch(parsed.message);
      return;
    }
    if (pending.length >= MAX_PENDING_FRAMES) {
      end(CLOSE_POLICY, 'too many frames before the session started');
      return;
    }
    pending.push(parsed.message);
  });

  const parsed = parseExecParams(request.query, { region: ctx.region });
  if (!parsed.ok) {
    end(CLOSE_POLICY, parsed.message);
  } else if (parsed.params.wsHandshake) {
    handshakeTimer = setTimeout(
      () => end(CLOSE_POLICY, 'no authentication frame arrived in time (ws_handshake=true)'),
      ctx.handshakeTimeoutMs ?? 10_000,
    );
    handshake = (message) => {
      handshake = undefined;
      clearTimeout(handshakeTimer);
      if (message.kind !== 'auth') {
        end(CLOSE_POLICY, 'the first frame must be the authentication frame when ws_handshake=true');
        return;
      }
      start(message.token === '' ? undefined : message.token, parsed.params);
    };
  } else {
    start(secretFromHeaders(request.headers), parsed.params);
  }

  return {
    done,
    stop: () => end(1001, 'server shutting down'),
  };
}
