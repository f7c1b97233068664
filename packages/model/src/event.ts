/**
 * The event stream: topics, types, events and the newline-delimited envelope.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { NullableArray, SafeInteger } from './internal/schema.js';
import { lazySchema } from './internal/lazy.js';

/**
 * Topics of the event stream. `*` subscribes to every topic.
 *
 * @since 0.1.0
 */
export const EventTopic = {
  /** Every topic (subscription only). */
  All: '*',
  /** ACL tokens. */
  ACLToken: 'ACLToken',
  /** ACL policies. */
  ACLPolicy: 'ACLPolicy',
  /** ACL roles (the spec lists it as `ACLRoles`; events carry `ACLRole`). */
  ACLRole: 'ACLRole',
  /** Allocations (payload without the job). */
  Allocation: 'Allocation',
  /** Jobs. */
  Job: 'Job',
  /** Evaluations. */
  Evaluation: 'Evaluation',
  /** Deployments. */
  Deployment: 'Deployment',
  /** Nodes. */
  Node: 'Node',
  /** Node drains. */
  NodeDrain: 'NodeDrain',
  /** Node pools. */
  NodePool: 'NodePool',
  /** Service registrations. */
  Service: 'Service',
} as const;
/** One of the values of {@link EventTopic}. */
export type EventTopic = (typeof EventTopic)[keyof typeof EventTopic];

/**
 * Types of events.
 *
 * @since 0.1.0
 */
export const EventType = {
  /** An ACL token was created or updated. */
  ACLTokenUpserted: 'ACLTokenUpserted',
  /** An ACL token was deleted. */
  ACLTokenDeleted: 'ACLTokenDeleted',
  /** An ACL policy was created or updated. */
  ACLPolicyUpserted: 'ACLPolicyUpserted',
  /** An ACL policy was deleted. */
  ACLPolicyDeleted: 'ACLPolicyDeleted',
  /** An ACL role was created or updated. */
  ACLRoleUpserted: 'ACLRoleUpserted',
  /** An ACL role was deleted. */
  ACLRoleDeleted: 'ACLRoleDeleted',
  /** An allocation was created. */
  AllocationCreated: 'AllocationCreated',
  /** An allocation changed (client status, task states). */
  AllocationUpdated: 'AllocationUpdated',
  /** An allocation's desired status changed (stop, evict). */
  AllocationUpdateDesiredStatus: 'AllocationUpdateDesiredStatus',
  /** A deployment's status changed. */
  DeploymentStatusUpdate: 'DeploymentStatusUpdate',
  /** A deployment's canaries were promoted. */
  DeploymentPromotion: 'DeploymentPromotion',
  /** The health of a deployment's allocations changed. */
  DeploymentAllocHealth: 'DeploymentAllocHealth',
  /** An evaluation was created or changed. */
  EvaluationUpdated: 'EvaluationUpdated',
  /** A job was registered or updated. */
  JobRegistered: 'JobRegistered',
  /** A job was deregistered. */
  JobDeregistered: 'JobDeregistered',
  /** Several jobs were deregistered at once. */
  JobBatchDeregistered: 'JobBatchDeregistered',
  /** A node registered. */
  NodeRegistration: 'NodeRegistration',
  /** A node deregistered. */
  NodeDeregistration: 'NodeDeregistration',
  /** A node's eligibility changed. */
  NodeEligibility: 'NodeEligibility',
  /** A node's drain changed. */
  NodeDrain: 'NodeDrain',
  /** A node event was recorded. */
  NodeEvent: 'NodeEvent',
  /** A node pool was created or updated. */
  NodePoolUpserted: 'NodePoolUpserted',
  /** A node pool was deleted. */
  NodePoolDeleted: 'NodePoolDeleted',
  /** A plan was applied. */
  PlanResult: 'PlanResult',
  /** A service was registered. */
  ServiceRegistration: 'ServiceRegistration',
  /** A service was deregistered. */
  ServiceDeregistration: 'ServiceDeregistration',
} as const;
/** One of the values of {@link EventType}. */
export type EventType = (typeof EventType)[keyof typeof EventType];

/**
 * One event of the stream.
 *
 * @remarks The payload's shape depends on the topic (`EventPayload` has the schema of each):
 * `{ Node: Node }` for `Node` and `NodeDrain`, `{ Job: Job }`, `{ Allocation: Allocation }` (without
 * `Job`), `{ Evaluation: Evaluation }`, `{ Deployment: Deployment }`. This schema accepts any topic
 * and any payload object, so events of topics a newer service adds pass; {@link TypedEvent} is its
 * static type narrowed by topic, and {@link isEventOf} checks one topic at run time.
 * @since 0.1.0
 */
export const Event = lazySchema(() =>
  Type.Object({
    /** Topic; see {@link EventTopic}. */
    Topic: Type.String(),
    /** Type; see {@link EventType}. */
    Type: Type.String(),
    /** ID of the object concerned (the node ID for `Node`, the job ID for `Job`, ...). */
    Key: Type.String(),
    /** Namespace of the object; `""` for objects without a namespace (nodes). */
    Namespace: Type.String(),
    /** Further keys a subscription's filter key is matched against (for example the job ID of an allocation); `null` when none. */
    FilterKeys: NullableArray(Type.String()),
    /** Raft index of the change that produced the event. */
    Index: SafeInteger({ minimum: 0 }),
    /** The object, wrapped in a key named after the topic (free-form here; see the remarks and `EventPayload`). */
    Payload: Type.Record(Type.String(), Type.Unknown()),
  }),
);
/** A value matching the {@link Event} schema. */
export type Event = Static<typeof Event>;

/**
 * One line of the newline-delimited event stream.
 *
 * @remarks A heartbeat that keeps the connection open is `{}` (no `Index`, no `Events`), or an envelope
 * with an empty `Events` list; both are accepted.
 * @since 0.1.0
 */
export const EventEnvelope = lazySchema(() =>
  Type.Object({
    /** Index of the message (the highest index of its events). Absent in a `{}` heartbeat. */
    Index: Type.Optional(SafeInteger({ minimum: 0 })),
    /** Events of the message. Empty or absent for a heartbeat. */
    Events: Type.Optional(Type.Array(Event)),
  }),
);
/** A value matching the {@link EventEnvelope} schema. */
export type EventEnvelope = Static<typeof EventEnvelope>;
