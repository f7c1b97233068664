/**
 * What the service answers about jobs besides the job itself: the list item, the summary of
 * allocation counts, and the submitted source of a version.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';
import { Nullable, StringMap, optionalProperties, SafeInteger, UnixNanos } from './internal/schema.js';
import { Multiregion } from './job-launch.js';
import { JobStatusSchema, JobTypeSchema } from './job-types.js';
import { lazySchema } from './internal/lazy.js';

/**
 * Allocation counts of one task group, by client status.
 *
 * @since 0.1.0
 */
export const TaskGroupSummary = lazySchema(() =>
  Type.Object({
    /** Allocations wanted but not yet placed. */
    Queued: SafeInteger({ minimum: 0 }),
    /** Allocations that finished successfully. */
    Complete: SafeInteger({ minimum: 0 }),
    /** Allocations that failed. */
    Failed: SafeInteger({ minimum: 0 }),
    /** Allocations running. */
    Running: SafeInteger({ minimum: 0 }),
    /** Allocations placed but not yet running. */
    Starting: SafeInteger({ minimum: 0 }),
    /** Allocations lost with their node. */
    Lost: SafeInteger({ minimum: 0 }),
    /** Allocations on a disconnected node whose state is unknown. Absent = 0. */
    Unknown: Type.Optional(SafeInteger({ minimum: 0 })),
  }),
);
/** A value matching the {@link TaskGroupSummary} schema. */
export type TaskGroupSummary = Static<typeof TaskGroupSummary>;

/**
 * Child-job counts of a periodic or parameterized job, by status.
 *
 * @since 0.1.0
 */
export const JobChildrenSummary = lazySchema(() =>
  Type.Object({
    /** Children pending. */
    Pending: SafeInteger({ minimum: 0 }),
    /** Children running. */
    Running: SafeInteger({ minimum: 0 }),
    /** Children dead. */
    Dead: SafeInteger({ minimum: 0 }),
  }),
);
/** A value matching the {@link JobChildrenSummary} schema. */
export type JobChildrenSummary = Static<typeof JobChildrenSummary>;

/**
 * Allocation counts per task group of a job, and child-job counts.
 *
 * @since 0.1.0
 */
export const JobSummary = lazySchema(() =>
  Type.Object({
    /** ID of the job. */
    JobID: Type.String(),
    /** Namespace of the job. */
    Namespace: Type.String(),
    /** Counts per task group name. */
    Summary: Type.Record(Type.String(), TaskGroupSummary),
    /** Child-job counts (all zero for jobs without children). */
    Children: JobChildrenSummary,
    /** Raft index at which the summary was created. */
    CreateIndex: SafeInteger({ minimum: 0 }),
    /** Raft index of the last change of the summary. */
    ModifyIndex: SafeInteger({ minimum: 0 }),
  }),
);
/** A value matching the {@link JobSummary} schema. */
export type JobSummary = Static<typeof JobSummary>;

/**
 * An item of the job list (`GET /v1/jobs`).
 *
 * @since 0.1.0
 */
export const JobListStub = lazySchema(() =>
  Type.Object({
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
    Priority: SafeInteger(),
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
    SubmitTime: UnixNanos(),
    /** Allocation summary of the job. */
    JobSummary: JobSummary,
    /** Raft index at which the job was created. */
    CreateIndex: SafeInteger({ minimum: 0 }),
    /** Raft index of the last change of the job object. */
    ModifyIndex: SafeInteger({ minimum: 0 }),
    /** Raft index of the last change of the specification. */
    JobModifyIndex: SafeInteger({ minimum: 0 }),
    /** Job metadata; present only when the list was requested with `meta=true` (`null` when the job has none). */
    Meta: Type.Optional(Nullable(StringMap)),
  }),
);
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

const JobSubmissionProperties = lazySchema(() => ({
  /** Language of `Source`: `hcl2`, `hcl1` or `json`. */
  Format: Type.Enum(JobSubmissionFormat),
  /** `JobModifyIndex` of the job version this source belongs to. */
  JobIndex: SafeInteger({ minimum: 0 }),
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
  Version: SafeInteger({ minimum: 0 }),
}));

/**
 * The original source of a job version, kept for reference (the 6 most recent per job).
 *
 * @since 0.1.0
 */
export const JobSubmission = lazySchema(() => Type.Object(JobSubmissionProperties));
/** A value matching the {@link JobSubmission} schema. */
export type JobSubmission = Static<typeof JobSubmission>;

/**
 * A {@link JobSubmission} as sent with a registration: only `Source` is required; `Format` defaults to
 * `hcl2`, and the job fields are filled by the service.
 *
 * @since 0.1.0
 */
export const JobSubmissionInput = lazySchema(() =>
  Type.Object({
    ...optionalProperties(JobSubmissionProperties),
    /** See {@link JobSubmission}. Required. */
    Source: JobSubmissionProperties.Source,
  }),
);
/** A value matching the {@link JobSubmissionInput} schema. */
export type JobSubmissionInput = Static<typeof JobSubmissionInput>;
