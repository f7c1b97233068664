import { PeeringState } from '@sked/model';
import { WebSocket } from 'ws';
import { badRequest, HttpError } from '../http/errors.js';
import { callPeer, MAX_PEER_ANSWER, PeerCallError, type PeerAnswer } from './peer-http.js';
import type { StoredPeering } from './store.js';
import { MAX_STREAM_MESSAGE, type StreamHub } from './streams.js';

/** Path of the establishment exchange on the accepting server. */
export const EXCHANGE_PATH = '/v1/internal/peering/exchange';
/** Path of the stream (WebSocket) on the accepting server. */
export const STREAM_PATH = '/v1/internal/peering/stream';
/** Path the dialing side calls to say it deleted the peering while the stream was down. */
export const TERMINATE_PATH = '/v1/internal/peering/terminate';
/** Header naming the accepting side's peering ID on stream and terminate calls. */
export const PEERING_ID_HEADER = 'x-mesh-peering-id';

/** Body of the establishment exchange, sent by the dialing side. */
export interface ExchangeRequest {
  /** The accepting side's peering ID (from the token). */
  readonly PeerID: string;
  /** The token's one-time secret. */
  readonly EstablishmentSecret: string;
  /** The dialing side's new peering ID. */
  readonly ID: string;
  /** The dialing side's server name. */
  readonly ServerName: string;
  /** The dialing side's addresses. */
  readonly ServerAddresses: readonly string[];
  /** Where the dialing side lives. */
  readonly Remote: { readonly Partition: string; readonly Datacenter: string };
}

/** Time limits of establishment, in milliseconds. */
export interface ExchangeLimits {
  /** Per address tried. */
  readonly perAddressMs: number;
  /** For the whole establishment, all addresses included. */
  readonly totalMs: number;
}

/** Default establishment limits: 2 s per address, 5 s in all. */
export const DEFAULT_EXCHANGE_LIMITS: ExchangeLimits = { perAddressMs: 2000, totalMs: 5000 };

/**
 * Proves the token's secret to the accepting server: tries its addresses in order until one
 * answers, within the time limits. Each call's connection is closed when its answer is read, when
 * its time is up, when its answer passes {@link MAX_PEER_ANSWER} bytes or when `signal` aborts.
 * @param addresses - The token's addresses.
 * @param body - The exchange request.
 * @param limits - Time limits.
 * @param signal - The caller gives up (the establish request's client went away, the server stops).
 * @returns The stream secret the accepting side issued.
 * @throws 400 when no address answers in time (naming each address and why) or the accepting side
 * refuses (quoting its reason); 503 when `signal` aborts.
 */
