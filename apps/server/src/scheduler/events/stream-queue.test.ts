// A subscriber that does not read costs its socket's buffers plus a bounded queue: past that bound
// it is dropped, whatever `write` answers, and its reconnect resumes from its index.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';

import { createEventBroker } from './broker.js';
import { pipeEventStream, type StreamOutput } from './stream.js';
import { ALL_TOPICS } from './topics.js';
import type { EventBatch } from './types.js';

/** A response whose socket takes nothing: every write is queued (and `write` still says go on). */
function stuckOutput() {
  const emitter = new EventEmitter();
  const chunks: string[] = [];
  const out: StreamOutput & { chunks: string[]; writableLength: number } = {
    chunks,
    writableLength: 0,
    destroyed: false,
    writableEnded: false,
    write(chunk) {
      chunks.push(chunk);
      out.writableLength += Buffer.byteLength(chunk);
      return true;
    },
    end: () => undefined,
    destroy() {
      (out as { destroyed: boolean }).destroyed = true;
      emitter.emit('close');
    },
    cork: () => undefined,
    uncork: () => undefined,
    once: (event, listener) => emitter.once(event, listener),
    removeListener: (event, listener) => emitter.removeListener(event, listener),
  };
  return out;
}

const batch = (index: number, size: number): EventBatch => ({
  Index: index,
  Events: [
    {
      Topic: 'Job',
      Type: 'JobRegistered',
      Key: 'j',
      Namespace: 'default',
      FilterKeys: null,
      Index: index,
      Payload: { Job: { Meta: { m: 'x'.repeat(size) } } } as never,
    },
  ],
});

describe('pipeEventStream: a bounded queue per subscriber', () => {
  it('drops a subscriber whose unsent bytes pass the bound, and its reconnect resumes from its index', async () => {
    const broker = createEventBroker();
    const out = stuckOutput();
    const stream = pipeEventStream(broker.subscribe({ index: 0, topics: ALL_TOPICS, namespace: '*' }), out, {
      heartbeatMs: 60_000,
      maxQueuedBytes: 100_000,
    });
    for (let i = 1; i <= 40; i++) {
      broker.publish(batch(i, 10_000));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await stream.done).toBe('lagged');
    expect(out.destroyed).toBe(true);
    expect(out.writableLength).toBeLessThanOrEqual(100_000 + 70_000); // the bound plus one write at most
    const seen = out.chunks
      .join('')
      .split('\n')
      .filter((line) => line !== '' && line !== '{}')
      .map((line) => (JSON.parse(line) as EventBatch).Index);
    const last = seen.at(-1) ?? 0;
    expect(last).toBeLessThan(40);
    // the client reconnects with the index after the last it read: nothing lost, nothing twice
    const again = stuckOutput();
    pipeEventStream(broker.subscribe({ index: last + 1, topics: ALL_TOPICS, namespace: '*' }), again, {
      heartbeatMs: 60_000,
      maxQueuedBytes: Number.POSITIVE_INFINITY,
    });
    const resumed = again.chunks
      .join('')
      .split('\n')
      .filter((line) => line !== '' && line !== '{}')
      .map((line) => (JSON.parse(line) as EventBatch).Index);
    expect([...seen, ...resumed]).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    broker.close();
  });

  it('a subscriber whose socket keeps up is never dropped', async () => {
    const broker = createEventBroker();
    const out = stuckOutput();
    const stream = pipeEventStream(broker.subscribe({ index: 0, topics: ALL_TOPICS, namespace: '*' }), out, {
      heartbeatMs: 60_000,
      maxQueuedBytes: 100_000,
    });
    for (let i = 1; i <= 40; i++) {
      broker.publish(batch(i, 10_000));
      await new Promise((resolve) => setImmediate(resolve));
      out.writableLength = 0; // the socket took everything
    }
    stream.stop();
    expect(await stream.done).toBe('stopped');
    broker.close();
  });
});
