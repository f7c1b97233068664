import type { RawData, WebSocket } from 'ws';

/** Largest stream message accepted, in bytes (the socket is closed on a larger one). */
export const MAX_STREAM_MESSAGE = 64 * 1024;
/** Most messages a peer may send per second before its stream is closed (a heartbeat is one per interval). */
export const MAX_MESSAGES_PER_SECOND = 1000;
/** Most bytes queued for a peer that does not read before its stream is closed. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/** Close code sent when a peer breaks the stream's rules (flooding, oversized or malformed messages). */
export const CLOSE_POLICY = 1008;
/** Close code sent when the peering was deleted. */
export const CLOSE_TERMINATED = 4010;
/** Close code sent when a newer stream of the same peering replaces this one. */
export const CLOSE_REPLACED = 4000;

/** The stream's timestamps of one peering, milliseconds since the epoch (null before the first). */
export interface StreamTimes {
  /** Last heartbeat received. */
  readonly lastHeartbeat: number | null;
  /** Last message received. */
  readonly lastReceive: number | null;
  /** Last message sent. */
  readonly lastSend: number | null;
}

/** What the hub tells its owner. */
export interface StreamHubEvents {
  /** A stream of the peering is up. */
  readonly onOpen: (peeringId: string) => void;
  /** The peer says it deleted the peering. */
  readonly onPeerTerminated: (peeringId: string) => void;
  /** The stream of the peering is down (the dialing side reconnects). */
  readonly onClose: (peeringId: string) => void;
}

/** Options of {@link createStreamHub}. */
export interface StreamHubOptions extends StreamHubEvents {
  /** Interval of heartbeats, in milliseconds. */
  readonly heartbeatMs: number;
  /** Clock. @defaultValue `Date.now` */
  readonly now?: () => number;
}

/** The live streams of a server: at most one per peering, one heartbeat timer for them all. */
export interface StreamHub {
  /**
   * Takes over a socket as the stream of a peering (closing an older one) and sends a heartbeat.
   * @param peeringId - This side's peering ID.
   * @param socket - An open WebSocket.
   */
  attach(peeringId: string, socket: WebSocket): void;
  /**
   * Tells the peer the peering is deleted and closes the stream, if one is up.
   * @param peeringId - This side's peering ID.
   * @returns Whether a stream was up to carry it.
   */
  terminate(peeringId: string): boolean;
  /**
   * Whether the peering's stream is up.
   * @param peeringId - This side's peering ID.
   */
  isOpen(peeringId: string): boolean;
  /**
   * The stream times of a peering (all null when it never had a stream).
   * @param peeringId - This side's peering ID.
   */
  times(peeringId: string): StreamTimes;
  /**
   * Closes the stream of a peering (without telling the peer anything), keeping its times.
   * @param peeringId - This side's peering ID.
   */
  disconnect(peeringId: string): void;
  /**
   * Forgets a peering: closes its stream and drops its times.
   * @param peeringId - This side's peering ID.
   */
  forget(peeringId: string): void;
  /** Number of streams up. */
  readonly open: number;
  /** Closes every stream and stops the timer. */
  close(): void;
}

interface Entry {
  socket: WebSocket | undefined;
  lastHeartbeat: number | null;
  lastReceive: number | null;
  lastSend: number | null;
  /** Messages received in the current one-second window. */
  received: number;
  windowStart: number;
}

const HEARTBEAT = JSON.stringify({ type: 'heartbeat' });
const TERMINATED = JSON.stringify({ type: 'terminated' });
const NO_TIMES: StreamTimes = { lastHeartbeat: null, lastReceive: null, lastSend: null };

/**
 * Reads one stream message: `{"type": "heartbeat"}` or `{"type": "terminated"}`.
 * @param data - The frame's payload.
 * @param isBinary - Whether it was a binary frame.
 * @returns The type, or undefined for anything else.
 */
