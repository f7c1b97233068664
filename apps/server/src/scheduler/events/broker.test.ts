import { fc, test } from '@fast-check/vitest';
import { PROTOTYPE_NAMES } from '@sked/testkit';
import { describe, expect, it } from 'vitest';
import { createEventBroker, type EventSubscription } from './broker.js';
import { ALL_TOPICS, parseTopics, type TopicFilter } from './topics.js';
import type { EventBatch, StreamEvent } from './types.js';

function event(index: number, overrides: Partial<StreamEvent> = {}): StreamEvent {
  return {
    Topic: 'Job',
    Type: 'JobRegistered',
    Key: `job-${index}`,
    Namespace: 'default',
    FilterKeys: null,
    Index: index,
    Payload: { Job: { ID: `job-${index}` } },
    ...overrides,
  };
}

function batch(index: number, events: StreamEvent[] = [event(index)]): EventBatch {
  return { Index: index, Events: events };
}

function drain(subscription: EventSubscription): { Index: number; Events: StreamEvent[] }[] {
  const out: { Index: number; Events: StreamEvent[] }[] = [];
  for (;;) {
    const next = subscription.read();
    if (next.kind !== 'line') return out;
    expect(next.line.endsWith('\n')).toBe(true);
    out.push(JSON.parse(next.line) as { Index: number; Events: StreamEvent[] });
  }
}

function topics(...values: string[]): TopicFilter {
  const parsed = parseTopics(values);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.topics;
}

describe('createEventBroker', () => {
  it('delivers the backlog and then new batches in index order', () => {
    // Arrange
    const broker = createEventBroker();
    broker.publish(batch(3));
    broker.publish(batch(5));
    const subscription = broker.subscribe({ index: 0, topics: ALL_TOPICS, namespace: '*' });
    // Act
    const backlog = drain(subscription);
    broker.publish(batch(9));
    const live = drain(subscription);
    // Assert
    expect(backlog.map((b) => b.Index)).toEqual([3, 5]);
    expect(live.map((b) => b.Index)).toEqual([9]);
    expect(live[0]?.Events[0]).toEqual(event(9));
    expect(subscription.lastIndex).toBe(9);
  });

  it('starts at the first batch with an index at or above the requested one', () => {
    const broker = createEventBroker();
    for (const index of [2, 4, 6, 8]) broker.publish(batch(index));
    const at = (index: number): number[] =>
      drain(broker.subscribe({ index, topics: ALL_TOPICS, namespace: '*' })).map((b) => b.Index);
    expect(at(4)).toEqual([4, 6, 8]);
    expect(at(5)).toEqual([6, 8]);
    expect(at(9)).toEqual([]);
  });

  it('starts at the oldest kept batch when the index has left the buffer', () => {
    const broker = createEventBroker({ bufferSize: 3 });
    for (let index = 1; index <= 10; index += 1) broker.publish(batch(index));
    const subscription = broker.subscribe({ index: 2, topics: ALL_TOPICS, namespace: '*' });
    expect(drain(subscription).map((b) => b.Index)).toEqual([8, 9, 10]);
  });

  it('ignores empty batches and batches whose index does not advance', () => {
    const broker = createEventBroker();
    broker.publish(batch(5));
    broker.publish({ Index: 6, Events: [] });
    broker.publish(batch(5));
    broker.publish(batch(4));
    expect(broker.stats()).toMatchObject({ bufferedBatches: 1, newestIndex: 5 });
  });

  it('filters by topic, key, filter key and namespace, leaving out batches with nothing to send', () => {
    // Arrange
    const broker = createEventBroker();
    broker.publish(
      batch(1, [event(1, { Key: 'web' }), event(1, { Topic: 'Evaluation', Key: 'e1', FilterKeys: ['web'] })]),
    );
    broker.publish(batch(2, [event(2, { Key: 'db' })]));
    broker.publish(batch(3, [event(3, { Topic: 'Node', Key: 'n1', Namespace: '' })]));
    broker.publish(batch(4, [event(4, { Key: 'web', Namespace: 'prod' })]));
    const read = (filter: TopicFilter, namespace: string): string[] =>
      drain(broker.subscribe({ index: 0, topics: filter, namespace })).flatMap((b) =>
        b.Events.map((e) => `${b.Index}:${e.Topic}:${e.Key}`),
      );
    // Act / Assert
    expect(read(topics('Job:web'), 'default')).toEqual(['1:Job:web']);
    expect(read(topics('Evaluation:web'), 'default')).toEqual(['1:Evaluation:e1']);
    expect(read(topics('*:web'), 'default')).toEqual(['1:Job:web', '1:Evaluation:e1']);
    expect(read(topics('Job'), 'default')).toEqual(['1:Job:web', '2:Job:db']);
    expect(read(topics('Node'), 'default')).toEqual(['3:Node:n1']);
    expect(read(topics('Job:web'), '*')).toEqual(['1:Job:web', '4:Job:web']);
    expect(read(topics('Job:web'), 'prod')).toEqual(['4:Job:web']);
    expect(read(topics('Deployment'), '*')).toEqual([]);
  });

  it('marks a subscriber lagged once its unread batches leave the buffer, and forgets it', () => {
    // Arrange
    const broker = createEventBroker({ bufferSize: 4 });
    const subscription = broker.subscribe({ index: 0, topics: ALL_TOPICS, namespace: '*' });
    let changes = 0;
    subscription.onChange(() => {
      changes += 1;
    });
    // Act
    for (let index = 1; index <= 4; index += 1) broker.publish(batch(index));
    const before = subscription.state;
    broker.publish(batch(5));
    // Assert
    expect(before).toBe('open');
    expect(subscription.state).toBe('lagged');
    expect(subscription.read()).toEqual({ kind: 'lagged' });
    expect(changes).toBe(5);
    expect(broker.stats()).toMatchObject({ subscribers: 0, lagged: 1 });
  });

  it('keeps a subscriber that reads as fast as the writes come open forever', () => {
    const broker = createEventBroker({ bufferSize: 2 });
    const subscription = broker.subscribe({ index: 0, topics: ALL_TOPICS, namespace: '*' });
    for (let index = 1; index <= 1000; index += 1) {
      broker.publish(batch(index));
      expect(drain(subscription).map((b) => b.Index)).toEqual([index]);
    }
    expect(subscription.state).toBe('open');
  });

  it('bounds the buffer by events as well as by batches', () => {
    const broker = createEventBroker({ bufferSize: 100, maxBufferedEvents: 10 });
    for (let index = 1; index <= 20; index += 1) {
      broker.publish(batch(index, [event(index), event(index), event(index)]));
    }
    expect(broker.stats()).toMatchObject({ bufferedBatches: 3, bufferedEvents: 9, oldestIndex: 18 });
  });

  it('keeps a batch larger than the event bound on its own', () => {
    const broker = createEventBroker({ maxBufferedEvents: 2 });
    broker.publish(batch(1, [event(1), event(1), event(1)]));
    expect(broker.stats()).toMatchObject({ bufferedBatches: 1, bufferedEvents: 3 });
  });

  it('closes every subscription on close, and later ones start closed', () => {
    const broker = createEventBroker();
    const subscription = broker.subscribe({ index: 0, topics: ALL_TOPICS, namespace: '*' });
    let notified = false;
    subscription.onChange(() => {
      notified = true;
    });
    broker.close();
    broker.publish(batch(1));
    expect(notified).toBe(true);
    expect(subscription.read()).toEqual({ kind: 'closed' });
    expect(broker.subscribe({ index: 0, topics: ALL_TOPICS, namespace: '*' }).read()).toEqual({
      kind: 'closed',
    });
    expect(broker.stats().bufferedBatches).toBe(0);
  });

  it('detaches a closed subscription', () => {
    const broker = createEventBroker();
    const subscription = broker.subscribe({ index: 0, topics: ALL_TOPICS, namespace: '*' });
    subscription.close();
    broker.publish(batch(1));
    expect(subscription.read()).toEqual({ kind: 'closed' });
    expect(broker.stats().subscribers).toBe(0);
  });
});

