/**
 * Allocations, task states and task events.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { AllocationMetric } from './evaluation.js';
import { Nanoseconds, Nullable, NullableArray, SafeInteger, UnixNanos } from './internal/schema.js';
import { Job } from './job.js';
import { NetworkResource } from './network.js';
import { lazySchema } from './internal/lazy.js';
import { TaskEvent } from './task-event.js';

export { newTaskEvent, TaskEvent, TaskEventType, type TaskEventOf } from './task-event.js';

/**
 * What the scheduler wants an allocation to do (`Allocation.DesiredStatus`).
 *
 * @since 0.1.0
 */
export const AllocDesiredStatus = {
  /** Run the allocation. */
  Run: 'run',
  /** Stop it (job stopped, allocation stopped by a user, replaced). */
  Stop: 'stop',
  /** Evict it (preempted or migrated). */
  Evict: 'evict',
} as const;
/** One of the values of {@link AllocDesiredStatus}. */
export type AllocDesiredStatus = (typeof AllocDesiredStatus)[keyof typeof AllocDesiredStatus];

/**
 * What the client reports about an allocation (`Allocation.ClientStatus`).
 *
 * @since 0.1.0
 */
export const AllocClientStatus = {
  /** Placed, tasks not yet running. */
  Pending: 'pending',
  /** Tasks running. */
  Running: 'running',
  /** Every task finished successfully. */
  Complete: 'complete',
  /** A task failed. */
  Failed: 'failed',
  /** The node was lost. */
  Lost: 'lost',
  /** The node is disconnected; the state is unknown. */
  Unknown: 'unknown',
} as const;
/** One of the values of {@link AllocClientStatus}. */
export type AllocClientStatus = (typeof AllocClientStatus)[keyof typeof AllocClientStatus];

/**
 * States of a task (`TaskState.State`).
 *
 * @since 0.1.0
 */
export const TaskStateName = {
  /** Waiting to run, the first time or after a restart. */
  Pending: 'pending',
  /** Running. */
  Running: 'running',
  /** Will not run again. */
  Dead: 'dead',
} as const;
/** One of the values of {@link TaskStateName}. */
export type TaskStateName = (typeof TaskStateName)[keyof typeof TaskStateName];

/**
 * The observed state of one task of an allocation.
 *
 * @since 0.1.0
 */
export const TaskState = lazySchema(() =>
  Type.Object({
    /** `pending`, `running` or `dead`; see {@link TaskStateName}. */
    State: Type.Enum(TaskStateName),
    /** Whether the task failed. */
    Failed: Type.Boolean(),
    /** Number of restarts. */
    Restarts: SafeInteger({ minimum: 0 }),
    /** Time of the last restart, ISO 8601; `null` when the task never restarted. */
    LastRestart: Nullable(Type.String()),
    /** Time the task was last started, ISO 8601 (changes with restarts); `null` when it never started. */
    StartedAt: Nullable(Type.String()),
    /** Time the task finished, ISO 8601; `null` while it has not finished. */
    FinishedAt: Nullable(Type.String()),
    /** The latest events, oldest first (at most 10 are kept); `null` when none. */
    Events: NullableArray(TaskEvent),
  }),
);
/** A value matching the {@link TaskState} schema. */
export type TaskState = Static<typeof TaskState>;

/**
 * One reschedule of an allocation.
 *
 * @since 0.1.0
 */
export const RescheduleEvent = lazySchema(() =>
  Type.Object({
    /** ID of the allocation that was replaced. */
    PrevAllocID: Type.String(),
    /** ID of the node it ran on. */
    PrevNodeID: Type.String(),
    /** When it was rescheduled, in Unix nanoseconds. */
    RescheduleTime: UnixNanos(),
    /** Delay applied before the reschedule, in nanoseconds. */
    Delay: Nanoseconds(),
  }),
);
/** A value matching the {@link RescheduleEvent} schema. */
export type RescheduleEvent = Static<typeof RescheduleEvent>;

/**
 * The reschedule history of an allocation.
 *
 * @since 0.1.0
 */
export const RescheduleTracker = lazySchema(() =>
  Type.Object({
    /** Reschedules so far, oldest first; `null` when none. */
    Events: NullableArray(RescheduleEvent),
  }),
);
/** A value matching the {@link RescheduleTracker} schema. */
export type RescheduleTracker = Static<typeof RescheduleTracker>;

/**
 * Resources of an allocation or of one of its tasks.
 *
 * @since 0.1.0
 */
export const AllocResources = lazySchema(() =>
  Type.Object({
    /** CPU in MHz. */
    CPU: SafeInteger({ minimum: 0 }),
    /** Memory in megabytes. */
    MemoryMB: SafeInteger({ minimum: 0 }),
    /** Disk in megabytes. */
    DiskMB: SafeInteger({ minimum: 0 }),
    /** Networks assigned (with their ports); `null` when none. */
    Networks: NullableArray(NetworkResource),
  }),
);
/** A value matching the {@link AllocResources} schema. */
export type AllocResources = Static<typeof AllocResources>;

