/**
 * Request and response bodies of the job endpoints.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { Evaluation, AllocationMetric } from './evaluation.js';
import { Nullable, NullableArray, StringMap, SafeInteger } from './internal/schema.js';
import { JobDiff } from './job-diff.js';
import { Job, JobInput } from './job.js';
import { JobSubmissionInput } from './job-reads.js';
import { lazySchema } from './internal/lazy.js';

/**
 * Largest dispatch payload, in bytes once decoded.
 *
 * @remarks The schema bounds the base64 text to 21848 characters (the encoded length of 16384 bytes);
 * since 16385 and 16386 bytes encode to the same length, the exact decoded size is for the server to check.
 * @since 0.1.0
 */
export const MaxDispatchPayloadBytes = 16384;

/** Largest base64 text whose decoded size can fit the dispatch payload limit. */
const MaxDispatchPayloadBase64 = Math.ceil(MaxDispatchPayloadBytes / 3) * 4;

/**
 * Body of `POST /v1/jobs` (create) and `POST /v1/job/:job_id` (update).
 *
 * @since 0.1.0
 */
export const JobRegisterRequest = lazySchema(() =>
  Type.Object({
    /** The job to register. */
    Job: JobInput,
    /** Original source of the job, kept for reference only; absent or `null` when not given. */
    Submission: Type.Optional(Nullable(JobSubmissionInput)),
    /** Register only if `JobModifyIndex` matches the current job's (0 = only if the job is new). Default `false`. */
    EnforceIndex: Type.Optional(Type.Boolean()),
    /** Priority of the resulting evaluation; 0 (default) = the job's priority. */
    EvalPriority: Type.Optional(SafeInteger({ minimum: 0, maximum: 100 })),
    /** Index checked when `EnforceIndex` is set. Default 0. */
    JobModifyIndex: Type.Optional(SafeInteger({ minimum: 0 })),
    /** Override soft-mandatory policies. Default `false`. */
    PolicyOverride: Type.Optional(Type.Boolean()),
    /** Keep the current group counts instead of the submitted ones (create only). Default `false`. */
    PreserveCounts: Type.Optional(Type.Boolean()),
  }),
);
/** A value matching the {@link JobRegisterRequest} schema. */
export type JobRegisterRequest = Static<typeof JobRegisterRequest>;

/**
 * Response of `POST /v1/jobs` (create).
 *
 * @since 0.1.0
 */
export const JobRegisterResponse = lazySchema(() =>
  Type.Object({
    /** ID of the evaluation created; `""` when none was (for example a periodic or parameterized job). */
    EvalID: Type.String(),
    /** Raft index of the evaluation's creation; 0 when none. */
    EvalCreateIndex: SafeInteger({ minimum: 0 }),
    /** `JobModifyIndex` of the registered job. */
    JobModifyIndex: SafeInteger({ minimum: 0 }),
    /** Warnings about the job, one per line; `""` when none. */
    Warnings: Type.String(),
    /** Raft index of the write. */
    Index: SafeInteger({ minimum: 0 }),
    /** Milliseconds since the server last heard from the leader (0 on the leader). */
    LastContact: SafeInteger({ minimum: 0 }),
    /** Whether a leader is known. */
    KnownLeader: Type.Boolean(),
  }),
);
/** A value matching the {@link JobRegisterResponse} schema. */
export type JobRegisterResponse = Static<typeof JobRegisterResponse>;

/**
 * Response of update, revert, evaluate and stop (`DELETE /v1/job/:job_id`): the evaluation created.
 *
 * @since 0.1.0
 */
export const JobEvalResponse = lazySchema(() =>
  Type.Object({
    /** ID of the evaluation created; `""` when none was. */
    EvalID: Type.String(),
    /** Raft index of the evaluation's creation; 0 when none. */
    EvalCreateIndex: SafeInteger({ minimum: 0 }),
    /** `JobModifyIndex` of the job after the operation. */
    JobModifyIndex: SafeInteger({ minimum: 0 }),
  }),
);
/** A value matching the {@link JobEvalResponse} schema. */
export type JobEvalResponse = Static<typeof JobEvalResponse>;

/**
 * Body of `POST /v1/jobs/parse`.
 *
 * @since 0.1.0
 */
export const JobParseRequest = lazySchema(() =>
  Type.Object({
    /** Job text in the configuration language. Required. */
    JobHCL: Type.String(),
    /** Fill unset fields with defaults (see {@link canonicalizeJob}). Default `false`. */
    Canonicalize: Type.Optional(Type.Boolean()),
    /** Variables in var-file format. Default `""`. */
    Variables: Type.Optional(Type.String()),
    /** Variables as `key = value` pairs; absent or `null` = none. */
    VariableFlags: Type.Optional(Nullable(StringMap)),
    /** Use the legacy parser. Default `false`. */
    HCLv1: Type.Optional(Type.Boolean()),
  }),
);
/** A value matching the {@link JobParseRequest} schema. */
export type JobParseRequest = Static<typeof JobParseRequest>;

