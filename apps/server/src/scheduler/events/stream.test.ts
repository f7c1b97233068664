import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEventBroker } from './broker.js';
import { HEARTBEAT_LINE, pipeEventStream, type StreamOutput } from './stream.js';
import { ALL_TOPICS } from './topics.js';
import type { EventBatch } from './types.js';

/** A writable that accepts `room` chunks before asking the writer to wait for `drain`. */
function fakeOutput(room = Number.POSITIVE_INFINITY) {
  const emitter = new EventEmitter();
  const chunks: string[] = [];
  let space = room;
  const out: StreamOutput & { chunks: string[]; ended: boolean; drain(more: number): void } = {
    chunks,
    ended: false,
    destroyed: false,
    writableEnded: false,
    write(chunk) {
      chunks.push(chunk);
      space -= 1;
      return space > 0;
    },
    end() {
      out.ended = true;
      (out as { writableEnded: boolean }).writableEnded = true;
    },
    destroy() {
      (out as { destroyed: boolean }).destroyed = true;
      emitter.emit('close');
    },
    cork: () => undefined,
    uncork: () => undefined,
    once(event, listener) {
      emitter.once(event, listener);
    },
    removeListener(event, listener) {
      emitter.removeListener(event, listener);
    },
    drain(more) {
      space = more;
      emitter.emit('drain');
    },
  };
  return out;
}

/**
 * A response whose socket takes nothing: every write is queued (`writableLength` grows) and
 * `write` still says go on.
 */
function stuckOutput() {
  const out: ReturnType<typeof fakeOutput> & { writableLength: number } = Object.assign(fakeOutput(), {
    writableLength: 0,
  });
  const write = out.write.bind(out);
  out.write = (chunk) => {
    out.writableLength += Buffer.byteLength(chunk);
    return write(chunk);
  };
  return out;
}

/** The lines written, whatever the chunking. */
function lines(chunks: readonly string[]): string[] {
  return chunks
    .join('')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => `${line}\n`);
}

const indexes = (written: readonly string[]): number[] =>
  written.filter((line) => line !== HEARTBEAT_LINE).map((line) => (JSON.parse(line) as EventBatch).Index);

