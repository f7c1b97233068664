/**
 * Connections to the LDAP directory for one login: each URL's attempt has its own
 * {@link Connections}, closed when the attempt ends (whatever the outcome), and a deadline that a
 * Node timer can hold. A URL that cannot be reached or does not answer in time is
 * {@link Unreachable}: the login tries the next one.
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { Client } from 'ldapts';
import type { LdapSettings } from './config.js';

const TLS_NAMES = { tls10: 'TLSv1', tls11: 'TLSv1.1', tls12: 'TLSv1.2', tls13: 'TLSv1.3' } as const;

/**
 * The TLS options of a connection to `host`.
 * @param settings - TLS versions, CA, client certificate.
 * @param host - The server's name or address.
 * @returns Options for `tls.connect`.
 */
export function tlsOptions(settings: LdapSettings, host: string): ConnectionOptions {
  return {
    ...(isIP(host) === 0 ? { servername: host } : {}),
    minVersion: TLS_NAMES[settings.tls_min_version],
    maxVersion: TLS_NAMES[settings.tls_max_version],
    rejectUnauthorized: !settings.insecure_tls,
    ...(settings.certificate.trim() === '' ? {} : { ca: settings.certificate }),
    ...(settings.client_tls_cert === ''
      ? {}
      : { cert: settings.client_tls_cert, key: settings.client_tls_key }),
  };
}

/**
 * The first line of an error's message.
 * @param error - Anything thrown.
 * @returns One line.
 */
export function describe(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
}

/** Longest delay a Node timer holds (2^31-1 ms); a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A delay in milliseconds for a timer: `seconds` as milliseconds, never more than a timer holds.
 * @param seconds - The duration.
 * @returns Milliseconds, at most {@link MAX_TIMER_MS}.
 */
export function timerMs(seconds: number): number {
  return Math.min(Math.max(0, seconds) * 1000, MAX_TIMER_MS);
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(3).replace(/0+$/, '')}s`;
}

/** A URL that could not be used (no connection, no answer in its share of the time): try the next. */
export class Unreachable extends Error {
  override readonly name = 'Unreachable' as const;
}

/**
 * The connections of one attempt on one URL. Closing it ends every one of them and destroys any
 * socket opened later (a step still running after its deadline), so no connection outlives it.
 */
export class Connections {
  readonly #sockets = new Set<Socket | TLSSocket>();
  readonly #clients: Client[] = [];
  #closed = false;

  /** Keeps a socket (destroyed at once when the attempt is over). */
  add(socket: Socket | TLSSocket): void {
    if (this.#closed) {
      socket.destroy();
      throw new Unreachable('the login is over');
    }
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
  }

  /** Keeps a client, to unbind it at the end. */
  track(client: Client): void {
    this.#clients.push(client);
  }

  /** Unbinds every client (the request is written, not awaited) and destroys every socket. */
  close(): void {
    this.#closed = true;
    for (const client of this.#clients) void client.unbind().catch(() => undefined);
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
  }
}

/** Opens the TCP (or TLS) connection ourselves, so that a dead URL is skipped before any bind. */
function openSocket(
  url: URL,
  host: string,
  port: number,
  settings: LdapSettings,
  ms: number,
  connections: Connections,
): Promise<Socket | TLSSocket> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'ldaps:';
    const socket = secure
      ? tlsConnect({ host, port, ...tlsOptions(settings, host) })
      : netConnect({ host, port });
    connections.add(socket);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Unreachable(`no answer within ${formatMs(ms)}`));
    }, ms);
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(new Unreachable(describe(error)));
    });
  });
}

/** A connection to one URL (after StartTLS when configured). */
export async function dial(
  settings: LdapSettings,
  raw: string,
  ms: number,
  connections: Connections,
): Promise<Client> {
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const secure = url.protocol === 'ldaps:';
  const port = url.port === '' ? (secure ? 636 : 389) : Number(url.port);
  const socket = await openSocket(url, host, port, settings, ms, connections);
  // ldapts reconnects by itself when its socket is gone: it gets this socket once, never another.
  let handed = false;
  const only = (() => {
    if (handed) throw new Unreachable('connection closed');
    handed = true;
    return socket;
  }) as unknown as typeof netConnect;
  const client = new Client({
    url: `${url.protocol}//${url.host}`,
    timeout: ms,
    connectTimeout: ms,
    strictDN: false,
    createConnection: only,
    createSecureConnection: (secure ? only : tlsConnect) as typeof tlsConnect,
  });
  connections.track(client);
  if (settings.starttls && !secure) {
    try {
      await client.startTLS(tlsOptions(settings, host));
    } catch (error) {
      throw new Unreachable(describe(error));
    }
  }
  return client;
}

/**
 * Waits for a login's work on one URL for `ms`; past it, the attempt is {@link Unreachable}.
 * @param ms - Its share of the time.
 * @param work - The login on that URL.
 * @param signal - Aborted when the caller gives up: then {@link CallerGone}.
 * @returns What the work returns.
 */
export async function within<T>(ms: number, work: Promise<T>, signal?: AbortSignal): Promise<T> {
  // After the deadline the work may still fail on its own (its sockets are destroyed): ignored.
  work.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Unreachable(`did not answer within ${formatMs(ms)}`)), ms);
    onAbort = () => reject(new CallerGone('the client went away before the login ended'));
    if (signal?.aborted === true) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }
}

/** The caller of a login gave up (closed its connection): the login stops, no URL is tried more. */
export class CallerGone extends Error {
  override readonly name = 'CallerGone' as const;
}
