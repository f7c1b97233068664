/**
 * Task groups: the unit of placement of a job, and the volumes they request.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { Affinity, AffinityInput, Constraint, ConstraintInput, Spread, SpreadInput } from './constraint.js';
import {
  Nanoseconds,
  Nullable,
  NullableArray,
  StringMap,
  optionalProperties,
  SafeInteger,
} from './internal/schema.js';
import { NetworkResource, NetworkResourceInput } from './network.js';
import {
  EphemeralDisk,
  EphemeralDiskInput,
  MigrateStrategy,
  MigrateStrategyInput,
  ReschedulePolicy,
  ReschedulePolicyInput,
  RestartPolicy,
  RestartPolicyInput,
  UpdateStrategy,
  UpdateStrategyInput,
} from './policies.js';
import { ScalingPolicy, ScalingPolicyInput, Task, TaskInput } from './task.js';
import { Service, ServiceInput } from './task-service.js';
import { lazySchema } from './internal/lazy.js';

const VolumeRequestProperties = lazySchema(() => ({
  /** Name of the request (the key under `TaskGroup.Volumes`). */
  Name: Type.String(),
  /** Kind of volume: `host` or `csi`. */
  Type: Type.String(),
  /** ID of the host volume or storage volume to claim. */
  Source: Type.String(),
  /** Whether the volume is claimed read-only. Default `false`. */
  ReadOnly: Type.Boolean(),
  /** Access mode of a `csi` volume claim (see {@link CsiVolumeAccessMode}); `""` for host volumes. */
  AccessMode: Type.String(),
  /** Attachment mode of a `csi` volume claim (see {@link CsiVolumeAttachmentMode}); `""` for host volumes. */
  AttachmentMode: Type.String(),
  /** Whether each allocation claims its own volume `<Source>[<alloc index>]`. Default `false`. */
  PerAlloc: Type.Boolean(),
}));

/**
 * A volume a task group claims.
 *
 * @since 0.1.0
 */
export const VolumeRequest = lazySchema(() => Type.Object(VolumeRequestProperties));
/** A value matching the {@link VolumeRequest} schema. */
export type VolumeRequest = Static<typeof VolumeRequest>;

/**
 * A {@link VolumeRequest} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const VolumeRequestInput = lazySchema(() => Type.Object(optionalProperties(VolumeRequestProperties)));
/** A value matching the {@link VolumeRequestInput} schema. */
export type VolumeRequestInput = Static<typeof VolumeRequestInput>;

const TaskGroupScalarProperties = lazySchema(() => ({
  /** Name of the group, unique within the job. */
  Name: Type.String({ minLength: 1 }),
  /** Number of allocations (instances) of the group to run. Canonicalization default: 1. */
  Count: SafeInteger({ minimum: 0 }),
  /** Metadata of the group (merged over job meta); `null` when none. */
  Meta: Nullable(StringMap),
  /** Delay between deregistering the group's services and stopping its tasks, in nanoseconds; `null` = 0. */
  ShutdownDelay: Nullable(Nanoseconds()),
  /** Stop the allocation when its node has been unreachable this long, in nanoseconds; `null` = never. */
  StopAfterClientDisconnect: Nullable(Nanoseconds()),
  /** How long an unreachable node's allocations count as unknown before being replaced, in nanoseconds; `null` = replaced at once. */
  MaxClientDisconnect: Nullable(Nanoseconds()),
}));

/**
 * A task group as stored: tasks that are placed together on one node, `Count` times.
 *
 * @since 0.1.0
 */
export const TaskGroup = lazySchema(() =>
  Type.Object({
    ...TaskGroupScalarProperties,
    /** Constraints of the group; `null` when none. */
    Constraints: NullableArray(Constraint),
    /** Affinities of the group; `null` when none. */
    Affinities: NullableArray(Affinity),
    /** Spreads of the group; `null` when none. */
    Spreads: NullableArray(Spread),
    /** Tasks of the group (at least one in a valid job). */
    Tasks: Type.Array(Task),
    /** Restart policy of the group, inherited by its tasks. */
    RestartPolicy: Nullable(RestartPolicy),
    /** Reschedule policy; `null` for job types that are never rescheduled (`sysbatch`). */
    ReschedulePolicy: Nullable(ReschedulePolicy),
    /** Migrate strategy; `null` for job types other than `service`. */
    Migrate: Nullable(MigrateStrategy),
    /** Update strategy (job-level strategy merged with the group's); `null` for job types other than `service`. */
    Update: Nullable(UpdateStrategy),
    /** Ephemeral disk shared by the tasks. */
    EphemeralDisk: Nullable(EphemeralDisk),
    /** Group networks; `null` when none. */
    Networks: NullableArray(NetworkResource),
    /** Group services; `null` when none. */
    Services: NullableArray(Service),
    /** Volumes claimed by the group, keyed by request name; `null` when none. */
    Volumes: Nullable(Type.Record(Type.String(), VolumeRequest)),
    /** Horizontal scaling policy; `null` when none. */
    Scaling: Nullable(ScalingPolicy),
  }),
);
/** A value matching the {@link TaskGroup} schema. */
export type TaskGroup = Static<typeof TaskGroup>;

/**
 * A {@link TaskGroup} as submitted: only `Name` is required (and each task's `Name` and `Driver`).
 *
 * @since 0.1.0
 */
export const TaskGroupInput = lazySchema(() =>
  Type.Object({
    ...optionalProperties(TaskGroupScalarProperties),
    /** See {@link TaskGroup}. Required, non-empty. */
    Name: TaskGroupScalarProperties.Name,
    /** See {@link TaskGroup}. */
    Constraints: Type.Optional(NullableArray(ConstraintInput)),
    /** See {@link TaskGroup}. */
    Affinities: Type.Optional(NullableArray(AffinityInput)),
    /** See {@link TaskGroup}. */
    Spreads: Type.Optional(NullableArray(SpreadInput)),
    /** See {@link TaskGroup}. */
    Tasks: Type.Optional(NullableArray(TaskInput)),
    /** See {@link TaskGroup}. */
    RestartPolicy: Type.Optional(Nullable(RestartPolicyInput)),
    /** See {@link TaskGroup}. */
    ReschedulePolicy: Type.Optional(Nullable(ReschedulePolicyInput)),
    /** See {@link TaskGroup}. */
    Migrate: Type.Optional(Nullable(MigrateStrategyInput)),
    /** See {@link TaskGroup}. */
    Update: Type.Optional(Nullable(UpdateStrategyInput)),
    /** See {@link TaskGroup}. */
    EphemeralDisk: Type.Optional(Nullable(EphemeralDiskInput)),
    /** See {@link TaskGroup}. */
    Networks: Type.Optional(NullableArray(NetworkResourceInput)),
    /** See {@link TaskGroup}. */
    Services: Type.Optional(NullableArray(ServiceInput)),
    /** See {@link TaskGroup}. */
    Volumes: Type.Optional(Nullable(Type.Record(Type.String(), VolumeRequestInput))),
    /** See {@link TaskGroup}. */
    Scaling: Type.Optional(Nullable(ScalingPolicyInput)),
  }),
);
/** A value matching the {@link TaskGroupInput} schema. */
export type TaskGroupInput = Static<typeof TaskGroupInput>;
