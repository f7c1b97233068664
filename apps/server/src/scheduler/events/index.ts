/**
 * The event stream of the scheduling service: a bounded broker of recent batches fed by the
 * cluster's writes, topic and filter-key matching, and `GET /v1/event/stream`.
 *
 * @packageDocumentation
 */
export type {
  EventBroker,
  EventBrokerOptions,
  EventBrokerStats,
  EventSubscription,
  SubscriptionRead,
} from './broker.js';
export { createEventBroker } from './broker.js';
export type { EventStreamContext } from './route.js';
export { DEFAULT_EVENT_HEARTBEAT_MS, parseStreamIndex, registerEventStreamRoute } from './route.js';
export type { EventStreamHandle, StreamEnd, StreamOutput } from './stream.js';
export { HEARTBEAT_LINE, pipeEventStream } from './stream.js';
export type { ParseTopicsResult, TopicFilter, TopicRequirement } from './topics.js';
export { ALL_TOPICS, matchesEvent, parseTopics, topicRequirements } from './topics.js';
export type { EventBatch, StreamEvent } from './types.js';
