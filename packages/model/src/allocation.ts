/**
 * Allocations, task states and task events.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { AllocationMetric } from './evaluation.js';
import {
  Nanoseconds,
  Nullable,
  NullableArray,
  StringMap,
  SafeInteger,
  UnixNanos,
} from './internal/schema.js';
import { Job } from './job.js';
import { NetworkResource } from './network.js';
import { lazySchema } from './internal/lazy.js';
import { AllocClientStatus, AllocDesiredStatus, TaskEventType, TaskStateName } from './allocation-status.js';

export { AllocClientStatus, AllocDesiredStatus, TaskEventType, TaskStateName } from './allocation-status.js';

/**
 * An event in a task's life. Which fields are meaningful depends on `Type`; the others are `""`, 0 or `false`.
 *
 * @since 0.1.0
 */
export const TaskEvent = lazySchema(() =>
  Type.Object({
    /** Kind of event; see {@link TaskEventType}. */
    Type: Type.Enum(TaskEventType),
    /** When the event happened, in Unix nanoseconds. */
    Time: UnixNanos(),
    /** Whether this event failed the task. */
    FailsTask: Type.Boolean(),
    /** Why the task restarts (`Restarting`, `Restart Signaled`). */
    RestartReason: Type.String(),
    /** Setup error (`Setup Failure`). */
    SetupError: Type.String(),
    /** Driver error (`Driver Failure`). */
    DriverError: Type.String(),
    /** General message. */
    Message: Type.String(),
    /** Error while killing the task. */
    KillError: Type.String(),
    /** Why the task was killed (`Killing`, `Killed`). */
    KillReason: Type.String(),
    /** Artifact download error (`Failed Artifact Download`). */
    DownloadError: Type.String(),
    /** Validation error (`Failed Validation`). */
    ValidationError: Type.String(),
    /** Name of the sibling that failed (`Sibling Task Failed`). */
    FailedSibling: Type.String(),
    /** Error of the secrets service integration. */
    SecretsError: Type.String(),
    /** Why the task was signalled (`Signaling`). */
    TaskSignalReason: Type.String(),
    /** Name of the signal sent, for example `SIGHUP` (`Signaling`). */
    TaskSignal: Type.String(),
    /** Message of the driver (`Driver`). */
    DriverMessage: Type.String(),
    /** Exit code of the task (`Terminated`); 0 otherwise. */
    ExitCode: SafeInteger(),
    /** Signal number that ended the task (`Terminated`); 0 when none. */
    Signal: SafeInteger(),
    /** Kill timeout used, in nanoseconds (`Killing`). */
    KillTimeout: Nanoseconds(),
    /** Wait before the restart, in nanoseconds (`Restarting`). */
    StartDelay: Nanoseconds(),
    /** Disk limit exceeded, in bytes; 0 when not applicable. */
    DiskLimit: SafeInteger({ minimum: 0 }),
    /** One-line human-readable text of the event (built from the fields above). Absent = build it from them. */
    DisplayMessage: Type.Optional(Type.String()),
    /** The event's fields as strings, for display. Absent or `null` when not provided. */
    Details: Type.Optional(Nullable(StringMap)),
  }),
);
/** A value matching the {@link TaskEvent} schema. */
export type TaskEvent = Static<typeof TaskEvent>;

/** A {@link TaskEvent} whose `Type` is narrowed to `T`: what {@link newTaskEvent} returns. */
export type TaskEventOf<T extends string> = Omit<TaskEvent, 'Type'> & {
  /** The event's type, as given to {@link newTaskEvent}. */
  Type: T;
};

/**
 * Builds a complete {@link TaskEvent}: every field not given is `""`, 0 or `false`, as the service
 * reports fields that do not apply to an event's type.
 *
 * @typeParam T - The type string; {@link TaskEventType} unless a driver reports its own.
 * @param type - The event's type, usually one of {@link TaskEventType}; a driver may report others.
 * @param time - When the event happened, in Unix nanoseconds.
 * @param fields - The fields that apply to this type (they win over the empty values).
 * @returns A new event object.
 * @example
 * ```ts
 * const exited = newTaskEvent('Terminated', Date.now() * 1e6, { ExitCode: 3 });
 * ```
 * @since 0.1.0
 */
export function newTaskEvent<T extends string = TaskEventType>(
  type: T,
  time: number,
  fields: Partial<Omit<TaskEvent, 'Type' | 'Time'>> = {},
): TaskEventOf<T> {
  return {
    Type: type,
    Time: time,
    FailsTask: false,
    RestartReason: '',
    SetupError: '',
    DriverError: '',
    Message: '',
    KillError: '',
    KillReason: '',
    DownloadError: '',
    ValidationError: '',
    FailedSibling: '',
    SecretsError: '',
    TaskSignalReason: '',
    TaskSignal: '',
    DriverMessage: '',
    ExitCode: 0,
    Signal: 0,
    KillTimeout: 0,
    StartDelay: 0,
    DiskLimit: 0,
    ...fields,
  };
}

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