/**
 * Health of an allocation within a deployment.
 *
 * @since 0.1.0
 */
export const AllocDeploymentStatus = lazySchema(() =>
  Type.Object({
    /** Whether the allocation is healthy; `null` while undecided. */
    Healthy: Nullable(Type.Boolean()),
    /** When health was decided, ISO 8601; `null` while undecided. */
    Timestamp: Nullable(Type.String()),
    /** Whether the allocation is a canary. */
    Canary: Type.Boolean(),
    /** Raft index of the last change of this status. */
    ModifyIndex: SafeInteger({ minimum: 0 }),
  }),
);
/** A value matching the {@link AllocDeploymentStatus} schema. */
export type AllocDeploymentStatus = Static<typeof AllocDeploymentStatus>;

/**
 * An allocation: a task group of a job placed on a node, with the observed state of its tasks.
 *
 * @remarks `Job` is present only on the single-allocation read; lists and event payloads leave it out.
 * `TaskStates` is left out of lists requested with `task_states=false`, and `AllocatedResources` is
 * present in lists only with `resources=true`.
 * @since 0.1.0
 */
export const Allocation = lazySchema(() =>
  Type.Object({
    /** Allocation ID (UUID). */
    ID: Type.String(),
    /** Namespace of the job. */
    Namespace: Type.String(),
    /** ID of the evaluation that created it. */
    EvalID: Type.String(),
    /** Name `<job>.<group>[<index>]`, for example `web.frontend[0]`. */
    Name: Type.String(),
    /** ID of the node it runs on. */
    NodeID: Type.String(),
    /** Name of the node it runs on. */
    NodeName: Type.String(),
    /** ID of the job. */
    JobID: Type.String(),
    /** The job at the time the allocation was created or updated (may be stale); absent from lists and events. */
    Job: Type.Optional(Job),
    /** Name of the task group. */
    TaskGroup: Type.String(),
    /** Resources of the whole allocation; `null` when not computed. */
    Resources: Nullable(AllocResources),
    /** Resources shared by the tasks (group networks, ephemeral disk); `null` when none. */
    SharedResources: Nullable(AllocResources),
    /** Resources per task name; `null` when not computed. */
    TaskResources: Nullable(Type.Record(Type.String(), AllocResources)),
    /** Detailed allocated resources; in lists present only with `resources=true`. Free-form. */
    AllocatedResources: Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown()))),
    /** Placement metrics; `null` when not kept. */
    Metrics: Nullable(AllocationMetric),
    /** What the scheduler wants; see {@link AllocDesiredStatus}. */
    DesiredStatus: Type.Enum(AllocDesiredStatus),
    /** Why `DesiredStatus` is what it is; `""` when there is nothing to say. */
    DesiredDescription: Type.String(),
    /** What the client reports; see {@link AllocClientStatus}. */
    ClientStatus: Type.Enum(AllocClientStatus),
    /** Explanation of `ClientStatus`, for example `Tasks are running`. */
    ClientDescription: Type.String(),
    /** State per task name; absent from lists requested with `task_states=false`, `null` before the client reports. */
    TaskStates: Type.Optional(Nullable(Type.Record(Type.String(), TaskState))),
    /** ID of the allocation this one replaces; `""` when none. */
    PreviousAllocation: Type.String(),
    /** ID of the allocation that replaced this one; `""` when none. */
    NextAllocation: Type.String(),
    /** Reschedule history; `null` when never rescheduled. */
    RescheduleTracker: Nullable(RescheduleTracker),
    /** ID of the deployment that created it; `""` when none. */
    DeploymentID: Type.String(),
    /** Health within the deployment; `null` when not part of one or not yet decided. */
    DeploymentStatus: Nullable(AllocDeploymentStatus),
    /** ID of the evaluation that will reschedule it later; `""` when none. */
    FollowupEvalID: Type.String(),
    /** Raft index at which it was created. */
    CreateIndex: SafeInteger({ minimum: 0 }),
    /** Raft index of the last change (client or server). */
    ModifyIndex: SafeInteger({ minimum: 0 }),
    /** Raft index of the last change by the server (desired status). */
    AllocModifyIndex: SafeInteger({ minimum: 0 }),
    /** Creation time, in Unix nanoseconds. */
    CreateTime: UnixNanos(),
    /** Time of the last change, in Unix nanoseconds. */
    ModifyTime: UnixNanos(),
  }),
);
/** A value matching the {@link Allocation} schema. */
export type Allocation = Static<typeof Allocation>;
