/**
 * The payload of each topic of the event stream: the object an event is about, wrapped in one key
 * named after it (`{ Job: ... }`, `{ Allocation: ... }`, `{ Node: ... }`).
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { Allocation } from './allocation.js';
import { Deployment } from './deployment.js';
import { Evaluation } from './evaluation.js';
import { Job } from './job.js';
import { SchedulerJobType } from './job-types.js';
import { Node } from './node.js';

/** An object whose fields the spec does not show (the topics this project does not emit). */
const FreeFormObject = Type.Record(Type.String(), Type.Unknown());

/**
 * Payload of events of the `Allocation` topic: the allocation without its `Job` (events leave the
 * job out, as lists do).
 *
 * @since 0.2.0
 */
export const AllocationEventPayload = Type.Object({
  /** The allocation, without `Job`. */
  Allocation: Type.Omit(Allocation, ['Job']),
});
/** A value matching the {@link AllocationEventPayload} schema. */
export type AllocationEventPayload = Static<typeof AllocationEventPayload>;

/**
 * Payload of events of the `Job` topic: the job as stored, whose `Type` may be `system` (see
 * {@link SchedulerJobType}).
 *
 * @since 0.2.0
 */
export const JobEventPayload = Type.Object({
  /** The job (its `MeshToken` and `SecretsToken` are always `""`). */
  Job: Type.Object({ ...Job.properties, Type: Type.Enum(SchedulerJobType) }),
});
/** A value matching the {@link JobEventPayload} schema. */
export type JobEventPayload = Static<typeof JobEventPayload>;

/**
 * Payload of events of the `Evaluation` topic.
 *
 * @since 0.2.0
 */
export const EvaluationEventPayload = Type.Object({
  /** The evaluation. */
  Evaluation: Evaluation,
});
/** A value matching the {@link EvaluationEventPayload} schema. */
export type EvaluationEventPayload = Static<typeof EvaluationEventPayload>;

/**
 * Payload of events of the `Deployment` topic.
 *
 * @since 0.2.0
 */
export const DeploymentEventPayload = Type.Object({
  /** The deployment. */
  Deployment: Deployment,
});
/** A value matching the {@link DeploymentEventPayload} schema. */
export type DeploymentEventPayload = Static<typeof DeploymentEventPayload>;

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

/**
 * Payload of events of the `ACLToken` topic. The spec names the payload's kind but not its fields:
 * the token is a free-form object here.
 *
 * @since 0.2.0
 */
export const ACLTokenEventPayload = Type.Object({
  /** The ACL token (free-form). */
  ACLToken: FreeFormObject,
});
/** A value matching the {@link ACLTokenEventPayload} schema. */
export type ACLTokenEventPayload = Static<typeof ACLTokenEventPayload>;

/**
 * Payload of events of the `ACLPolicy` topic (fields not shown by the spec: free-form).
 *
 * @since 0.2.0
 */
export const ACLPolicyEventPayload = Type.Object({
  /** The ACL policy (free-form). */
  ACLPolicy: FreeFormObject,
});
/** A value matching the {@link ACLPolicyEventPayload} schema. */
export type ACLPolicyEventPayload = Static<typeof ACLPolicyEventPayload>;

/**
 * Payload of events of the `ACLRole` topic (fields not shown by the spec: free-form).
 *
 * @since 0.2.0
 */
export const ACLRoleEventPayload = Type.Object({
  /** The ACL role (free-form). */
  ACLRole: FreeFormObject,
});
/** A value matching the {@link ACLRoleEventPayload} schema. */
export type ACLRoleEventPayload = Static<typeof ACLRoleEventPayload>;

/**
 * Payload of events of the `NodePool` topic (fields not shown by the spec: free-form).
 *
 * @since 0.2.0
 */
export const NodePoolEventPayload = Type.Object({
  /** The node pool (free-form). */
  NodePool: FreeFormObject,
});
/** A value matching the {@link NodePoolEventPayload} schema. */
export type NodePoolEventPayload = Static<typeof NodePoolEventPayload>;

/**
 * Payload of events of the `Service` topic: a service registration (fields not shown by the spec:
 * free-form).
 *
 * @since 0.2.0
 */
export const ServiceEventPayload = Type.Object({
  /** The service registration (free-form). */
  Service: FreeFormObject,
});
/** A value matching the {@link ServiceEventPayload} schema. */
export type ServiceEventPayload = Static<typeof ServiceEventPayload>;

/**
 * The payload schema of every topic of {@link EventTopic} (`*` aside): `EventPayload[event.Topic]`
 * validates an event's payload with {@link validate}.
 *
 * @since 0.2.0
 */
export const EventPayload = {
  /** `{ ACLToken }`. */
  ACLToken: ACLTokenEventPayload,
  /** `{ ACLPolicy }`. */
  ACLPolicy: ACLPolicyEventPayload,
  /** `{ ACLRole }`. */
  ACLRole: ACLRoleEventPayload,
  /** `{ Allocation }`, without the allocation's `Job`. */
  Allocation: AllocationEventPayload,
  /** `{ Job }`. */
  Job: JobEventPayload,
  /** `{ Evaluation }`. */
  Evaluation: EvaluationEventPayload,
  /** `{ Deployment }`. */
  Deployment: DeploymentEventPayload,
  /** `{ Node }`. */
  Node: NodeEventPayload,
  /** `{ Node }`: a node drain carries the node. */
  NodeDrain: NodeEventPayload,
  /** `{ NodePool }`. */
  NodePool: NodePoolEventPayload,
  /** `{ Service }`. */
  Service: ServiceEventPayload,
} as const;

/**
 * The key each topic's payload wraps its object in: the topic's name, but `Node` for `NodeDrain`.
 *
 * @since 0.2.0
 */
export const EventPayloadKey = {
  /** `ACLToken`. */
  ACLToken: 'ACLToken',
  /** `ACLPolicy`. */
  ACLPolicy: 'ACLPolicy',
  /** `ACLRole`. */
  ACLRole: 'ACLRole',
  /** `Allocation`. */
  Allocation: 'Allocation',
  /** `Job`. */
  Job: 'Job',
  /** `Evaluation`. */
  Evaluation: 'Evaluation',
  /** `Deployment`. */
  Deployment: 'Deployment',
  /** `Node`. */
  Node: 'Node',
  /** `Node`: a node drain carries the node. */
  NodeDrain: 'Node',
  /** `NodePool`. */
  NodePool: 'NodePool',
  /** `Service`. */
  Service: 'Service',
} as const satisfies { readonly [T in keyof typeof EventPayload]: keyof Static<(typeof EventPayload)[T]> };
