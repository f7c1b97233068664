import type { Transport } from '@sked/http';
import type { TypedEvent } from '@sked/model';
import { isRetryable, sleep } from '@sked/query';

import { InvalidRequestError } from './errors.js';
import { quote } from '@sked/http';

/**
 * Options of {@link streamEvents} (`client.events`).
 * @since 0.1.0
 */
export interface EventStreamOptions {
  /**
   * Index to start from: the stream begins with the first buffered batch whose index is at least
   * this one (the oldest buffered batch when it has left the server's buffer). `0` replays the
   * whole buffer. To resume after an event you processed, pass its `Index + 1`.
   * @defaultValue 0
   */
  readonly index?: number;
  /**
   * Topics to subscribe to, each `Topic` or `Topic:filterKey` (`Job:web` follows one job; a key
   * matches an event's `Key` or one of its `FilterKeys`). `*` is every topic.
   * @defaultValue every topic (needs a management token when ACLs are on)
   */
  readonly topics?: readonly string[];
  /**
   * Namespace of the events; `*` for every namespace.
   * @defaultValue the transport's namespace, else the server's default (`default`)
   */
  readonly namespace?: string;
  /**
   * Ends the iteration: the pending `next()` rejects with the signal's reason, the connection is
   * closed and no reconnection follows.
   * @defaultValue never aborted
   */
  readonly signal?: AbortSignal;
  /**
   * Milliseconds without any byte (events or heartbeat) after which the connection counts as dead
   * and is replaced. The server sends a heartbeat every 10 s by default. Time the consumer spends
   * on an event does not count.
   * @defaultValue 30000
   */
  readonly heartbeatTimeout?: number;
  /**
   * First delay before reconnecting after a failure, doubled per consecutive failure (half of it
   * random jitter).
   * @defaultValue 500
   */
  readonly backoffMs?: number;
  /**
   * Largest delay between reconnections.
   * @defaultValue 30000
   */
  readonly maxBackoffMs?: number;
  /**
   * Consecutive failed connections after which the last error is thrown. A connection that
   * delivered a line resets the count. Client errors (400, 403, 404) are thrown at once.
   * @defaultValue Infinity
   */
  readonly maxRetries?: number;
  /**
   * Called before each reconnection, with the reason and the index the next connection asks for.
   * @defaultValue none
   */
  readonly onReconnect?: (info: EventStreamReconnect) => void;
  /**
   * Random source of the jitter, in [0, 1).
   * @defaultValue Math.random
   */
  readonly random?: () => number;
}

/**
 * What {@link EventStreamOptions.onReconnect} receives.
 * @since 0.1.0
 */
export interface EventStreamReconnect {
  /** Consecutive failures so far (1 for the first). */
  readonly attempt: number;
  /** Milliseconds until the next connection. */
  readonly delayMs: number;
  /** Index the next connection starts from (last index seen + 1, or the initial index). */
  readonly index: number;
  /** Why the previous connection ended: an error, or `undefined` when the server closed it cleanly. */
  readonly error: unknown;
}

const heartbeatBrand = Symbol.for('@sked/scheduler-client/HeartbeatTimeoutError');

/**
 * The reason a connection of the event stream is replaced when neither events nor heartbeats
 * arrived for {@link EventStreamOptions.heartbeatTimeout} milliseconds. Reported through
 * {@link EventStreamOptions.onReconnect}, and thrown when the retry budget runs out.
 * @since 0.1.0
 */
export class HeartbeatTimeoutError extends Error {
  /** Always `"HeartbeatTimeoutError"`. */
  override readonly name = 'HeartbeatTimeoutError' as const;
  /** The silence that was not tolerated, in milliseconds. */
  readonly timeoutMs: number;

  /**
   * Creates the error.
   * @param timeoutMs - The heartbeat timeout that elapsed.
   */
  constructor(timeoutMs: number) {
    super(`The event stream sent nothing for ${timeoutMs} ms, so the connection is considered dead.`);
    this.timeoutMs = timeoutMs;
    Object.defineProperty(this, heartbeatBrand, { value: true });
  }

