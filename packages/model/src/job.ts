/**
 * Jobs: the full definition (stored and submitted forms), the list item, the summary and the submission.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { Affinity, AffinityInput, Constraint, ConstraintInput, Spread, SpreadInput } from './constraint.js';
import { Nullable, NullableArray, StringMap, optionalProperties } from './internal/schema.js';
import {
  MigrateStrategy,
  MigrateStrategyInput,
  ReschedulePolicy,
  ReschedulePolicyInput,
  UpdateStrategy,
  UpdateStrategyInput,
} from './policies.js';
import { TaskGroup, TaskGroupInput } from './task-group.js';

/**
 * Job types.
 *
 * - `service`: long-running; restarted, rescheduled and updated with rolling deployments.
 * - `batch`: runs to completion.
 * - `sysbatch`: runs to completion once on every eligible node.
 *
 * @since 0.1.0
 */
export const JobType = {
  /** Long-running services. */
  Service: 'service',
  /** Work that runs to completion. */
  Batch: 'batch',
  /** Work that runs to completion on every eligible node. */
  SysBatch: 'sysbatch',
} as const;
/** One of the values of {@link JobType}. */
export type JobType = (typeof JobType)[keyof typeof JobType];

/**
 * Every job type a scheduler stores and runs: the submittable {@link JobType}s plus `system`, a
 * long-running job with one allocation on every eligible node that is never rescheduled (placed again
 * when a node joins). The spec's submit bodies list only `service`, `batch` and `sysbatch`, so
 * {@link JobInput} refuses `system`; a stored {@link Job} (from a job file, or a server that runs system
 * jobs) may carry it: its type is {@link SchedulerJob}.
 *
 * @example
 * ```ts
 * import { SchedulerJobType, type SchedulerJob } from '@sked/model';
 *
 * const perNode = (job: SchedulerJob): boolean =>
 *   job.Type === SchedulerJobType.System || job.Type === SchedulerJobType.SysBatch;
 * ```
 * @since 0.2.0
 */
export const SchedulerJobType = {
  ...JobType,
  /** Long-running work on every eligible node, never rescheduled. */
  System: 'system',
} as const;
/** One of the values of {@link SchedulerJobType}. */
export type SchedulerJobType = (typeof SchedulerJobType)[keyof typeof SchedulerJobType];

/**
 * Job statuses.
 *
 * - `pending`: registered, no allocation running yet.
 * - `running`: at least one allocation is running (or for periodic and parameterized parents, the job is active).
 * - `dead`: stopped, or every allocation has finished and none will run again.
 *
 * @since 0.1.0
 */
export const JobStatus = {
  /** Registered, nothing running yet. */
  Pending: 'pending',
  /** Something is running. */
  Running: 'running',
  /** Stopped or finished for good. */
  Dead: 'dead',
} as const;
/** One of the values of {@link JobStatus}. */
export type JobStatus = (typeof JobStatus)[keyof typeof JobStatus];

const JobTypeSchema = Type.Enum(JobType);
const JobStatusSchema = Type.Enum(JobStatus);

const PeriodicProperties = {
  /** Whether new instances are launched. Canonicalization default: `true`. */
  Enabled: Type.Boolean(),
  /** Launch schedule; a cron expression when `SpecType` is `cron`. */
  Spec: Type.String(),
  /** Kind of `Spec`: `cron` (default). */
  SpecType: Type.String(),
  /** Whether a new instance is skipped while a previous one still runs. Default `false`. */
  ProhibitOverlap: Type.Boolean(),
  /** IANA time zone the schedule is read in; `""` or absent = `UTC`. */
  TimeZone: Type.Optional(Type.String()),
};

/**
 * Periodic launch configuration: the job is a template launching a child job on a schedule.
 *
 * @since 0.1.0
 */
export const Periodic = Type.Object(PeriodicProperties);
/** A value matching the {@link Periodic} schema. */
export type Periodic = Static<typeof Periodic>;