/**
 * Response of `POST /v1/jobs/parse`: the job as JSON (complete only when `Canonicalize` was set).
 *
 * @since 0.1.0
 */
export const JobParseResponse = JobInput;
/** A value matching the {@link JobParseResponse} schema. */
export type JobParseResponse = Static<typeof JobParseResponse>;

/**
 * Body of `POST /v1/job/:job_id/dispatch`.
 *
 * @since 0.1.0
 */
export const JobDispatchRequest = lazySchema(() =>
  Type.Object({
    /** Prefix for the dispatched job's ID; `""` (default) = none. */
    IdPrefixTemplate: Type.Optional(Type.String()),
    /** Payload, base64-encoded, at most 16384 bytes once decoded. Default `""` (no payload). */
    Payload: Type.Optional(
      Type.String({
        maxLength: MaxDispatchPayloadBase64,
        pattern: '^[A-Za-z0-9+/]*={0,2}$',
        'x-expected': 'base64-encoded bytes (at most 16384 bytes once decoded)',
      }),
    ),
    /** Meta of the dispatched job (must satisfy the job's `MetaRequired`/`MetaOptional`); absent or `null` = none. */
    Meta: Type.Optional(Nullable(StringMap)),
  }),
);
/** A value matching the {@link JobDispatchRequest} schema. */
export type JobDispatchRequest = Static<typeof JobDispatchRequest>;

/**
 * Response of `POST /v1/job/:job_id/dispatch`.
 *
 * @since 0.1.0
 */
export const JobDispatchResponse = lazySchema(() =>
  Type.Object({
    /** Raft index of the write. */
    Index: SafeInteger({ minimum: 0 }),
    /** `CreateIndex` of the dispatched job. */
    JobCreateIndex: SafeInteger({ minimum: 0 }),
    /** Raft index of the evaluation's creation; 0 when none. */
    EvalCreateIndex: SafeInteger({ minimum: 0 }),
    /** ID of the evaluation created; `""` when none. */
    EvalID: Type.String(),
    /** ID of the dispatched child job, `<parent>/dispatch-<unix seconds>-<8 hex>`. */
    DispatchedJobID: Type.String(),
  }),
);
/** A value matching the {@link JobDispatchResponse} schema. */
export type JobDispatchResponse = Static<typeof JobDispatchResponse>;

/**
 * Body of `POST /v1/job/:job_id/revert`.
 *
 * @since 0.1.0
 */
export const JobRevertRequest = lazySchema(() =>
  Type.Object({
    /** ID of the job. Required. */
    JobID: Type.String({ minLength: 1 }),
    /** Version to revert to. Default 0. */
    JobVersion: Type.Optional(SafeInteger({ minimum: 0 })),
    /** Current version expected (check-and-set); absent or `null` = no check. */
    EnforcePriorVersion: Type.Optional(Nullable(SafeInteger({ minimum: 0 }))),
    /** Token of the mesh service for service-identity checks. Default `""`. */
    MeshToken: Type.Optional(Type.String()),
    /** Token of the secrets service for policy checks. Default `""`. */
    SecretsToken: Type.Optional(Type.String()),
  }),
);
/** A value matching the {@link JobRevertRequest} schema. */
export type JobRevertRequest = Static<typeof JobRevertRequest>;

/**
 * Body of `POST /v1/job/:job_id/stable`.
 *
 * @since 0.1.0
 */
export const JobStabilityRequest = lazySchema(() =>
  Type.Object({
    /** ID of the job. Required. */
    JobID: Type.String({ minLength: 1 }),
    /** Version to mark. Default 0. */
    JobVersion: Type.Optional(SafeInteger({ minimum: 0 })),
    /** Whether the version is stable. Default `false`. */
    Stable: Type.Optional(Type.Boolean()),
  }),
);
/** A value matching the {@link JobStabilityRequest} schema. */
export type JobStabilityRequest = Static<typeof JobStabilityRequest>;

/**
 * Response of `POST /v1/job/:job_id/stable`.
 *
 * @since 0.1.0
 */
export const JobStabilityResponse = lazySchema(() =>
  Type.Object({
    /** `JobModifyIndex` of the job after the change. */
    JobModifyIndex: SafeInteger({ minimum: 0 }),
  }),
);
/** A value matching the {@link JobStabilityResponse} schema. */
export type JobStabilityResponse = Static<typeof JobStabilityResponse>;

/**
 * Body of `POST /v1/job/:job_id/evaluate`.
 *
 * @since 0.1.0
 */
export const JobEvaluateRequest = lazySchema(() =>
  Type.Object({
    /** ID of the job. Required. */
    JobID: Type.String({ minLength: 1 }),
    /** Options; absent or `null` = defaults. */
    EvalOptions: Type.Optional(
      Nullable(
        Type.Object({
          /** Reschedule failed allocations at once, even past their reschedule limit or delay. Default `false`. */
          ForceReschedule: Type.Optional(Type.Boolean()),
        }),
      ),
    ),
  }),
);
/** A value matching the {@link JobEvaluateRequest} schema. */
export type JobEvaluateRequest = Static<typeof JobEvaluateRequest>;