describe('properties', () => {
  const indexes = fc
    .uniqueArray(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 60 })
    .map((values) => [...values].sort((a, b) => a - b));

  test.prop([indexes, fc.integer({ min: 1, max: 80 })])(
    'the buffer never holds more than its size, and keeps the newest batches',
    (published, size) => {
      const broker = createEventBroker({ bufferSize: size });
      for (const index of published) broker.publish(batch(index));
      const kept = drain(broker.subscribe({ index: 0, topics: ALL_TOPICS, namespace: '*' }));
      expect(kept.map((b) => b.Index)).toEqual(published.slice(-size));
    },
  );

  test.prop([indexes, fc.nat(), fc.integer({ min: 1, max: 40 })])(
    'resuming from the last index read + 1 loses and repeats nothing while within the buffer',
    (published, cut, chunk) => {
      // Arrange: a reader that stops after `cut` batches and resumes with a new subscription
      const broker = createEventBroker({ bufferSize: 1000 });
      const received: number[] = [];
      let subscription = broker.subscribe({ index: 0, topics: ALL_TOPICS, namespace: '*' });
      let last = 0;
      // Act: publish in chunks, reconnecting after the cut
      for (let i = 0; i < published.length; i += chunk) {
        for (const index of published.slice(i, i + chunk)) broker.publish(batch(index));
        for (const b of drain(subscription)) {
          received.push(b.Index);
          last = b.Index;
          if (received.length === cut) {
            subscription.close();
            subscription = broker.subscribe({ index: last + 1, topics: ALL_TOPICS, namespace: '*' });
            break;
          }
        }
      }
      received.push(...drain(subscription).map((b) => b.Index));
      // Assert
      expect(received).toEqual(published);
    },
  );

  test.prop([
    fc.array(
      fc.record({
        topic: fc.constantFrom('Job', 'Allocation', 'Node'),
        key: fc.constantFrom('a', 'b', 'c', ...PROTOTYPE_NAMES),
        namespace: fc.constantFrom('default', 'prod', ''),
      }),
      { minLength: 1, maxLength: 30 },
    ),
    fc.subarray(['Job', 'Job:a', 'Allocation:b', 'Node', '*:c', 'Job:constructor', '*:__proto__'], {
      minLength: 1,
    }),
    fc.constantFrom('default', 'prod', '*'),
  ])('a subscriber receives exactly the matching events, each once, in order', (specs, wanted, namespace) => {
    const broker = createEventBroker();
    const filter = topics(...wanted);
    const all = specs.map((spec, i) =>
      event(i + 1, { Topic: spec.topic, Key: spec.key, Namespace: spec.namespace }),
    );
    for (const e of all) broker.publish(batch(e.Index, [e]));
    const got = drain(broker.subscribe({ index: 0, topics: filter, namespace })).flatMap((b) => b.Events);
    const expected = all.filter((e) => {
      if (namespace !== '*' && e.Namespace !== '' && e.Namespace !== namespace) return false;
      return wanted.some((w) => {
        const [t, k = '*'] = w.split(':');
        return (t === '*' || t === e.Topic) && (k === '*' || k === e.Key);
      });
    });
    expect(got).toEqual(expected);
  });
});
