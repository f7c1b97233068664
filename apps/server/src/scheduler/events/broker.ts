import { matchesEvent, type TopicFilter } from './topics.js';
import type { EventBatch, StreamEvent } from './types.js';

/** Options of {@link createEventBroker}. */
export interface EventBrokerOptions {
  /**
   * How many batches (writes of the cluster) the buffer keeps for new and lagging subscribers.
   * @defaultValue 1024
   */
  readonly bufferSize?: number;
  /**
   * How many events, across all kept batches, the buffer keeps at most; the oldest batches go
   * first. Keeps memory bounded when single writes produce many events.
   * @defaultValue 65536
   */
  readonly maxBufferedEvents?: number;
}

/** What {@link EventSubscription.read} returns. */
export type SubscriptionRead =
  /** The next batch holding events for this subscriber, as one ndjson line. */
  | { readonly kind: 'line'; readonly index: number; readonly line: string }
  /** Caught up: nothing to send until the next publish. */
  | { readonly kind: 'idle' }
  /** The buffer dropped batches this subscriber had not read yet: it must be disconnected. */
  | { readonly kind: 'lagged' }
  /** The subscription or the broker was closed. */
  | { readonly kind: 'closed' };

/** One reader of the broker. It holds a cursor into the shared buffer and nothing else. */
export interface EventSubscription {
  /** `open`, `lagged` (fell out of the buffer; disconnect it) or `closed`. */
  readonly state: 'open' | 'lagged' | 'closed';
  /** Index of the last batch returned by {@link EventSubscription.read}, 0 before the first. */
  readonly lastIndex: number;
  /** Returns the next batch with events for this subscriber, without waiting. */
  read(): SubscriptionRead;
  /** Calls `listener` after each publish, on lag and on close (one listener; a new one replaces it). */
  onChange(listener: () => void): void;
  /** Detaches the subscription from the broker. */
  close(): void;
}

/** Counters of the broker, for tests and the benchmark. */
export interface EventBrokerStats {
  readonly bufferedBatches: number;
  readonly bufferedEvents: number;
  readonly subscribers: number;
  /** Index of the oldest batch kept, 0 when empty. */
  readonly oldestIndex: number;
  /** Index of the newest batch published, 0 before the first. */
  readonly newestIndex: number;
  /** Subscribers disconnected because they fell out of the buffer. */
  readonly lagged: number;
}

/** The event broker: a bounded buffer of recent batches and the subscriptions reading it. */
export interface EventBroker {
  /**
   * Appends a batch. Empty batches and batches whose index is not above the newest one are
   * ignored (the cluster's writes advance the index, so neither happens in practice).
   */
  publish(batch: EventBatch): void;
  /**
   * Starts a subscription at the first kept batch with `Index >= index` (the oldest kept one when
   * `index` has left the buffer; only new batches when it is above the newest), reading the
   * events of `topics` in `namespace`.
   */
  subscribe(options: {
    readonly index: number;
    readonly topics: TopicFilter;
    readonly namespace: string;
    /** Keeps only the events this returns true for (the subscriber's ACL, checked per event). */
    readonly allow?: (event: StreamEvent) => boolean;
  }): EventSubscription;
  /** Current counters. */
  stats(): EventBrokerStats;
  /** Closes every subscription; later subscriptions start closed. */
  close(): void;
}

interface Entry {
  readonly index: number;
  readonly events: readonly StreamEvent[];
  /** JSON of each event, made on first use and shared by every subscriber. */
  readonly encoded: (string | undefined)[];
  /** The line holding every event of the batch, made on first use. */
  full: string | undefined;
}

type SubscriptionState = EventSubscription['state'];

interface Cursor {
  state: SubscriptionState;
  lastIndex: number;
  /** Sequence number of the next entry to read. */
  seq: number;
  listener: (() => void) | undefined;
}

function encodedEvent(entry: Entry, i: number): string {
  let json = entry.encoded[i];
  if (json === undefined) {
    json = JSON.stringify(entry.events[i]);
    entry.encoded[i] = json;
  }
  return json;
}

function lineFor(
  entry: Entry,
  topics: TopicFilter,
  namespace: string,
  all: boolean,
  allow: ((event: StreamEvent) => boolean) | undefined,
): string | undefined {
  if (all && allow === undefined) {
    if (entry.full === undefined) {
      const parts = entry.events.map((_, i) => encodedEvent(entry, i));
      entry.full = `{"Index":${entry.index},"Events":[${parts.join(',')}]}\n`;
    }
    return entry.full;
  }
  const parts: string[] = [];
  for (let i = 0; i < entry.events.length; i += 1) {
    const event = entry.events[i];
    if (
      event !== undefined &&
      matchesEvent(topics, namespace, event) &&
      (allow === undefined || allow(event))
    )
      parts.push(encodedEvent(entry, i));
  }
  if (parts.length === 0) return undefined;
  if (parts.length === entry.events.length) {
    entry.full ??= `{"Index":${entry.index},"Events":[${parts.join(',')}]}\n`;
    return entry.full;
  }
  return `{"Index":${entry.index},"Events":[${parts.join(',')}]}\n`;
}