/**
 * A {@link Periodic} block as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const PeriodicInput = Type.Object(optionalProperties(PeriodicProperties));
/** A value matching the {@link PeriodicInput} schema. */
export type PeriodicInput = Static<typeof PeriodicInput>;

const ParameterizedJobProperties = {
  /** Whether a dispatch payload is `optional` (default), `required` or `forbidden`. */
  Payload: Type.String(),
  /** Meta keys every dispatch must give; `null` when none. */
  MetaRequired: NullableArray(Type.String()),
  /** Meta keys a dispatch may give; `null` when none. */
  MetaOptional: NullableArray(Type.String()),
};

/**
 * Parameterized job configuration: the job is a template instantiated by dispatch.
 *
 * @since 0.1.0
 */
export const ParameterizedJob = Type.Object(ParameterizedJobProperties);
/** A value matching the {@link ParameterizedJob} schema. */
export type ParameterizedJob = Static<typeof ParameterizedJob>;

/**
 * A {@link ParameterizedJob} block as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const ParameterizedJobInput = Type.Object(optionalProperties(ParameterizedJobProperties));
/** A value matching the {@link ParameterizedJobInput} schema. */
export type ParameterizedJobInput = Static<typeof ParameterizedJobInput>;

const MultiregionStrategyProperties = {
  /** Regions updated at the same time; 0 = all at once. */
  MaxParallel: Type.Integer({ minimum: 0 }),
  /** What a failed region does to the others: `""` (nothing), `fail_all` or `fail_local`. */
  OnFailure: Type.String(),
};

const MultiregionRegionProperties = {
  /** Region name. */
  Name: Type.String(),
  /** Group count override for this region; 0 = the job's counts. */
  Count: Type.Integer({ minimum: 0 }),
  /** Datacenters used in this region; `null` = the job's. */
  Datacenters: NullableArray(Type.String()),
  /** Meta merged into the job in this region; `null` when none. */
  Meta: Nullable(StringMap),
};

/**
 * Multi-region deployment configuration.
 *
 * @since 0.1.0
 */
export const Multiregion = Type.Object({
  /** How regions are rolled out; `null` = all at once. */
  Strategy: Nullable(Type.Object(MultiregionStrategyProperties)),
  /** Regions the job runs in; `null` when none. */
  Regions: NullableArray(Type.Object(MultiregionRegionProperties)),
});
/** A value matching the {@link Multiregion} schema. */
export type Multiregion = Static<typeof Multiregion>;

/**
 * A {@link Multiregion} block as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const MultiregionInput = Type.Object({
  /** See {@link Multiregion}. */
  Strategy: Type.Optional(Nullable(Type.Object(optionalProperties(MultiregionStrategyProperties)))),
  /** See {@link Multiregion}. */
  Regions: Type.Optional(NullableArray(Type.Object(optionalProperties(MultiregionRegionProperties)))),
});
/** A value matching the {@link MultiregionInput} schema. */
export type MultiregionInput = Static<typeof MultiregionInput>;

const JobScalarProperties = {
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
  Priority: Type.Integer({ minimum: 1, maximum: 100 }),
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
  Version: Type.Integer({ minimum: 0 }),
  /** Time of the last submission, in Unix nanoseconds (0 before the first registration). */
  SubmitTime: Type.Integer(),
  /** Status: `pending`, `running` or `dead`. */
  Status: JobStatusSchema,
  /** Human-readable explanation of the status; `""` when none. */
  StatusDescription: Type.String(),
  /** Raft index at which the job was created. */
  CreateIndex: Type.Integer({ minimum: 0 }),
  /** Raft index of the last change of the job object (including status changes). */
  ModifyIndex: Type.Integer({ minimum: 0 }),
  /** Raft index of the last change of the job's specification. */
  JobModifyIndex: Type.Integer({ minimum: 0 }),
  /** Mesh-service token used to register services on submission; never returned (always `""` on reads). */
  MeshToken: Type.String(),
  /** Secrets-service token used to check policies on submission; never returned (always `""` on reads). */
  SecretsToken: Type.String(),
  /** Accessor ID of the service-identity token used on submission; `""` when none. */
  SvcTokenID: Type.String(),
  /** Namespace of the secrets service used for the job's tasks; `""` = the default namespace. */
  SecretsNamespace: Type.String(),
};