export function readStreamMessage(data: RawData, isBinary: boolean): 'heartbeat' | 'terminated' | undefined {
  if (isBinary) return undefined;
  const text = Array.isArray(data)
    ? Buffer.concat(data).toString('utf8')
    : Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString('utf8');
  if (text.length > 256) return undefined;
  try {
    const type = (JSON.parse(text) as { type?: unknown } | null)?.type;
    return type === 'heartbeat' || type === 'terminated' ? type : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Creates the stream hub of a server.
 *
 * @remarks
 * Both sides send a heartbeat at once when a stream comes up and then every `heartbeatMs`, from
 * one timer for all streams (200 peerings cost one timer, not 200). A stream that received nothing
 * for three intervals is cut, and the dialing side reconnects. Memory per stream is bounded: a
 * message over {@link MAX_STREAM_MESSAGE} bytes is refused by the socket, messages are handled as
 * they arrive (nothing is queued), a peer sending more than {@link MAX_MESSAGES_PER_SECOND} per
 * second or an unknown message is disconnected with 1008, and a peer that does not read is
 * disconnected once {@link MAX_BUFFERED_BYTES} wait for it.
 *
 * @param options - Heartbeat interval, clock and callbacks.
 * @returns The hub.
 */
export function createStreamHub(options: StreamHubOptions): StreamHub {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  let open = 0;

  const entryOf = (peeringId: string): Entry => {
    let entry = entries.get(peeringId);
    if (entry === undefined) {
      entry = {
        socket: undefined,
        lastHeartbeat: null,
        lastReceive: null,
        lastSend: null,
        received: 0,
        windowStart: 0,
      };
      entries.set(peeringId, entry);
    }
    return entry;
  };

  const send = (entry: Entry, socket: WebSocket, text: string): void => {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      socket.terminate();
      return;
    }
    socket.send(text);
    entry.lastSend = now();
  };

  const tick = (): void => {
    const t = now();
    for (const entry of entries.values()) {
      const socket = entry.socket;
      if (socket === undefined) continue;
      if (entry.lastReceive !== null && t - entry.lastReceive > 3 * options.heartbeatMs + 1000) {
        socket.terminate();
        continue;
      }
      send(entry, socket, HEARTBEAT);
    }
  };
  const timer = setInterval(tick, options.heartbeatMs);
  timer.unref();

  return {
    get open() {
      return open;
    },
    attach(peeringId, socket) {
      const entry = entryOf(peeringId);
      const previous = entry.socket;
      entry.socket = socket;
      open += 1;
      if (previous !== undefined) previous.close(CLOSE_REPLACED, 'replaced by a newer stream');
      entry.lastReceive = now();
      socket.on('message', (data, isBinary) => {
        if (entry.socket !== socket) return;
        const t = now();
        if (t - entry.windowStart >= 1000) {
          entry.windowStart = t;
          entry.received = 0;
        }
        entry.received += 1;
        if (entry.received > MAX_MESSAGES_PER_SECOND) {
          socket.close(CLOSE_POLICY, 'too many messages');
          return;
        }
        const type = readStreamMessage(data, isBinary);
        if (type === undefined) {
          socket.close(CLOSE_POLICY, 'unknown message');
          return;
        }
        entry.lastReceive = t;
        if (type === 'heartbeat') entry.lastHeartbeat = t;
        else options.onPeerTerminated(peeringId);
      });
      socket.on('error', () => socket.terminate());
      socket.once('close', () => {
        open -= 1;
        if (entry.socket !== socket) return;
        entry.socket = undefined;
        options.onClose(peeringId);
      });
      options.onOpen(peeringId);
      send(entry, socket, HEARTBEAT);
    },
    terminate(peeringId) {
      const entry = entries.get(peeringId);
      const socket = entry?.socket;
      if (entry === undefined || socket === undefined || socket.readyState !== socket.OPEN) return false;
      send(entry, socket, TERMINATED);
      entry.socket = undefined;
      socket.close(CLOSE_TERMINATED, 'peering deleted');
      return true;
    },
    isOpen: (peeringId) => entries.get(peeringId)?.socket !== undefined,
    times(peeringId) {
      const entry = entries.get(peeringId);
      if (entry === undefined) return NO_TIMES;
      return { lastHeartbeat: entry.lastHeartbeat, lastReceive: entry.lastReceive, lastSend: entry.lastSend };
    },
    disconnect(peeringId) {
      const entry = entries.get(peeringId);
      const socket = entry?.socket;
      if (entry === undefined || socket === undefined) return;
      entry.socket = undefined;
      socket.close(CLOSE_TERMINATED, 'peering deleted');
    },
    forget(peeringId) {
      const entry = entries.get(peeringId);
      if (entry === undefined) return;
      entries.delete(peeringId);
      const socket = entry.socket;
      entry.socket = undefined;
      socket?.close(CLOSE_TERMINATED, 'peering deleted');
    },
    close() {
      clearInterval(timer);
      for (const entry of entries.values()) {
        const socket = entry.socket;
        entry.socket = undefined;
        socket?.terminate();
      }
    },
  };
}
