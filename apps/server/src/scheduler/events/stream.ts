import type { EventSubscription } from './broker.js';

/** The part of a writable (an HTTP response) the stream writer uses. */
export interface StreamOutput {
  write(chunk: string): boolean;
  end(): unknown;
  destroy(error?: Error): unknown;
  cork(): void;
  uncork(): void;
  once(event: 'drain' | 'close', listener: () => void): unknown;
  removeListener(event: 'drain' | 'close', listener: () => void): unknown;
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
  /** Bytes written but not yet taken by the socket (Node's writables); absent counts as 0. */
  readonly writableLength?: number;
}

/** How an event stream ended. */
export type StreamEnd =
  /** The client went away. */
  | 'client-closed'
  /** The subscriber was too slow for the buffer and was disconnected. */
  | 'lagged'
  /** The broker (server) shut down; the response was ended cleanly. */
  | 'shutdown'
  /** {@link EventStreamHandle.stop} was called. */
  | 'stopped';

/** A running stream. */
export interface EventStreamHandle {
  /** Settles when the stream ends, with the reason. */
  readonly done: Promise<StreamEnd>;
  /** Ends the response cleanly and closes the subscription. */
  stop(): void;
}

/**
 * Most bytes a subscriber's response may hold that its socket has not taken: past that, whatever
 * `write` answered, the subscriber is disconnected (`lagged`) and resumes from its index when it
 * reconnects. A subscriber that does not read costs its socket's buffers plus at most this.
 */
export const MAX_QUEUED_BYTES = 256 * 1024;

/** Largest string handed to one `write` when several batches are waiting. */
const WRITE_CHUNK = 64 * 1024;

/** The heartbeat line: an empty JSON object. */
export const HEARTBEAT_LINE = '{}\n';

/**
 * Pumps a subscription into `out` as newline-delimited JSON: a heartbeat `{}` at once and every
 * `heartbeatMs`, then each batch as one line.
 *
 * Backpressure: when `out.write` returns false nothing more is written (heartbeats included) until
 * `drain`. Batches stay in the broker's shared buffer meanwhile; if the unread ones leave it the
 * subscription turns `lagged` and the connection is destroyed, so a client that stops reading
 * costs at most one socket buffer.
 */
export function pipeEventStream(
  subscription: EventSubscription,
  out: StreamOutput,
  options: { readonly heartbeatMs: number; readonly maxQueuedBytes?: number },
): EventStreamHandle {
  const maxQueued = options.maxQueuedBytes ?? MAX_QUEUED_BYTES;
  let draining = false;
  let finished = false;
  let scheduled: NodeJS.Immediate | undefined;
  let resolveDone: (end: StreamEnd) => void = () => undefined;
  const done = new Promise<StreamEnd>((resolve) => {
    resolveDone = resolve;
  });

  const onDrain = (): void => {
    draining = false;
    pump();
  };
  const onClose = (): void => finish('client-closed');

  const finish = (end: StreamEnd): void => {
    if (finished) return;
    finished = true;
    clearInterval(timer);
    if (scheduled !== undefined) clearImmediate(scheduled);
    subscription.onChange(() => undefined);
    subscription.close();
    out.removeListener('drain', onDrain);
    out.removeListener('close', onClose);
    if (end === 'lagged' || (draining && end !== 'client-closed')) out.destroy();
    else if (end !== 'client-closed' && !out.writableEnded && !out.destroyed) out.end();
    resolveDone(end);
  };

  const write = (chunk: string): void => {
    if (finished) return;
    const more = out.write(chunk);
    if ((out.writableLength ?? 0) > maxQueued) {
      finish('lagged');
      return;
    }
    if (!more) {
      draining = true;
      out.once('drain', onDrain);
    }
  };

  function pump(): void {
    if (finished || draining) return;
    if (out.destroyed) {
      finish('client-closed');
      return;
    }
    // Lines are joined into writes of up to WRITE_CHUNK characters: one HTTP chunk and one
    // socket write for many small batches.
    let pending = '';
    let end: StreamEnd | undefined;
    out.cork();
    try {
      while (!draining && !finished) {
        const next = subscription.read();
        if (next.kind === 'line') {
          pending += next.line;
          if (pending.length >= WRITE_CHUNK) {
            write(pending);
            pending = '';
          }
          continue;
        }
        if (next.kind === 'lagged') end = 'lagged';
        else if (next.kind === 'closed') end = 'shutdown';
        break;
      }
      if (pending !== '' && end !== 'lagged' && !finished) write(pending);
    } finally {
      if (!out.destroyed) out.uncork();
    }
    if (end !== undefined && !finished) finish(end);
  }

  const timer = setInterval(
    () => {
      if (!finished && !draining && !out.destroyed) write(HEARTBEAT_LINE);
    },
    Math.max(1, options.heartbeatMs),
  );
  timer.unref();

  out.once('close', onClose);

  // Publishes come in bursts: pump once per turn of the event loop, so that the batches of a
  // burst leave in one corked write instead of one write (and one syscall) each.
  const schedule = (): void => {
    scheduled ??= setImmediate(() => {
      scheduled = undefined;
      pump();
    });
  };
  subscription.onChange(() => {
    if (subscription.state === 'lagged') finish('lagged');
    else if (subscription.state === 'closed') finish('shutdown');
    else if (!draining) schedule();
  });
  write(HEARTBEAT_LINE);
  pump();

  return { done, stop: () => finish('stopped') };
}