/**
 * Body of `POST /v1/job/:job_id/plan`.
 *
 * @since 0.1.0
 */
export const JobPlanRequest = lazySchema(() =>
  Type.Object({
    /** The job to plan. */
    Job: JobInput,
    /** Include the diff against the server's version. Default `false`. */
    Diff: Type.Optional(Type.Boolean()),
    /** Override soft-mandatory policies. Default `false`. */
    PolicyOverride: Type.Optional(Type.Boolean()),
  }),
);
/** A value matching the {@link JobPlanRequest} schema. */
export type JobPlanRequest = Static<typeof JobPlanRequest>;

/**
 * Planned changes for one task group.
 *
 * @since 0.1.0
 */
export const DesiredUpdates = lazySchema(() =>
  Type.Object({
    /** Allocations replaced (create/destroy). */
    DestructiveUpdate: SafeInteger({ minimum: 0 }),
    /** Allocations updated in place. */
    InPlaceUpdate: SafeInteger({ minimum: 0 }),
    /** Allocations stopped. */
    Stop: SafeInteger({ minimum: 0 }),
    /** Allocations migrated. */
    Migrate: SafeInteger({ minimum: 0 }),
    /** Allocations placed. */
    Place: SafeInteger({ minimum: 0 }),
    /** Allocations left as they are. */
    Ignore: SafeInteger({ minimum: 0 }),
    /** Canaries placed. Absent = 0. */
    Canary: Type.Optional(SafeInteger({ minimum: 0 })),
  }),
);
/** A value matching the {@link DesiredUpdates} schema. */
export type DesiredUpdates = Static<typeof DesiredUpdates>;

/**
 * Response of `POST /v1/job/:job_id/plan`.
 *
 * @since 0.1.0
 */
export const JobPlanResponse = lazySchema(() =>
  Type.Object({
    /** Raft index of the state the plan used. */
    Index: SafeInteger({ minimum: 0 }),
    /** Next launch of a periodic job, ISO 8601; `null` when the job is not periodic. */
    NextPeriodicLaunch: Nullable(Type.String()),
    /** Warnings about the job; `""` when none. */
    Warnings: Type.String(),
    /** Diff between the submitted job and the server's version; `null` unless requested with `Diff: true`. */
    Diff: Nullable(JobDiff),
    /** Evaluations the dry run would create (rolling-update follow-up or blocked evaluation); `null` when none. */
    CreatedEvals: NullableArray(Evaluation),
    /** `JobModifyIndex` of the server-side job (0 when the job is new); use it with `EnforceIndex`. */
    JobModifyIndex: SafeInteger({ minimum: 0 }),
    /** Placement failures per task group; `null` when everything could be placed. */
    FailedTGAllocs: Nullable(Type.Record(Type.String(), AllocationMetric)),
    /** What the scheduler would do; `null` when not computed. */
    Annotations: Nullable(
      Type.Object({
        /** Planned changes per task group name. */
        DesiredTGUpdates: Nullable(Type.Record(Type.String(), DesiredUpdates)),
      }),
    ),
  }),
);
/** A value matching the {@link JobPlanResponse} schema. */
export type JobPlanResponse = Static<typeof JobPlanResponse>;

/**
 * Response of `GET /v1/job/:job_id/versions`.
 *
 * @since 0.1.0
 */
export const JobVersionsResponse = lazySchema(() =>
  Type.Object({
    /** Diff of each version against the previous one (requested with `diffs=true`), newest first; `null` otherwise. */
    Diffs: NullableArray(JobDiff),
    /** Raft index of the read. */
    Index: SafeInteger({ minimum: 0 }),
    /** Whether a leader is known. */
    KnownLeader: Type.Boolean(),
    /** Milliseconds since the server last heard from the leader. */
    LastContact: SafeInteger({ minimum: 0 }),
    /** Every retained version of the job, newest first. */
    Versions: Type.Array(Job),
  }),
);
/** A value matching the {@link JobVersionsResponse} schema. */
export type JobVersionsResponse = Static<typeof JobVersionsResponse>;

/**
 * Response of `POST /v1/job/:job_id/periodic/force`.
 *
 * @since 0.1.0
 */
export const JobPeriodicForceResponse = lazySchema(() =>
  Type.Object({
    /** Raft index of the evaluation's creation. */
    EvalCreateIndex: SafeInteger({ minimum: 0 }),
    /** ID of the evaluation created for the launched child job. */
    EvalID: Type.String(),
  }),
);
/** A value matching the {@link JobPeriodicForceResponse} schema. */
export type JobPeriodicForceResponse = Static<typeof JobPeriodicForceResponse>;

/**
 * Response of `DELETE /v1/job/:job_id` (stop): the evaluation created.
 *
 * @since 0.1.0
 */
export const JobDeregisterResponse = JobEvalResponse;
/** A value matching the {@link JobDeregisterResponse} schema. */
export type JobDeregisterResponse = Static<typeof JobDeregisterResponse>;