function isAllTopics(topics: TopicFilter, namespace: string): boolean {
  return namespace === '*' && topics.size === 1 && topics.get('*')?.has('*') === true;
}

/**
 * Creates an event broker. Memory is bounded by the buffer: a subscription holds only a cursor,
 * and one whose unread batches leave the buffer turns `lagged` and is to be disconnected.
 */
export function createEventBroker(options: EventBrokerOptions = {}): EventBroker {
  const capacity = Math.max(1, Math.floor(options.bufferSize ?? 1024));
  const maxEvents = Math.max(1, Math.floor(options.maxBufferedEvents ?? 65536));
  const ring: (Entry | undefined)[] = Array.from({ length: capacity }, () => undefined);
  let firstSeq = 0;
  let nextSeq = 0;
  let bufferedEvents = 0;
  let newestIndex = 0;
  let lagged = 0;
  let closed = false;
  const cursors = new Set<Cursor>();

  const entryAt = (seq: number): Entry | undefined => ring[seq % capacity];

  const evictOldest = (): void => {
    const entry = entryAt(firstSeq);
    if (entry !== undefined) bufferedEvents -= entry.events.length;
    ring[firstSeq % capacity] = undefined;
    firstSeq += 1;
  };

  /** First sequence number whose batch index is >= index (nextSeq when none). */
  const seek = (index: number): number => {
    let lo = firstSeq;
    let hi = nextSeq;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const entry = entryAt(mid);
      if (entry !== undefined && entry.index < index) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const publish = (batch: EventBatch): void => {
    if (closed || batch.Events.length === 0 || batch.Index <= newestIndex) return;
    newestIndex = batch.Index;
    if (nextSeq - firstSeq === capacity) evictOldest();
    ring[nextSeq % capacity] = {
      index: batch.Index,
      events: batch.Events,
      encoded: Array.from({ length: batch.Events.length }, () => undefined),
      full: undefined,
    };
    nextSeq += 1;
    bufferedEvents += batch.Events.length;
    while (bufferedEvents > maxEvents && nextSeq - firstSeq > 1) evictOldest();
    for (const cursor of cursors) {
      if (cursor.seq < firstSeq) markLagged(cursor);
      cursor.listener?.();
    }
  };

  const markLagged = (cursor: Cursor): void => {
    cursor.state = 'lagged';
    lagged += 1;
    cursors.delete(cursor);
  };

  const subscribe: EventBroker['subscribe'] = ({ index, topics, namespace, allow }) => {
    const all = isAllTopics(topics, namespace);
    const cursor: Cursor = {
      state: closed ? 'closed' : 'open',
      lastIndex: 0,
      seq: seek(index),
      listener: undefined,
    };
    if (!closed) cursors.add(cursor);
    return {
      get state() {
        return cursor.state;
      },
      get lastIndex() {
        return cursor.lastIndex;
      },
      onChange(listener) {
        cursor.listener = listener;
      },
      read() {
        if (cursor.state !== 'open') return { kind: cursor.state };
        if (cursor.seq < firstSeq) {
          markLagged(cursor);
          return { kind: 'lagged' };
        }
        while (cursor.seq < nextSeq) {
          const entry = entryAt(cursor.seq);
          cursor.seq += 1;
          if (entry === undefined) continue;
          const line = lineFor(entry, topics, namespace, all, allow);
          if (line !== undefined) {
            cursor.lastIndex = entry.index;
            return { kind: 'line', index: entry.index, line };
          }
        }
        return { kind: 'idle' };
      },
      close() {
        if (cursor.state === 'open') cursor.state = 'closed';
        cursors.delete(cursor);
      },
    };
  };

  return {
    publish,
    subscribe,
    stats: () => ({
      bufferedBatches: nextSeq - firstSeq,
      bufferedEvents,
      subscribers: cursors.size,
      oldestIndex: entryAt(firstSeq)?.index ?? 0,
      newestIndex,
      lagged,
    }),
    close() {
      closed = true;
      const open = [...cursors];
      cursors.clear();
      for (const cursor of open) {
        cursor.state = 'closed';
        cursor.listener?.();
      }
    },
  };
}
