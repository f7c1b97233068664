/**
 * Evaluations and the placement metrics they and allocations carry.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { Nanoseconds, Nullable, SafeInteger, UnixNanos } from './internal/schema.js';
import { lazySchema } from './internal/lazy.js';

/**
 * Evaluation statuses.
 *
 * @since 0.1.0
 */
export const EvalStatus = {
  /** Waiting for the scheduler. */
  Pending: 'pending',
  /** Could not place everything; waits for resources to free up. */
  Blocked: 'blocked',
  /** Processed. */
  Complete: 'complete',
  /** Processing failed. */
  Failed: 'failed',
  /** Superseded by a newer evaluation. */
  Canceled: 'canceled',
} as const;
/** One of the values of {@link EvalStatus}. */
export type EvalStatus = (typeof EvalStatus)[keyof typeof EvalStatus];

/**
 * Reasons an evaluation was created (`Evaluation.TriggeredBy`).
 *
 * @since 0.1.0
 */
export const EvalTriggeredBy = {
  /** A job was registered or updated. */
  JobRegister: 'job-register',
  /** A job was stopped or purged. */
  JobDeregister: 'job-deregister',
  /** A periodic job launched an instance (also a forced launch). */
  PeriodicJob: 'periodic-job',
  /** A node's status changed. */
  NodeUpdate: 'node-update',
  /** A node is draining. */
  NodeDrain: 'node-drain',
  /** An allocation was stopped by a user. */
  AllocStop: 'alloc-stop',
  /** Scheduled re-evaluation (for example a delayed reschedule). */
  Scheduled: 'scheduled',
  /** A rolling update continues. */
  RollingUpdate: 'rolling-update',
  /** A deployment changed (promotion, failure, ...). */
  DeploymentWatcher: 'deployment-watcher',
  /** Follow-up of a failed evaluation. */
  FailedFollowUp: 'failed-follow-up',
  /** An allocation failed and is to be rescheduled. */
  AllocFailure: 'alloc-failure',
  /** Blocked allocations may now be placed. */
  QueuedAllocs: 'queued-allocs',
  /** Allocations were preempted. */
  Preemption: 'preemption',
  /** A job's group count was scaled. */
  JobScaling: 'job-scaling',
  /** A user forced an evaluation (`POST /v1/job/:id/evaluate`). */
  JobEvaluate: 'job-evaluate',
} as const;
/** One of the values of {@link EvalTriggeredBy}. */
export type EvalTriggeredBy = (typeof EvalTriggeredBy)[keyof typeof EvalTriggeredBy];

const CountMap = lazySchema(() => Nullable(Type.Record(Type.String(), SafeInteger({ minimum: 0 }))));

/**
 * Metrics of a placement attempt: how many nodes were looked at and why they were filtered out.
 * Used as `Allocation.Metrics` and in `FailedTGAllocs` maps.
 *
 * @since 0.1.0
 */
export const AllocationMetric = lazySchema(() =>
  Type.Object({
    /** Nodes evaluated for placement. */
    NodesEvaluated: SafeInteger({ minimum: 0 }),
    /** Nodes filtered out by constraints. */
    NodesFiltered: SafeInteger({ minimum: 0 }),
    /** Nodes in the job's node pool. */
    NodesInPool: SafeInteger({ minimum: 0 }),
    /** Nodes available per datacenter; `null` when not computed. */
    NodesAvailable: CountMap,
    /** Nodes filtered per node class; `null` when none. */
    ClassFiltered: CountMap,
    /** Nodes filtered per constraint (the constraint's text); `null` when none. */
    ConstraintFiltered: CountMap,
    /** Nodes that did not have enough resources. */
    NodesExhausted: SafeInteger({ minimum: 0 }),
    /** Exhausted nodes per node class; `null` when none. */
    ClassExhausted: CountMap,
    /** Exhausted nodes per resource dimension (`memory`, `cpu`, ...); `null` when none. */
    DimensionExhausted: CountMap,
    /** Scores per `<node id>.<scorer>` key (floating point); `null` when not kept. */
    Scores: Nullable(Type.Record(Type.String(), Type.Number())),
    /** Time the placement took, in nanoseconds. */
    AllocationTime: Nanoseconds(),
    /** Further identical failures folded into this one. */
    CoalescedFailures: SafeInteger({ minimum: 0 }),
  }),
);
/** A value matching the {@link AllocationMetric} schema. */
export type AllocationMetric = Static<typeof AllocationMetric>;