/** One JobRegistered event at `index`; `padding` (a string in the job's Meta) makes it larger. */
function batch(index: number, padding?: string): EventBatch {
  return {
    Index: index,
    Events: [
      {
        Topic: 'Job',
        Type: 'JobRegistered',
        Key: 'j',
        Namespace: 'default',
        FilterKeys: null,
        Index: index,
        Payload: padding === undefined ? {} : ({ Job: { Meta: { m: padding } } } as never),
      },
    ],
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('pipeEventStream', () => {
  it('writes a heartbeat at once, the backlog, then new batches and periodic heartbeats', () => {
    // Arrange
    vi.useFakeTimers();
    const broker = createEventBroker();
    broker.publish(batch(1));
    const out = fakeOutput();
    // Act
    pipeEventStream(broker.subscribe({ index: 0, topics: ALL_TOPICS, namespace: '*' }), out, {
      heartbeatMs: 1000,
    });
    broker.publish(batch(2));
    vi.advanceTimersByTime(2500);
    // Assert
    const written = lines(out.chunks);
    expect(written[0]).toBe(HEARTBEAT_LINE);
    expect(indexes(written.slice(1, 3))).toEqual([1, 2]);
    expect(written.slice(3)).toEqual([HEARTBEAT_LINE, HEARTBEAT_LINE]);
  });

  it('stops writing when write returns false and resumes on drain', () => {
    // Arrange
    vi.useFakeTimers();
    const broker = createEventBroker();
    const out = fakeOutput(2);
    pipeEventStream(broker.subscribe({ index: 0, topics: ALL_TOPICS, namespace: '*' }), out, {
      heartbeatMs: 100,
    });
    // Act: the heartbeat and the first pumped write fill the room; nothing else may be written
    broker.publish(batch(1));
    vi.advanceTimersByTime(1);
    for (let index = 2; index <= 5; index += 1) broker.publish(batch(index));
    vi.advanceTimersByTime(1000);
    const whileBlocked = out.chunks.length;
    out.drain(Number.POSITIVE_INFINITY);
    vi.advanceTimersByTime(1);
    // Assert
    expect(whileBlocked).toBe(2);
    expect(indexes(lines(out.chunks))).toEqual([1, 2, 3, 4, 5]);
  });

  it('joins waiting batches into writes of at most about 64 KiB', () => {
    vi.useFakeTimers();
    const broker = createEventBroker({ bufferSize: 5000 });
    const out = fakeOutput();
    pipeEventStream(broker.subscribe({ index: 0, topics: ALL_TOPICS, namespace: '*' }), out, {
      heartbeatMs: 60_000,
    });
    for (let index = 1; index <= 2000; index += 1) broker.publish(batch(index));
    vi.advanceTimersByTime(1);
    expect(indexes(lines(out.chunks))).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
    expect(out.chunks.length).toBeGreaterThan(2);
    expect(out.chunks.length).toBeLessThan(20);
    expect(Math.max(...out.chunks.map((chunk) => chunk.length))).toBeLessThan(64 * 1024 + 1024);
  });

  it('destroys the connection of a subscriber whose unread batches left the buffer', async () => {
    // Arrange
    const broker = createEventBroker({ bufferSize: 3 });
    const out = fakeOutput(1);
    const stream = pipeEventStream(broker.subscribe({ index: 0, topics: ALL_TOPICS, namespace: '*' }), out, {
      heartbeatMs: 10_000,
    });
    // Act
    for (let index = 1; index <= 4; index += 1) broker.publish(batch(index));
    // Assert
    expect(await stream.done).toBe('lagged');
    expect(out.destroyed).toBe(true);
    expect(out.chunks).toEqual([HEARTBEAT_LINE]);
    expect(broker.stats().subscribers).toBe(0);
  });

  it('ends the response cleanly when the broker closes', async () => {
    const broker = createEventBroker();
    const out = fakeOutput();
    const stream = pipeEventStream(broker.subscribe({ index: 0, topics: ALL_TOPICS, namespace: '*' }), out, {
      heartbeatMs: 10_000,
    });
    broker.close();
    expect(await stream.done).toBe('shutdown');
    expect(out.ended).toBe(true);
    expect(out.destroyed).toBe(false);
  });

  it('closes the subscription when the client goes away', async () => {
    const broker = createEventBroker();
    const out = fakeOutput();
    const stream = pipeEventStream(broker.subscribe({ index: 0, topics: ALL_TOPICS, namespace: '*' }), out, {
      heartbeatMs: 10_000,
    });
    out.destroy();
    expect(await stream.done).toBe('client-closed');
    expect(broker.stats().subscribers).toBe(0);
  });

  it('stop() ends the response and detaches', async () => {
    const broker = createEventBroker();
    const out = fakeOutput();
    const stream = pipeEventStream(broker.subscribe({ index: 0, topics: ALL_TOPICS, namespace: '*' }), out, {
      heartbeatMs: 10_000,
    });
    stream.stop();
    broker.publish(batch(1));
    expect(await stream.done).toBe('stopped');
    expect(out.ended).toBe(true);
    expect(out.chunks).toEqual([HEARTBEAT_LINE]);
  });
});

// A subscriber that does not read costs its socket's buffers plus a bounded queue: past that bound
// it is dropped, whatever `write` answers, and its reconnect resumes from its index.
describe('pipeEventStream: a bounded queue per subscriber', () => {
  /**
   * Streams to a stuck socket with a bound of 100,000 bytes while 40 batches of 10 kB are
   * published, one a turn of the event loop; `afterEach` runs on the socket after each.
   */
  async function publishForty(afterEach: (out: ReturnType<typeof stuckOutput>) => void) {
    const broker = createEventBroker();
    const out = stuckOutput();
    const stream = pipeEventStream(broker.subscribe({ index: 0, topics: ALL_TOPICS, namespace: '*' }), out, {
      heartbeatMs: 60_000,
      maxQueuedBytes: 100_000,
    });
    for (let i = 1; i <= 40; i++) {
      broker.publish(batch(i, 'x'.repeat(10_000)));
      await new Promise((resolve) => setImmediate(resolve));
      afterEach(out);
    }
    return { broker, out, stream };
  }

  it('drops a subscriber whose unsent bytes pass the bound, and its reconnect resumes from its index', async () => {
    const { broker, out, stream } = await publishForty(() => undefined);
    expect(await stream.done).toBe('lagged');
    expect(out.destroyed).toBe(true);
    expect(out.writableLength).toBeLessThanOrEqual(100_000 + 70_000); // the bound plus one write at most
    const seen = indexes(lines(out.chunks));
    const last = seen.at(-1) ?? 0;
    expect(last).toBeLessThan(40);
    // the client reconnects with the index after the last it read: nothing lost, nothing twice
    const again = stuckOutput();
    pipeEventStream(broker.subscribe({ index: last + 1, topics: ALL_TOPICS, namespace: '*' }), again, {
      heartbeatMs: 60_000,
      maxQueuedBytes: Number.POSITIVE_INFINITY,
    });
    const resumed = indexes(lines(again.chunks));
    expect([...seen, ...resumed]).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    broker.close();
  });

  it('a subscriber whose socket keeps up is never dropped', async () => {
    const { broker, stream } = await publishForty((socket) => {
      socket.writableLength = 0; // the socket took everything
    });
    stream.stop();
    expect(await stream.done).toBe('stopped');
    broker.close();
  });
});