/**
 * A job as stored and returned by the service: every field present (absent objects, maps and lists are `null`).
 *
 * @remarks Use {@link JobInput} for what users submit and {@link canonicalizeJob} to go from one to the other.
 * @since 0.1.0
 */
export const Job = Type.Object({
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
});
/** A value matching the {@link Job} schema. */
export type Job = Static<typeof Job>;

/**
 * A stored job of any {@link SchedulerJobType}, `system` included: what a scheduler keeps, and what
 * {@link canonicalizeJob} returns for a job of type `system`. A {@link Job} is one.
 *
 * @example
 * ```ts
 * import { canonicalizeJob, type JobInput, type SchedulerJob } from '@sked/model';
 *
 * // A job file may name the `system` type, which the submit schema (JobInput) refuses.
 * const fromFile = { ID: 'agent', Type: 'system', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock' }] }] };
 * const agent: SchedulerJob = canonicalizeJob(fromFile as unknown as JobInput);
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
export const JobInput = Type.Object({
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
});
/** A value matching the {@link JobInput} schema. */
export type JobInput = Static<typeof JobInput>;

/**
 * Allocation counts of one task group, by client status.
 *
 * @since 0.1.0
 */
export const TaskGroupSummary = Type.Object({
  /** Allocations wanted but not yet placed. */
  Queued: Type.Integer({ minimum: 0 }),
  /** Allocations that finished successfully. */
  Complete: Type.Integer({ minimum: 0 }),
  /** Allocations that failed. */
  Failed: Type.Integer({ minimum: 0 }),
  /** Allocations running. */
  Running: Type.Integer({ minimum: 0 }),
  /** Allocations placed but not yet running. */
  Starting: Type.Integer({ minimum: 0 }),
  /** Allocations lost with their node. */
  Lost: Type.Integer({ minimum: 0 }),
  /** Allocations on a disconnected node whose state is unknown. Absent = 0. */
  Unknown: Type.Optional(Type.Integer({ minimum: 0 })),
});
/** A value matching the {@link TaskGroupSummary} schema. */
export type TaskGroupSummary = Static<typeof TaskGroupSummary>;

/**
 * Child-job counts of a periodic or parameterized job, by status.
 *
 * @since 0.1.0
 */
export const JobChildrenSummary = Type.Object({
  /** Children pending. */
  Pending: Type.Integer({ minimum: 0 }),
  /** Children running. */
  Running: Type.Integer({ minimum: 0 }),
  /** Children dead. */
  Dead: Type.Integer({ minimum: 0 }),
});
/** A value matching the {@link JobChildrenSummary} schema. */
export type JobChildrenSummary = Static<typeof JobChildrenSummary>;

/**
 * Allocation counts per task group of a job, and child-job counts.
 *
 * @since 0.1.0
 */
export const JobSummary = Type.Object({
  /** ID of the job. */
  JobID: Type.String(),
  /** Namespace of the job. */
  Namespace: Type.String(),
  /** Counts per task group name. */
  Summary: Type.Record(Type.String(), TaskGroupSummary),
  /** Child-job counts (all zero for jobs without children). */
  Children: JobChildrenSummary,
  /** Raft index at which the summary was created. */
  CreateIndex: Type.Integer({ minimum: 0 }),
  /** Raft index of the last change of the summary. */
  ModifyIndex: Type.Integer({ minimum: 0 }),
});
/** A value matching the {@link JobSummary} schema. */
export type JobSummary = Static<typeof JobSummary>;

/**
 * An item of the job list (`GET /v1/jobs`).
 *
 * @since 0.1.0
 */
