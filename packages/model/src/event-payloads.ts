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
import { lazySchema } from './internal/lazy.js';

/**
 * Payload of events of the `Node` and `NodeDrain` topics (spec document 2, "Event envelope").
 *
 * @since 0.1.0
 */
export const NodeEventPayload = lazySchema(() =>
  Type.Object({
    /** The node. */
    Node: Node,
  }),
);
/** A value matching the {@link NodeEventPayload} schema. */
export type NodeEventPayload = Static<typeof NodeEventPayload>;

/** An object whose fields the spec does not show (the topics this project does not emit). */
const FreeForm = lazySchema(() => Type.Record(Type.String(), Type.Unknown()));

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
  /** `{ ACLToken }`. */
  ACLToken: lazySchema(() =>
    Type.Object({
      /** The ACL token (free-form). */
      ACLToken: FreeForm,
    }),
  ),
  /** `{ ACLPolicy }`. */
  ACLPolicy: lazySchema(() =>
    Type.Object({
      /** The ACL policy (free-form). */
      ACLPolicy: FreeForm,
    }),
  ),
  /** `{ ACLRole }`. */
  ACLRole: lazySchema(() =>
    Type.Object({
      /** The ACL role (free-form). */
      ACLRole: FreeForm,
    }),
  ),
  /** `{ Allocation }`. */
  Allocation: lazySchema(() =>
    Type.Object({
      /** The allocation without its `Job` (events leave it out, as lists do). */
      Allocation: Type.Omit(Allocation, ['Job']),
    }),
  ),
  /** `{ Job }`. */
  Job: lazySchema(() =>
    Type.Object({
      /** The job as stored (its `MeshToken` and `SecretsToken` always `""`). */
      Job: Type.Object({
        ...Job.properties,
        /** Job type, `system` included (see {@link SchedulerJob}). */
        Type: Type.Enum(SchedulerJobType),
      }),
    }),
  ),
  /** `{ Evaluation }`. */
  Evaluation: lazySchema(() =>
    Type.Object({
      /** The evaluation. */
      Evaluation: Evaluation,
    }),
  ),
  /** `{ Deployment }`. */
  Deployment: lazySchema(() =>
    Type.Object({
      /** The deployment. */
      Deployment: Deployment,
    }),
  ),
  /** `{ Node }`. */
  Node: NodeEventPayload,
  /** `{ Node }`: a node drain carries the node. */
  NodeDrain: NodeEventPayload,
  /** `{ NodePool }`. */
  NodePool: lazySchema(() =>
    Type.Object({
      /** The node pool (free-form). */
      NodePool: FreeForm,
    }),
  ),
  /** `{ Service }`. */
  Service: lazySchema(() =>
    Type.Object({
      /** The service registration (free-form). */
      Service: FreeForm,
    }),
  ),
} as const;

const { All: _subscriptionOnly, ...topics } = EventTopic;

/**
 * The key each topic's payload wraps its object in: the topic's name, but `Node` for `NodeDrain`.
 *
 * @since 0.2.0
 */
export const EventPayloadKey = {
  ...topics,
  /** `Node`: a node drain carries the node. */
  NodeDrain: EventTopic.Node,
} as const satisfies {
  readonly [T in keyof typeof EventPayload]: keyof Static<(typeof EventPayload)[T]>;
};