  /**
   * Tells whether a value is a {@link HeartbeatTimeoutError}, even from another copy of this package.
   * @param value - Any value.
   * @returns `true` for a {@link HeartbeatTimeoutError}.
   */
  static is(value: unknown): value is HeartbeatTimeoutError {
    return typeof value === 'object' && value !== null && heartbeatBrand in value;
  }
}

/** Largest line accepted from the stream: 64 MiB. */
const MAX_LINE_CHARS = 64 * 1024 * 1024;

function checkOptions(options: EventStreamOptions): void {
  const { index, topics, heartbeatTimeout } = options;
  if (index !== undefined && (!Number.isSafeInteger(index) || index < 0)) {
    throw new InvalidRequestError(
      `The event stream index must be a non-negative integer, but got ${quote(index)}.`,
      'index',
      index,
    );
  }
  if (topics !== undefined) {
    if (!Array.isArray(topics)) {
      throw new InvalidRequestError(
        `The event stream topics must be an array of "Topic" or "Topic:key" strings, but got ${quote(topics)}.`,
        'topics',
        topics,
      );
    }
    for (const topic of topics as unknown[]) {
      if (typeof topic !== 'string' || !/^[^:]+(:[^:]+)?$/.test(topic)) {
        throw new InvalidRequestError(
          `The event stream topic ${quote(topic)} is not of the form "Topic" or "Topic:key".`,
          'topics',
          topic,
        );
      }
    }
  }
  if (heartbeatTimeout !== undefined && (!Number.isFinite(heartbeatTimeout) || heartbeatTimeout <= 0)) {
    throw new InvalidRequestError(
      `The heartbeat timeout must be a positive number of milliseconds, but got ${quote(heartbeatTimeout)}.`,
      'heartbeatTimeout',
      heartbeatTimeout,
    );
  }
}

interface Envelope {
  readonly Index?: unknown;
  readonly Events?: unknown;
}

/** Reads lines of a byte stream, resetting `onActivity` on every chunk. */
async function* readLines(
  body: ReadableStream<Uint8Array>,
  onActivity: () => void,
): AsyncGenerator<string, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let rest = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      onActivity();
      rest += decoder.decode(value, { stream: true });
      let at = rest.indexOf('\n');
      while (at >= 0) {
        const line = rest.slice(0, at);
        rest = rest.slice(at + 1);
        if (line.trim() !== '') yield line;
        at = rest.indexOf('\n');
      }
      if (rest.length > MAX_LINE_CHARS) {
        throw new Error(`The event stream sent a line longer than ${MAX_LINE_CHARS} characters.`);
      }
    }
  } finally {
    // Not awaited: the caller aborts the connection right after, and a cancel must never hold up
    // the consumer's `break`.
    reader.cancel().catch(() => undefined);
  }
}

function parseEnvelope(line: string): { index: number; events: TypedEvent[] } | undefined {
  const value = JSON.parse(line) as Envelope;
  if (typeof value !== 'object' || value === null) {
    throw new Error(`The event stream sent a line that is not a JSON object: ${line.slice(0, 80)}`);
  }
  if (value.Events === undefined || (Array.isArray(value.Events) && value.Events.length === 0)) {
    return undefined;
  }
  if (typeof value.Index !== 'number' || !Array.isArray(value.Events)) {
    throw new Error(
      `The event stream sent a batch without a numeric Index and an Events array: ${line.slice(0, 80)}`,
    );
  }
  // Not validated (see the README's Limits): the events are what the service sends, typed by topic.
  return { index: value.Index, events: value.Events as TypedEvent[] };
}

