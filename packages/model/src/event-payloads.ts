/**
 * The payload of each topic of the event stream: the object an event is about, wrapped in one key
 * named after it (`{ Job: ... }`, `{ Allocation: ... }`, `{ Node: ... }`).
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { Allocation } from './allocation.js';
import { Deployment } from './deployment.js';
import { EventTopic } from './event.js';
import { Evaluation } from './evaluation.js';
import { Job } from './job.js';
import { SchedulerJobType } from './job-types.js';
import { Node } from './node.js';

/**
 * Payload of events of the `Node` and `NodeDrain` topics (spec document 2, "Event envelope").
 *
 * @since 0.1.0
 */
export const NodeEventPayload = Type.Object({
  /** The node. */
  Node: Node,
});
/** A value matching the {@link NodeEventPayload} schema. */
export type NodeEventPayload = Static<typeof NodeEventPayload>;

/** An object whose fields the spec does not show (the topics this project does not emit). */
const FreeForm = Type.Record(Type.String(), Type.Unknown());

/**
 * The payload schema of every topic of {@link EventTopic} (`*` aside): `EventPayload[event.Topic]`
 * validates an event's payload with {@link validate}. The spec shows the fields of a node only;
 * the job, allocation, evaluation and deployment are the model's, and the topics this project
 * does not emit carry a free-form object under their key.
 *
 * @example
 * ```ts
 * import { EventPayload, validate, type Event } from '@sked/model';
 *
 * declare const event: Event;
 * if (event.Topic === 'Allocation' && !validate(EventPayload.Allocation, event.Payload).ok) {
 *   console.warn('an allocation event this client cannot read', event.Key);
 * }
 * ```
 * @since 0.2.0
 */
export const EventPayload = {
  /** `{ ACLToken }`: the token, free-form. */
  ACLToken: Type.Object({ ACLToken: FreeForm }),
  /** `{ ACLPolicy }`: the policy, free-form. */
  ACLPolicy: Type.Object({ ACLPolicy: FreeForm }),
  /** `{ ACLRole }`: the role, free-form. */
  ACLRole: Type.Object({ ACLRole: FreeForm }),
  /** `{ Allocation }`: the allocation without its `Job` (events leave it out, as lists do). */
  Allocation: Type.Object({ Allocation: Type.Omit(Allocation, ['Job']) }),
  /** `{ Job }`: the job as stored, whose `Type` may be `system` (see {@link SchedulerJob}). */
  Job: Type.Object({ Job: Type.Object({ ...Job.properties, Type: Type.Enum(SchedulerJobType) }) }),
  /** `{ Evaluation }`. */
  Evaluation: Type.Object({ Evaluation: Evaluation }),
  /** `{ Deployment }`. */
  Deployment: Type.Object({ Deployment: Deployment }),
  /** `{ Node }`. */
  Node: NodeEventPayload,
  /** `{ Node }`: a node drain carries the node. */
  NodeDrain: NodeEventPayload,
  /** `{ NodePool }`: the node pool, free-form. */
  NodePool: Type.Object({ NodePool: FreeForm }),
  /** `{ Service }`: the service registration, free-form. */
  Service: Type.Object({ Service: FreeForm }),
} as const;

const { All: _subscriptionOnly, ...topics } = EventTopic;

/**
 * The key each topic's payload wraps its object in: the topic's name, but `Node` for `NodeDrain`.
 *
 * @since 0.2.0
 */
export const EventPayloadKey = { ...topics, NodeDrain: EventTopic.Node } as const satisfies {
  readonly [T in keyof typeof EventPayload]: keyof Static<(typeof EventPayload)[T]>;
};
