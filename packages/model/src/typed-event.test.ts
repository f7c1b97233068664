import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { readFixture } from '../test/fixtures.js';
import { valueOf } from '../test/results.js';
import {
  EventEnvelope,
  EventPayload,
  EventPayloadKey,
  EventTopic,
  formatProblems,
  isEventOf,
  validate,
  type Event,
  type TypedEventTopic,
} from './index.js';

const TOPICS = Object.keys(EventPayload) as TypedEventTopic[];

const header = { Type: 'Something', Key: 'k', Namespace: 'default', FilterKeys: null, Index: 3 };
const eventOf = (Topic: string, Payload: Record<string, unknown>): Event => ({ ...header, Topic, Payload });
const envelopeEvents = (name: string): Event[] =>
  valueOf(validate(EventEnvelope, readFixture(name))).Events ?? [];
const record = (name: string): Record<string, unknown> => readFixture(name) as Record<string, unknown>;

describe('EventPayload', () => {
  it('has a schema and a payload key for every topic but *', () => {
    const topics = Object.values(EventTopic).filter((t) => t !== EventTopic.All);
    expect(Object.keys(EventPayload).sort()).toEqual([...topics].sort());
    expect(Object.keys(EventPayloadKey).sort()).toEqual([...topics].sort());
  });

  it.each(['event-envelope-job', 'event-envelope-node'])(
    'validates the payload of every event of the example %s, and isEventOf recognises it',
    (name) => {
      const events = envelopeEvents(name);
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) {
        const topic = TOPICS.find((t) => t === event.Topic);
        if (topic === undefined) throw new Error(`untyped topic ${event.Topic}`);
        const result = validate(EventPayload[topic], event.Payload);
        expect(result.ok ? '' : formatProblems(result.problems)).toBe('');
        expect(isEventOf(event, topic)).toBe(true);
      }
    },
  );

  it.each([
    ['Allocation', 'allocation'],
    ['Evaluation', 'evaluation'],
    ['Deployment', 'deployment'],
    ['Job', 'job'],
    ['NodeDrain', 'node'],
  ] as const)('validates a %s payload built from the spec example', (topic, fixture) => {
    const result = validate(EventPayload[topic], { [EventPayloadKey[topic]]: record(fixture) });
    expect(result.ok ? '' : formatProblems(result.problems)).toBe('');
  });

  it('accepts a job of type system, refuses a payload without its key, and refuses a wrong field', () => {
    const job = { ...record('job'), Type: 'system' };
    expect(validate(EventPayload.Job, { Job: job }).ok).toBe(true);
    expect(validate(EventPayload.Job, { Node: record('node') }).ok).toBe(false);
    const bad = validate(EventPayload.Allocation, {
      Allocation: { ...record('allocation'), ClientStatus: 7 },
    });
    expect(bad.ok ? [] : bad.problems.map((p) => p.path)).toContain('/Allocation/ClientStatus');
  });

  it('keeps the Event schema open: an unknown topic with any payload object still validates', () => {
    const event = eventOf('Volume', { Volume: { ID: 'v1' } });
    expect(validate(EventEnvelope, { Index: 3, Events: [event] }).ok).toBe(true);
    expect(TOPICS.some((topic) => isEventOf(event, topic))).toBe(false);
  });
});

describe('isEventOf', () => {
  it.each([
    ['the topic with its key', eventOf('Job', { Job: { ID: 'web' } }), 'Job', true],
    ['NodeDrain carrying the node', eventOf('NodeDrain', { Node: { ID: 'n1' } }), 'NodeDrain', true],
    ['another topic', eventOf('Evaluation', { Evaluation: { ID: 'e' } }), 'Job', false],
    ['the key of another topic', eventOf('Job', { Evaluation: { ID: 'e' } }), 'Job', false],
    [
      'NodeDrain keyed by its topic name',
      eventOf('NodeDrain', { NodeDrain: { ID: 'n1' } }),
      'NodeDrain',
      false,
    ],
    ['a null object', eventOf('Job', { Job: null }), 'Job', false],
    ['an array for the object', eventOf('Job', { Job: [] }), 'Job', false],
    ['a string for the object', eventOf('Job', { Job: 'web' }), 'Job', false],
    [
      'an inherited key',
      eventOf('Job', Object.create({ Job: { ID: 'web' } }) as Record<string, unknown>),
      'Job',
      false,
    ],
  ] as const)('%s: %s', (_what, event, topic, expected) => {
    expect(isEventOf(event, topic)).toBe(expected);
  });

  it.each(['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'])(
    'an event whose topic is %j is of no typed topic, even asked for that name',
    (name) => {
      const event = eventOf(
        name,
        JSON.parse(`{${JSON.stringify(name)}:{"ID":"x"}}`) as Record<string, unknown>,
      );
      expect(isEventOf(event, name as 'Job')).toBe(false);
    },
  );

  it.each([
    null,
    undefined,
    'Job',
    42,
    [],
    { Topic: 'Job' },
    { Topic: 'Job', Payload: null },
    { Topic: 'Job', Payload: [] },
  ])('is false, and does not throw, for %j', (value) => {
    expect(isEventOf(value as unknown as Event, 'Job')).toBe(false);
  });

  describe('properties', () => {
    test.prop([fc.constantFrom(...TOPICS), fc.jsonValue()])(
      'is true exactly when the payload key holds an object',
      (topic, value) => {
        const event = eventOf(topic, { [EventPayloadKey[topic]]: value });
        const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
        expect(isEventOf(event, topic)).toBe(isObject);
      },
    );

    test.prop([fc.constantFrom(...TOPICS), fc.string(), fc.dictionary(fc.string(), fc.jsonValue())])(
      'is false for every other topic',
      (topic, other, payload) => {
        fc.pre(other !== topic);
        expect(isEventOf(eventOf(other, payload), topic)).toBe(false);
      },
    );

    test.prop([fc.constantFrom(...TOPICS), fc.anything()])('never throws', (topic, value) => {
      expect(typeof isEventOf(value as Event, topic)).toBe('boolean');
    });
  });
});