export const JobListStub = Type.Object({
  /** ID of the job. */
  ID: Type.String(),
  /** ID of the parent job; `""` when none. */
  ParentID: Type.String(),
  /** Display name. */
  Name: Type.String(),
  /** Namespace. */
  Namespace: Type.String(),
  /** Job type. */
  Type: JobTypeSchema,
  /** Priority (1-100). */
  Priority: Type.Integer(),
  /** Status. */
  Status: JobStatusSchema,
  /** Explanation of the status; `""` when none. */
  StatusDescription: Type.String(),
  /** Datacenters the job may run in. */
  Datacenters: Type.Array(Type.String()),
  /** Multi-region configuration; `null` for single-region jobs. */
  Multiregion: Nullable(Multiregion),
  /** Whether the job is parameterized. */
  ParameterizedJob: Type.Boolean(),
  /** Whether the job is periodic. */
  Periodic: Type.Boolean(),
  /** Whether the job is stopped. */
  Stop: Type.Boolean(),
  /** Time of the last submission, in Unix nanoseconds. */
  SubmitTime: Type.Integer(),
  /** Allocation summary of the job. */
  JobSummary: JobSummary,
  /** Raft index at which the job was created. */
  CreateIndex: Type.Integer({ minimum: 0 }),
  /** Raft index of the last change of the job object. */
  ModifyIndex: Type.Integer({ minimum: 0 }),
  /** Raft index of the last change of the specification. */
  JobModifyIndex: Type.Integer({ minimum: 0 }),
  /** Job metadata; present only when the list was requested with `meta=true` (`null` when the job has none). */
  Meta: Type.Optional(Nullable(StringMap)),
});
/** A value matching the {@link JobListStub} schema. */
export type JobListStub = Static<typeof JobListStub>;

/**
 * Formats of an original job source.
 *
 * @since 0.1.0
 */
export const JobSubmissionFormat = {
  /** The current configuration language. */
  Hcl2: 'hcl2',
  /** The legacy configuration language. */
  Hcl1: 'hcl1',
  /** JSON. */
  Json: 'json',
} as const;
/** One of the values of {@link JobSubmissionFormat}. */
export type JobSubmissionFormat = (typeof JobSubmissionFormat)[keyof typeof JobSubmissionFormat];

const JobSubmissionProperties = {
  /** Language of `Source`: `hcl2`, `hcl1` or `json`. */
  Format: Type.Enum(JobSubmissionFormat),
  /** `JobModifyIndex` of the job version this source belongs to. */
  JobIndex: Type.Integer({ minimum: 0 }),
  /** ID of the job the file belongs to. */
  JobID: Type.String(),
  /** Namespace of the job. */
  Namespace: Type.String(),
  /** Literal content of the original job file. */
  Source: Type.String(),
  /** Variables given as command-line flags at submission; `null` when none. */
  VariableFlags: Nullable(StringMap),
  /** Content of the variables form (web interface); `""` when none. */
  Variables: Type.String(),
  /** Job version this source belongs to. */
  Version: Type.Integer({ minimum: 0 }),
};

/**
 * The original source of a job version, kept for reference (the 6 most recent per job).
 *
 * @since 0.1.0
 */
export const JobSubmission = Type.Object(JobSubmissionProperties);
/** A value matching the {@link JobSubmission} schema. */
export type JobSubmission = Static<typeof JobSubmission>;

/**
 * A {@link JobSubmission} as sent with a registration: only `Source` is required; `Format` defaults to
 * `hcl2`, and the job fields are filled by the service.
 *
 * @since 0.1.0
 */
export const JobSubmissionInput = Type.Object({
  ...optionalProperties(JobSubmissionProperties),
  /** See {@link JobSubmission}. Required. */
  Source: JobSubmissionProperties.Source,
});
/** A value matching the {@link JobSubmissionInput} schema. */
export type JobSubmissionInput = Static<typeof JobSubmissionInput>;