/**
 * An evaluation: one run of the scheduler for a job (or node), creating or changing allocations.
 *
 * @since 0.1.0
 */
export const Evaluation = lazySchema(() =>
  Type.Object({
    /** Evaluation ID (UUID). */
    ID: Type.String(),
    /** Namespace of the job. */
    Namespace: Type.String(),
    /** Priority of the evaluation (the job's priority unless overridden). */
    Priority: SafeInteger({ minimum: 0 }),
    /** Scheduler type that processes it: the job's type (`service`, `batch`, `sysbatch`) or `_core`. */
    Type: Type.String(),
    /** Why the evaluation was created; see {@link EvalTriggeredBy}. */
    TriggeredBy: Type.Enum(EvalTriggeredBy),
    /** ID of the job evaluated. */
    JobID: Type.String(),
    /** `JobModifyIndex` of the job when the evaluation was created. */
    JobModifyIndex: SafeInteger({ minimum: 0 }),
    /** ID of the node that triggered the evaluation; `""` when not node-triggered. */
    NodeID: Type.String(),
    /** `ModifyIndex` of that node; 0 when not node-triggered. */
    NodeModifyIndex: SafeInteger({ minimum: 0 }),
    /** ID of the deployment the evaluation belongs to; `""` when none. */
    DeploymentID: Type.String(),
    /** Status; see {@link EvalStatus}. */
    Status: Type.Enum(EvalStatus),
    /** Explanation of the status; `""` when none. */
    StatusDescription: Type.String(),
    /** Wait before processing, in nanoseconds; 0 = at once. */
    Wait: Nanoseconds(),
    /** ID of the follow-up evaluation (for example a rolling update's next step); `""` when none. */
    NextEval: Type.String(),
    /** ID of the evaluation this one follows; `""` when none. */
    PreviousEval: Type.String(),
    /** ID of the blocked evaluation created for what could not be placed; `""` when none. */
    BlockedEval: Type.String(),
    /** Placement failures per task group; `null` when everything was placed. */
    FailedTGAllocs: Nullable(Type.Record(Type.String(), AllocationMetric)),
    /** Eligibility per computed node class; `null` when not computed. */
    ClassEligibility: Nullable(Type.Record(Type.String(), Type.Boolean())),
    /** Whether a constraint escaped the node-class computation. */
    EscapedComputedClass: Type.Boolean(),
    /** Whether the scheduler annotated its plan (set for plan dry runs). */
    AnnotatePlan: Type.Boolean(),
    /** Allocations still to place per task group; `null` when none. */
    QueuedAllocations: Nullable(Type.Record(Type.String(), SafeInteger({ minimum: 0 }))),
    /** Raft index of the state snapshot the scheduler used. */
    SnapshotIndex: SafeInteger({ minimum: 0 }),
    /** Raft index at which the evaluation was created. */
    CreateIndex: SafeInteger({ minimum: 0 }),
    /** Raft index of the last change. */
    ModifyIndex: SafeInteger({ minimum: 0 }),
    /** Creation time, in Unix nanoseconds. */
    CreateTime: UnixNanos(),
    /** Time of the last change, in Unix nanoseconds. */
    ModifyTime: UnixNanos(),
  }),
);
/** A value matching the {@link Evaluation} schema. */
export type Evaluation = Static<typeof Evaluation>;
