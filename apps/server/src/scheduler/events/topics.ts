import { EventTopic } from '@sked/model';
import type { StreamEvent } from './types.js';

/**
 * The topics of one subscription: topic name (or `*` for every topic) to the keys that select
 * events of it (`*` for every key). Built by {@link parseTopics}.
 */
export type TopicFilter = ReadonlyMap<string, ReadonlySet<string>>;

/** Every topic, every key: what a request without `topic` subscribes to. */
export const ALL_TOPICS: TopicFilter = new Map([[EventTopic.All, new Set(['*'])]]);

/** The result of {@link parseTopics}: the filter, or the sentence of a 400 answer. */
export type ParseTopicsResult = { ok: true; topics: TopicFilter } | { ok: false; message: string };

/**
 * Parses the repeated `topic` query parameter: each value is `Topic` (every key, same as
 * `Topic:*`) or `Topic:filterKey`. No value at all means every topic (`*:*`).
 */
export function parseTopics(raw: unknown): ParseTopicsResult {
  if (raw === undefined) return { ok: true, topics: ALL_TOPICS };
  const values = Array.isArray(raw) ? (raw as unknown[]) : [raw];
  if (values.length === 0) return { ok: true, topics: ALL_TOPICS };
  const topics = new Map<string, Set<string>>();
  for (const value of values) {
    if (typeof value !== 'string') {
      return { ok: false, message: `Invalid topic ${JSON.stringify(value)}: expected a string.` };
    }
    const parts = value.split(':');
    if (parts.length > 2) {
      return {
        ok: false,
        message: `Invalid key value pair for topic ${JSON.stringify(value)}: expected Topic or Topic:key.`,
      };
    }
    const topic = parts[0] ?? '';
    const key = parts.length === 2 ? (parts[1] ?? '') : '*';
    if (topic === '') {
      return { ok: false, message: `Invalid topic ${JSON.stringify(value)}: the topic name is empty.` };
    }
    if (key === '') {
      return { ok: false, message: `Invalid topic ${JSON.stringify(value)}: the filter key is empty.` };
    }
    let keys = topics.get(topic);
    if (keys === undefined) {
      keys = new Set();
      topics.set(topic, keys);
    }
    keys.add(key);
  }
  return { ok: true, topics };
}

function keysMatch(keys: ReadonlySet<string> | undefined, event: StreamEvent): boolean {
  if (keys === undefined) return false;
  if (keys.has('*') || keys.has(event.Key)) return true;
  if (event.FilterKeys !== null) {
    for (const key of event.FilterKeys) if (keys.has(key)) return true;
  }
  return false;
}

/**
 * Whether a subscriber to `topics` in `namespace` receives `event`.
 *
 * The namespace matches when it is `*`, when it equals the event's, or when the event has no
 * namespace (node events). The topic matches by name or through `*`; its key matches when the
 * subscription's key is `*`, the event's `Key` or one of its `FilterKeys`.
 */
export function matchesEvent(topics: TopicFilter, namespace: string, event: StreamEvent): boolean {
  if (namespace !== '*' && event.Namespace !== '' && event.Namespace !== namespace) return false;
  return keysMatch(topics.get(event.Topic), event) || keysMatch(topics.get(EventTopic.All), event);
}

/** What a token needs to subscribe to a topic (spec document 2, "Authentication"). */
export type TopicRequirement =
  | { readonly kind: 'management' }
  | { readonly kind: 'namespace'; readonly capability: 'read-job'; readonly namespace: string }
  | { readonly kind: 'node'; readonly level: 'read' };

const READ_JOB_TOPICS = new Set<string>([
  EventTopic.Job,
  EventTopic.Allocation,
  EventTopic.Deployment,
  EventTopic.Evaluation,
  EventTopic.Service,
]);
const NODE_TOPICS = new Set<string>([EventTopic.Node, EventTopic.NodeDrain]);

/**
 * The ACL requirements of a subscription, one per distinct need: `*` and the ACL and node pool
 * topics (and any topic the spec does not list) need a management token; Job, Allocation,
 * Deployment, Evaluation and Service need `read-job` in the namespace (every namespace for `*`);
 * Node and NodeDrain need `node:read`.
 */
export function topicRequirements(topics: TopicFilter, namespace: string): TopicRequirement[] {
  const out: TopicRequirement[] = [];
  let management = false;
  let readJob = false;
  let node = false;
  for (const topic of topics.keys()) {
    if (READ_JOB_TOPICS.has(topic)) readJob = true;
    else if (NODE_TOPICS.has(topic)) node = true;
    else management = true;
  }
  if (management) out.push({ kind: 'management' });
  if (readJob) out.push({ kind: 'namespace', capability: 'read-job', namespace });
  if (node) out.push({ kind: 'node', level: 'read' });
  return out;
}
