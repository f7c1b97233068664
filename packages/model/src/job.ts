/**
 * Jobs: the full definition, in its stored and submitted forms.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';
import { Affinity, AffinityInput, Constraint, ConstraintInput, Spread, SpreadInput } from './constraint.js';
import {
  Nullable,
  NullableArray,
  StringMap,
  optionalProperties,
  SafeInteger,
  UnixNanos,
} from './internal/schema.js';
import {
  MigrateStrategy,
  MigrateStrategyInput,
  ReschedulePolicy,
  ReschedulePolicyInput,
  UpdateStrategy,
  UpdateStrategyInput,
} from './policies.js';
import { TaskGroup, TaskGroupInput } from './task-group.js';
import {
  Multiregion,
  MultiregionInput,
  ParameterizedJob,
  ParameterizedJobInput,
  Periodic,
  PeriodicInput,
} from './job-launch.js';
import {
  JobStatusSchema,
  JobTypeSchema,
  SchedulerJobTypeSchema,
  type SchedulerJobType,
} from './job-types.js';
import { lazySchema } from './internal/lazy.js';

const JobScalarProperties = lazySchema(() => ({
  /** Region the job runs in. Canonicalization default: the serving agent's region (`global`). */
  Region: Type.String(),
  /** Namespace of the job. Default `default`. */
  Namespace: Type.String(),
  /** Unique ID of the job within its namespace. */
  ID: Type.String({ minLength: 1 }),
  /** ID of the parent (periodic or parameterized) job; `""` when the job has no parent. */
  ParentID: Type.String(),
  /** Display name. Canonicalization default: the `ID`. */
  Name: Type.String(),
  /** Job type: `service`, `batch` or `sysbatch`. Default `service`. */
  Type: JobTypeSchema,
  /** Scheduling priority from 1 (lowest) to 100 (highest). Default 50. */
  Priority: SafeInteger({ minimum: 1, maximum: 100 }),
  /** Whether all allocations must be placed at once or none (gang scheduling). Default `false`. */
  AllAtOnce: Type.Boolean(),
  /** Datacenters the job may run in; `*` globs are allowed. Default `["*"]` (every datacenter). */
  Datacenters: Type.Array(Type.String()),
  /** Node pool the job runs in. Default `default`. */
  NodePool: Type.String(),
  /** Dispatch payload of a dispatched job, base64-encoded; `null` when none. */
  Payload: Nullable(Type.String()),
  /** Metadata of the job (inherited by groups and tasks); `null` when none. */
  Meta: Nullable(StringMap),
  /** Whether this job was created by dispatching a parameterized job. Default `false`. */
  Dispatched: Type.Boolean(),
  /** Whether the job is stopped (its allocations are stopped but it stays registered). Default `false`. */
  Stop: Type.Boolean(),
  /** Whether this version was marked stable (all allocations became healthy). Default `false`. */
  Stable: Type.Boolean(),
  /** Version number, starting at 0 and incremented on every change of the specification. */
  Version: SafeInteger({ minimum: 0 }),
  /** Time of the last submission, in Unix nanoseconds (0 before the first registration). */
  SubmitTime: UnixNanos(),
  /** Status: `pending`, `running` or `dead`. */
  Status: JobStatusSchema,
  /** Human-readable explanation of the status; `""` when none. */
  StatusDescription: Type.String(),
  /** Raft index at which the job was created. */
  CreateIndex: SafeInteger({ minimum: 0 }),
  /** Raft index of the last change of the job object (including status changes). */
  ModifyIndex: SafeInteger({ minimum: 0 }),
  /** Raft index of the last change of the job's specification. */
  JobModifyIndex: SafeInteger({ minimum: 0 }),
  /** Mesh-service token used to register services on submission; never returned (always `""` on reads). */
  MeshToken: Type.String(),
  /** Secrets-service token used to check policies on submission; never returned (always `""` on reads). */
  SecretsToken: Type.String(),
  /** Accessor ID of the service-identity token used on submission; `""` when none. */
  SvcTokenID: Type.String(),
  /** Namespace of the secrets service used for the job's tasks; `""` = the default namespace. */
  SecretsNamespace: Type.String(),
}));

/**
 * A job as stored and returned by the service: every field present (absent objects, maps and lists are `null`).
 *
 * @remarks Use {@link JobInput} for what users submit and {@link canonicalizeJob} to go from one to the other.
 * @since 0.1.0
 */