/**
 * Follows the event stream (`GET /v1/event/stream`) as an async iterable of events, hiding
 * heartbeats.
 *
 * @remarks
 * The events are `TypedEvent`s of `@sked/model`: testing `Topic` narrows `Payload`
 * (`if (event.Topic === 'Job') event.Payload.Job.ID`), and `isEventOf(event, topic)` checks the
 * topic and its payload key at run time. Events of a topic this version does not know are yielded
 * unchanged, as an `UnknownTopicEvent`. Payloads are not validated.
 *
 * When the connection drops (network error, server restart, 5xx, or no byte for
 * `heartbeatTimeout`), the iterable reconnects after a backoff from the last index seen + 1, and
 * skips any batch at or below that index, so no event is lost or repeated as long as the server
 * still buffers it (a server restart or a very long outage can leave a gap the service cannot
 * fill). A server whose `X-Svc-Index` went below the last index seen lost its state (a
 * restart): the stream then continues with what it sends. 400 and 403 answers are thrown at once. Breaking out of the loop closes the connection.
 *
 * @param transport - The transport of the scheduling service.
 * @param options - Start index, topics, namespace, signal, heartbeat timeout, retry policy.
 * @returns An async iterable of events in index order, typed by topic.
 * @throws (from the first `next()`, never synchronously) {@link InvalidRequestError} for a bad
 * index, topic or timeout, before any request; `ApiError` for a 4xx answer or after `maxRetries`
 * failures; the signal's reason on abort.
 * @example
 * ```ts
 * const controller = new AbortController();
 * for await (const event of client.events({ topics: ['Job:web'], signal: controller.signal })) {
 *   if (event.Topic === 'Job') console.log(event.Index, event.Type, event.Payload.Job.Status);
 * }
 * ```
 * @since 0.1.0
 */
export function streamEvents(
  transport: Transport,
  options: EventStreamOptions = {},
): AsyncIterable<TypedEvent> {
  const heartbeatTimeout = options.heartbeatTimeout ?? 30_000;
  const backoffMs = options.backoffMs ?? 500;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const maxRetries = options.maxRetries ?? Number.POSITIVE_INFINITY;
  const random = options.random ?? Math.random;
  const signal = options.signal;

  async function* run(): AsyncGenerator<TypedEvent, void, undefined> {
    checkOptions(options);
    let lastIndex = 0;
    let nextIndex = options.index ?? 0;
    let failures = 0;
    for (;;) {
      signal?.throwIfAborted();
      const connection = new AbortController();
      const connectionSignal =
        signal === undefined ? connection.signal : AbortSignal.any([signal, connection.signal]);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = (): void => {
        clearTimeout(timer);
        timer = setTimeout(
          () => connection.abort(new HeartbeatTimeoutError(heartbeatTimeout)),
          heartbeatTimeout,
        );
      };
      let endedBy: unknown;
      let delivered = false;
      try {
        arm();
        const query: Record<string, string | number | readonly string[]> = { index: nextIndex };
        if (options.topics !== undefined && options.topics.length > 0) query['topic'] = options.topics;
        if (options.namespace !== undefined) query['namespace'] = options.namespace;
        const { data: body, meta } = await transport.request<ReadableStream<Uint8Array>>({
          path: '/v1/event/stream',
          query,
          parse: 'stream',
          signal: connectionSignal,
        });
        // A server whose index is below the last one seen lost its state (a restart of an
        // in-memory server): its indexes start again, so nothing it sends is a repeat.
        if (meta.index !== undefined && meta.index < lastIndex) lastIndex = 0;
        for await (const line of readLines(body, arm)) {
          delivered = true;
          const batch = parseEnvelope(line);
          if (batch === undefined || batch.index <= lastIndex) continue;
          lastIndex = batch.index;
          nextIndex = lastIndex + 1;
          // The watchdog is for the connection, not for the consumer: it does not run while the
          // consumer holds an event (a slow consumer is the server's to disconnect, and then
          // the stream resumes).
          clearTimeout(timer);
          for (const event of batch.events) yield event;
          arm();
        }
      } catch (error) {
        if (signal?.aborted === true) throw signal.reason;
        endedBy = connection.signal.aborted ? connection.signal.reason : error;
        if (!HeartbeatTimeoutError.is(endedBy) && !isRetryable(endedBy)) throw endedBy;
      } finally {
        clearTimeout(timer);
        connection.abort();
      }
      failures = delivered ? 1 : failures + 1;
      if (failures > maxRetries)
        throw endedBy ?? new Error('The event stream ended and the retry budget ran out.');
      const base = Math.min(maxBackoffMs, backoffMs * 2 ** (failures - 1));
      const delayMs = delivered && endedBy === undefined ? 0 : Math.round(base / 2 + (base / 2) * random());
      options.onReconnect?.({ attempt: failures, delayMs, index: nextIndex, error: endedBy });
      await sleep(delayMs, signal);
    }
  }

  return { [Symbol.asyncIterator]: () => run() };
}
