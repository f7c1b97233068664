/**
 * Exec WebSockets naming another member's region: the client's socket (already accepted by the
 * exec route) is joined to a `ws` client socket opened to the member, frames are relayed both ways
 * as they are (text or binary) with backpressure, and each side's close code and reason reach the
 * other. The member checks the token (sent unchanged, in the headers or the first frame).
 */
import { WebSocket, type RawData } from 'ws';
import { closeReason, type ExecSocket } from '../exec/index.js';
import { forwardedHeaders, HOP_HEADER, networkReason } from './forward.js';
import type { MemberTable } from './table.js';

/** Close codes of the exec protocol. */
const CLOSE_POLICY = 1008;
const CLOSE_SERVER_ERROR = 1011;
/** Bytes queued towards one side before the other side is paused. */
const HIGH_WATER = 1024 * 1024;
/** Frames held while the member's socket opens. */
const MAX_EARLY_FRAMES = 256;
/** Time for the member's WebSocket handshake. */
export const RELAY_HANDSHAKE_MS = 5000;

/** What the relay reads of the exec request. */
export interface RelayRequest {
  /** Path and query, as the client sent them. */
  readonly url: string;
  readonly query: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** The relays of a member. */
export interface ExecRelays {
  /**
   * Takes over an exec socket that names another member's region.
   * @param socket - The client's accepted socket.
   * @param request - Its request.
   * @returns Whether the socket is relayed (false: serve it here, which refuses another region).
   */
  relay(this: void, socket: ExecSocket, request: RelayRequest): boolean;
  /** Ends every relay (server shutting down, code 1001). */
  closeAll(): void;
}

/** A close code that may be sent in a close frame (RFC 6455 section 7.4): others become 1011. */
function sendable(code: number): boolean {
  return (
    (code >= 1000 && code <= 1014 && ![1004, 1005, 1006].includes(code)) || (code >= 3000 && code <= 4999)
  );
}

function closeWith(
  socket: { close(code?: number, reason?: string): void },
  code: number,
  reason: string,
  lost: string,
): void {
  if (code === 1005) socket.close();
  else if (sendable(code)) socket.close(code, closeReason(reason));
  else socket.close(CLOSE_SERVER_ERROR, closeReason(reason === '' ? lost : reason));
}

function firstValue(value: unknown): unknown {
  return Array.isArray(value) ? (value[0] as unknown) : value;
}

/**
 * Creates the relays of a member.
 * @param region - This member's region.
 * @param table - The membership table.
 * @returns The relays.
 */
export function createExecRelays(region: string, table: MemberTable): ExecRelays {
  const open = new Set<() => void>();
  return {
    relay(client, request) {
      // the region as the exec parameters read it (the first value)
      const named = firstValue(request.query['region']);
      if (typeof named !== 'string' || named === '' || named === region) return false;
      if (request.headers[HOP_HEADER] !== undefined) {
        client.close(
          CLOSE_SERVER_ERROR,
          closeReason(`Region ${JSON.stringify(named)} is not served by this member`),
        );
        return true;
      }
      const member = table.get(named);
      if (member === undefined) return false;
      const label = JSON.stringify(member.Region);
      const url = `${member.Address.replace(/^http/, 'ws')}${request.url}`;
      const upstream = new WebSocket(url, {
        headers: forwardedHeaders(request.headers as Record<string, string | string[] | undefined>, region),
        handshakeTimeout: RELAY_HANDSHAKE_MS,
        perMessageDeflate: false,
        maxPayload: 2 * 1024 * 1024,
      });
      const early: { data: RawData; binary: boolean }[] = [];
      let done = false;
      const finish = (): void => {
        done = true;
        open.delete(shutdown);
      };
      function shutdown(): void {
        if (done) return;
        finish();
        client.close(1001, 'server shutting down');
        upstream.close(1001, 'server shutting down');
      }
      open.add(shutdown);
      const relayed = client as unknown as WebSocket;
      const pipe = (from: WebSocket, to: WebSocket) => (data: RawData, binary: boolean) => {
        if (to.readyState !== WebSocket.OPEN) return;
        to.send(data, { binary }, () => {
          if (from.isPaused && to.bufferedAmount < HIGH_WATER / 4) from.resume();
        });
        if (to.bufferedAmount > HIGH_WATER) from.pause();
      };
      relayed.on('message', (data: RawData, binary: boolean) => {
        if (upstream.readyState === WebSocket.OPEN) return pipe(relayed, upstream)(data, binary);
        if (early.length >= MAX_EARLY_FRAMES) {
          finish();
          upstream.terminate();
          client.close(CLOSE_POLICY, 'too many frames before the session started');
          return undefined;
        }
        early.push({ data, binary });
        return undefined;
      });
      upstream.on('open', () => {
        for (const frame of early.splice(0)) upstream.send(frame.data, { binary: frame.binary });
      });
      upstream.on('message', pipe(upstream, relayed));
      upstream.on('unexpected-response', (_req, res) => {
        const status = res.statusCode ?? 0;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < 200) text += chunk;
        });
        res.on('end', () => {
          if (done) return;
          finish();
          upstream.terminate();
          const refused = `Region ${label} refused the connection (${status})`;
          const code = status >= 400 && status < 500 ? CLOSE_POLICY : CLOSE_SERVER_ERROR;
          closeWith(client, code, text.trim() || refused, refused);
        });
        res.on('error', () => undefined);
      });
      upstream.on('error', (error) => {
        if (done) return;
        finish();
        upstream.terminate();
        client.close(
          CLOSE_SERVER_ERROR,
          closeReason(`Region ${label} is unreachable: ${networkReason(error)}`),
        );
      });
      upstream.on('close', (code: number, reason: Buffer) => {
        if (done) return;
        finish();
        closeWith(
          client,
          code,
          reason.toString('utf8'),
          `Region ${label}: the connection to its member was lost`,
        );
      });
      relayed.on('close', (code: number, reason: Buffer) => {
        if (done) return;
        finish();
        if (upstream.readyState === WebSocket.CONNECTING) upstream.terminate();
        else closeWith(upstream, code, reason.toString('utf8'), 'the client went away');
      });
      relayed.on('error', () => {
        if (done) return;
        finish();
        upstream.terminate();
      });
      return true;
    },
    closeAll() {
      // a shutdown removes itself from the set: iterating on is safe
      for (const shutdown of open) shutdown();
    },
  };
}