export const Job = lazySchema(() =>
  Type.Object({
    ...JobScalarProperties,
    /** Job constraints; `null` when none. */
    Constraints: NullableArray(Constraint),
    /** Job affinities; `null` when none. */
    Affinities: NullableArray(Affinity),
    /** Job spreads; `null` when none. */
    Spreads: NullableArray(Spread),
    /** Task groups. */
    TaskGroups: Type.Array(TaskGroup),
    /** Job-level update strategy (copied into each group of a service job); `null` for other job types. */
    Update: Nullable(UpdateStrategy),
    /** Job-level migrate strategy as submitted (groups hold the effective one); `null` when not given. */
    Migrate: Nullable(MigrateStrategy),
    /** Job-level reschedule policy as submitted (groups hold the effective one); `null` when not given. */
    Reschedule: Nullable(ReschedulePolicy),
    /** Periodic configuration; `null` for jobs that are not periodic. */
    Periodic: Nullable(Periodic),
    /** Parameterized configuration; `null` for jobs that are not parameterized. */
    ParameterizedJob: Nullable(ParameterizedJob),
    /** Multi-region configuration; `null` for single-region jobs. */
    Multiregion: Nullable(Multiregion),
  }),
);
/** A value matching the {@link Job} schema. */
export type Job = Static<typeof Job>;

/**
 * A stored job of any {@link SchedulerJobType}, `system` included: what a scheduler keeps, and what
 * {@link canonicalizeJob} returns for a job of type `system`. A {@link Job} is one.
 *
 * @example
 * ```ts
 * import { canonicalizeJob, type SchedulerJob, type SchedulerJobInput } from '@sked/model';
 *
 * const input: SchedulerJobInput = { ID: 'agent', Type: 'system', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock' }] }] };
 * const agent: SchedulerJob = canonicalizeJob(input);
 * agent.TaskGroups[0]?.ReschedulePolicy; // null: a system job is never rescheduled
 * ```
 * @since 0.2.0
 */
export type SchedulerJob = Omit<Job, 'Type'> & {
  /** Job type, `system` included. */
  Type: SchedulerJobType;
};

/**
 * A job as users submit it (register, plan, parse output): only `ID` is required, and in each task group
 * `Name`, in each task `Name` and `Driver`. Unknown fields are allowed and ignored.
 *
 * @since 0.1.0
 */
export const JobInput = lazySchema(() =>
  Type.Object({
    ...optionalProperties(JobScalarProperties),
    /** See {@link Job}. Required, non-empty. */
    ID: JobScalarProperties.ID,
    /**
     * Owned by the server, which sets it from the allocations: any string is accepted and ignored on input
     * (the canonical output of parse carries `""`, and a job read back from the server carries its status).
     */
    Status: Type.Optional(Type.String()),
    /** See {@link Job}. `null` is read as "every datacenter". */
    Datacenters: Type.Optional(NullableArray(Type.String())),
    /** See {@link Job}. */
    Constraints: Type.Optional(NullableArray(ConstraintInput)),
    /** See {@link Job}. */
    Affinities: Type.Optional(NullableArray(AffinityInput)),
    /** See {@link Job}. */
    Spreads: Type.Optional(NullableArray(SpreadInput)),
    /** See {@link Job}. */
    TaskGroups: Type.Optional(NullableArray(TaskGroupInput)),
    /** See {@link Job}. */
    Update: Type.Optional(Nullable(UpdateStrategyInput)),
    /** See {@link Job}. */
    Migrate: Type.Optional(Nullable(MigrateStrategyInput)),
    /** See {@link Job}. */
    Reschedule: Type.Optional(Nullable(ReschedulePolicyInput)),
    /** See {@link Job}. */
    Periodic: Type.Optional(Nullable(PeriodicInput)),
    /** See {@link Job}. */
    ParameterizedJob: Type.Optional(Nullable(ParameterizedJobInput)),
    /** See {@link Job}. */
    Multiregion: Type.Optional(Nullable(MultiregionInput)),
  }),
);
/** A value matching the {@link JobInput} schema. */
export type JobInput = Static<typeof JobInput>;

/**
 * A job as a scheduler takes it in: a {@link JobInput} whose `Type` may also be `system` (see
 * {@link SchedulerJobType}). The submit bodies refuse `system`, so a value that passed
 * `validate(JobRegisterRequest, ...)` is one as it is; a job file, or a server's own launches (periodic
 * and dispatched children of a stored {@link SchedulerJob}), may carry `system`. {@link canonicalizeJob}
 * turns it into a {@link SchedulerJob}.
 *
 * @example
 * ```ts
 * import { canonicalizeJob, validate, SchedulerJobInput, type SchedulerJob } from '@sked/model';
 *
 * // A job file may name the `system` type, which the submit schema (JobInput) refuses.
 * const fromFile = { ID: 'agent', Type: 'system', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock' }] }] };
 * const result = validate(SchedulerJobInput, fromFile);
 * if (result.ok) {
 *   const agent: SchedulerJob = canonicalizeJob(result.value);
 *   agent.TaskGroups[0]?.ReschedulePolicy; // null: a system job is never rescheduled
 * }
 * ```
 * @since 0.2.0
 */
export const SchedulerJobInput = lazySchema(() =>
  Type.Object({
    ...JobInput.properties,
    /** See {@link SchedulerJobType}: one of the submittable types, or `system`. */
    Type: Type.Optional(SchedulerJobTypeSchema),
  }),
);
/** A value matching the {@link SchedulerJobInput} schema. */
export type SchedulerJobInput = Static<typeof SchedulerJobInput>;