export async function exchange(
  addresses: readonly string[],
  body: ExchangeRequest,
  limits: ExchangeLimits = DEFAULT_EXCHANGE_LIMITS,
  signal?: AbortSignal,
): Promise<string> {
  const deadline = Date.now() + limits.totalMs;
  const failures: string[] = [];
  const payload = JSON.stringify(body);
  for (const address of addresses) {
    const left = deadline - Date.now();
    if (left <= 0) {
      failures.push(`${address}: not tried, out of time`);
      continue;
    }
    let answer: PeerAnswer;
    try {
      answer = await callPeer({
        address,
        method: 'POST',
        path: EXCHANGE_PATH,
        headers: { 'content-type': 'application/json' },
        body: payload,
        timeoutMs: Math.min(limits.perAddressMs, left),
        maxBytes: MAX_PEER_ANSWER,
        signal,
      });
    } catch (error) {
      if (error instanceof PeerCallError && error.reason === 'aborted') {
        throw new HttpError(
          503,
          'The establishment was cancelled: the client went away or the server is stopping',
        );
      }
      failures.push(`${address}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const text = answer.text.slice(0, 500);
    if (answer.status === 200) {
      let secret: unknown;
      try {
        secret = (JSON.parse(text) as { StreamSecret?: unknown }).StreamSecret;
      } catch {
        secret = undefined;
      }
      if (typeof secret === 'string' && secret !== '') return secret;
      failures.push(`${address}: the answer is not a peering exchange (is it a mesh service address?)`);
      continue;
    }
    if (answer.status === 400 || answer.status === 403) {
      throw badRequest(
        `The peer cluster refused the establishment: ${text.trim() || `status ${answer.status}`}`,
      );
    }
    failures.push(`${address}: status ${answer.status} (is it a mesh service address?)`);
  }
  throw badRequest(`Could not reach the peer cluster at the token's addresses: ${failures.join('; ')}`);
}

/** What the dialer asks its owner. */
export interface DialerOptions {
  /** The stream hub that takes over an open socket. */
  readonly hub: StreamHub;
  /** The current value of a peering, or undefined once it is gone. */
  readonly getPeering: (id: string) => StoredPeering | undefined;
  /** The accepting side answered that the peering is deleted (410) or unknown (404). */
  readonly onGone: (id: string) => void;
  /** First reconnect delay in milliseconds; doubles per failure. @defaultValue 100 */
  readonly baseMs?: number;
  /** Longest reconnect delay in milliseconds. @defaultValue 5000 */
  readonly maxMs?: number;
}

/** The dialing side's connection loops, one per peering. */
export interface Dialer {
  /**
   * Starts (or restarts) the loop of a peering: opens its stream, or, for a deleted peering,
   * delivers the deletion; retries with backoff until done or stopped.
   * @param id - This side's peering ID.
   */
  start(id: string): void;
  /**
   * Stops the loop of a peering.
   * @param id - This side's peering ID.
   */
  stop(id: string): void;
  /** Stops every loop. */
  close(): void;
}

type Outcome = 'open' | 'gone' | 'failed' | 'delivered';

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Creates the dialer.
 * @param options - Hub, lookups and backoff.
 * @returns The dialer.
 */
export function createDialer(options: DialerOptions): Dialer {
  const baseMs = options.baseMs ?? 100;
  const maxMs = options.maxMs ?? 5000;
  const loops = new Map<string, AbortController>();

  const authHeaders = (peering: StoredPeering): Record<string, string> => ({
    [PEERING_ID_HEADER]: peering.PeerID,
    authorization: `Bearer ${peering.streamSecret ?? ''}`,
  });

  const deliverTermination = async (
    peering: StoredPeering,
    address: string,
    signal: AbortSignal,
  ): Promise<Outcome> => {
    try {
      const answer = await callPeer({
        address,
        method: 'POST',
        path: TERMINATE_PATH,
        headers: authHeaders(peering),
        timeoutMs: 2000,
        signal,
      });
      return answer.status === 200 || answer.status === 404 || answer.status === 410 ? 'delivered' : 'failed';
    } catch {
      return 'failed';
    }
  };

  const openStream = (
    peering: StoredPeering,
    address: string,
    signal: AbortSignal,
  ): Promise<{ outcome: Outcome; socket?: WebSocket }> =>
    new Promise((resolve) => {
      const socket = new WebSocket(`ws://${address}${STREAM_PATH}`, {
        headers: authHeaders(peering),
        handshakeTimeout: 2000,
        maxPayload: MAX_STREAM_MESSAGE,
        perMessageDeflate: false,
      });
      const abort = (): void => socket.terminate();
      signal.addEventListener('abort', abort, { once: true });
      const finish = (outcome: Outcome, open?: WebSocket): void => {
        signal.removeEventListener('abort', abort);
        resolve(open === undefined ? { outcome } : { outcome, socket: open });
      };
      socket.once('open', () => finish('open', socket));
      socket.once('unexpected-response', (request, response) => {
        const status = response.statusCode ?? 0;
        response.resume();
        request.destroy();
        finish(status === 404 || status === 410 ? 'gone' : 'failed');
      });
      socket.once('error', () => finish('failed'));
    });

  const run = async (id: string, signal: AbortSignal): Promise<void> => {
    let attempt = 0;
    while (!signal.aborted) {
      const peering = options.getPeering(id);
      if (peering === undefined || peering.role !== 'dialer' || peering.streamSecret === null) return;
      const addresses = peering.PeerServerAddresses ?? [];
      if (addresses.length === 0) return;
      const address = addresses[attempt % addresses.length] as string;
      if (peering.State === PeeringState.Terminated) {
        if ((await deliverTermination(peering, address, signal)) === 'delivered') return;
      } else {
        const { outcome, socket } = await openStream(peering, address, signal);
        if (signal.aborted) {
          socket?.terminate();
          return;
        }
        if (outcome === 'gone') {
          options.onGone(id);
          return;
        }
        if (socket !== undefined) {
          const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
          const openedAt = Date.now();
          options.hub.attach(id, socket);
          await closed;
          if (Date.now() - openedAt > 5000) attempt = -1;
        }
      }
      attempt += 1;
      const delay = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 16));
      await sleep(delay / 2 + Math.random() * (delay / 2), signal);
    }
  };

  return {
    start(id) {
      loops.get(id)?.abort();
      const controller = new AbortController();
      loops.set(id, controller);
      void run(id, controller.signal).finally(() => {
        if (loops.get(id) === controller) loops.delete(id);
      });
    },
    stop(id) {
      loops.get(id)?.abort();
      loops.delete(id);
    },
    close() {
      for (const controller of loops.values()) controller.abort();
      loops.clear();
    },
  };
}
