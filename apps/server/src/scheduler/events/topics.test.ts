import { fc, test } from '@fast-check/vitest';
import { PROTOTYPE_NAMES } from '@sked/testkit';
import { describe, expect, it } from 'vitest';
import { ALL_TOPICS, matchesEvent, parseTopics, topicRequirements, type TopicFilter } from './topics.js';
import type { StreamEvent } from './types.js';

function parsed(raw: unknown): TopicFilter {
  const result = parseTopics(raw);
  if (!result.ok) throw new Error(result.message);
  return result.topics;
}

function asObject(filter: TopicFilter): Record<string, string[]> {
  return Object.fromEntries([...filter].map(([topic, keys]) => [topic, [...keys].sort()]));
}

const sample: StreamEvent = {
  Topic: 'Allocation',
  Type: 'AllocationUpdated',
  Key: 'alloc-1',
  Namespace: 'default',
  FilterKeys: ['web', 'eval-1'],
  Index: 7,
  Payload: {},
};

describe('parseTopics', () => {
  it.each([
    [undefined, { '*': ['*'] }],
    [[], { '*': ['*'] }],
    ['Job', { Job: ['*'] }],
    ['Job:*', { Job: ['*'] }],
    ['Job:web', { Job: ['web'] }],
    [['Job:web', 'Job:db', 'Node'], { Job: ['db', 'web'], Node: ['*'] }],
    ['*:web', { '*': ['web'] }],
  ])('parses %j', (raw, expected) => {
    expect(asObject(parsed(raw))).toEqual(expected);
  });

  it.each([
    ['Job:a:b', 'Invalid key value pair for topic "Job:a:b": expected Topic or Topic:key.'],
    ['', 'Invalid topic "": the topic name is empty.'],
    [':web', 'Invalid topic ":web": the topic name is empty.'],
    ['Job:', 'Invalid topic "Job:": the filter key is empty.'],
    [['Job', 3], 'Invalid topic 3: expected a string.'],
  ])('rejects %j with a sentence naming it', (raw, message) => {
    expect(parseTopics(raw)).toEqual({ ok: false, message });
  });
});

describe('matchesEvent', () => {
  it.each([
    [['Allocation'], 'default', true],
    [['Allocation:alloc-1'], 'default', true],
    [['Allocation:web'], 'default', true],
    [['Allocation:db'], 'default', false],
    [['Job'], 'default', false],
    [['*:eval-1'], 'default', true],
    [['Allocation'], 'prod', false],
    [['Allocation'], '*', true],
  ])('topics %j in namespace %s -> %s', (raw, namespace, expected) => {
    expect(matchesEvent(parsed(raw), namespace, sample)).toBe(expected);
  });

  it('lets events without a namespace through any namespace filter', () => {
    expect(matchesEvent(parsed('Node'), 'prod', { ...sample, Topic: 'Node', Namespace: '' })).toBe(true);
  });

  it('matches everything with the default topics and namespace *', () => {
    expect(matchesEvent(ALL_TOPICS, '*', sample)).toBe(true);
  });
});

describe('topicRequirements', () => {
  it.each([
    [undefined, 'default', [{ kind: 'management' }]],
    [
      ['Job', 'Allocation:x', 'Deployment', 'Evaluation', 'Service'],
      'dev',
      [{ kind: 'namespace', capability: 'read-job', namespace: 'dev' }],
    ],
    [['Node', 'NodeDrain'], 'default', [{ kind: 'node', level: 'read' }]],
    [['ACLToken'], 'default', [{ kind: 'management' }]],
    [['NodePool'], 'default', [{ kind: 'management' }]],
    [
      ['Job', 'Node'],
      '*',
      [
        { kind: 'namespace', capability: 'read-job', namespace: '*' },
        { kind: 'node', level: 'read' },
      ],
    ],
  ])('topics %j in %s need %j', (raw, namespace, expected) => {
    expect(topicRequirements(parsed(raw), namespace)).toEqual(expected);
  });
});

describe('properties', () => {
  const name = fc.oneof(
    fc.stringMatching(/^[A-Za-z*][A-Za-z0-9-]{0,8}$/),
    fc.constantFrom(...PROTOTYPE_NAMES),
  );
  test.prop([fc.array(fc.tuple(name, fc.option(name, { nil: undefined })), { minLength: 1, maxLength: 8 })])(
    'every parsed Topic:key pair is in the filter, and nothing else',
    (pairs) => {
      const raw = pairs.map(([topic, key]) => (key === undefined ? topic : `${topic}:${key}`));
      const filter = parsed(raw);
      for (const [topic, key] of pairs) expect(filter.get(topic)?.has(key ?? '*')).toBe(true);
      const count = [...filter.values()].reduce((sum, keys) => sum + keys.size, 0);
      expect(count).toBe(new Set(raw.map((r) => (r.includes(':') ? r : `${r}:*`))).size);
    },
  );

  test.prop([fc.string()])('parseTopics never throws on any string', (value) => {
    const result = parseTopics(value);
    expect(typeof result.ok).toBe('boolean');
  });
});
