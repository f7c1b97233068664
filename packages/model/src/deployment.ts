/**
 * Deployments: rolling updates of a service job between two versions.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { Nanoseconds, Nullable, NullableArray, SafeInteger } from './internal/schema.js';
import { lazySchema } from './internal/lazy.js';

/**
 * Deployment statuses.
 *
 * @since 0.1.0
 */
export const DeploymentStatus = {
  /** In progress. */
  Running: 'running',
  /** Paused by a user. */
  Paused: 'paused',
  /** Failed (an allocation became unhealthy or the progress deadline passed). */
  Failed: 'failed',
  /** Every allocation of the new version is healthy. */
  Successful: 'successful',
  /** Superseded by a newer job version or stopped. */
  Cancelled: 'cancelled',
  /** Waiting (multi-region) for its turn. */
  Pending: 'pending',
  /** Waiting (multi-region) for other regions. */
  Blocked: 'blocked',
  /** Being unblocked (multi-region). */
  Unblocking: 'unblocking',
  /** Being created. */
  Initializing: 'initializing',
} as const;
/** One of the values of {@link DeploymentStatus}. */
export type DeploymentStatus = (typeof DeploymentStatus)[keyof typeof DeploymentStatus];

/**
 * State of one task group within a deployment.
 *
 * @since 0.1.0
 */
export const DeploymentState = lazySchema(() =>
  Type.Object({
    /** Whether canaries are promoted automatically. */
    AutoPromote: Type.Boolean(),
    /** Whether a failure reverts the job to its last stable version. */
    AutoRevert: Type.Boolean(),
    /** Canaries wanted. */
    DesiredCanaries: SafeInteger({ minimum: 0 }),
    /** Allocations of the new version wanted in total. */
    DesiredTotal: SafeInteger({ minimum: 0 }),
    /** Allocations of the new version that are healthy. */
    HealthyAllocs: SafeInteger({ minimum: 0 }),
    /** Allocations of the new version that are unhealthy. */
    UnhealthyAllocs: SafeInteger({ minimum: 0 }),
    /** Allocations of the new version placed. */
    PlacedAllocs: SafeInteger({ minimum: 0 }),
    /** IDs of the canary allocations placed; `null` when none. */
    PlacedCanaries: NullableArray(Type.String()),
    /** Deadline for progress, in nanoseconds (0 = none). */
    ProgressDeadline: Nanoseconds(),
    /** Whether the canaries have been promoted. */
    Promoted: Type.Boolean(),
    /** Time by which progress must be made, ISO 8601; `null` when there is no deadline. */
    RequireProgressBy: Nullable(Type.String()),
  }),
);
/** A value matching the {@link DeploymentState} schema. */
export type DeploymentState = Static<typeof DeploymentState>;

/**
 * A deployment: tracks the rolling update of a job's allocations to one job version.
 *
 * @since 0.1.0
 */
export const Deployment = lazySchema(() =>
  Type.Object({
    /** Deployment ID (UUID). */
    ID: Type.String(),
    /** Namespace of the job. */
    Namespace: Type.String(),
    /** ID of the job. */
    JobID: Type.String(),
    /** Job version being deployed. */
    JobVersion: SafeInteger({ minimum: 0 }),
    /** `CreateIndex` of the job. */
    JobCreateIndex: SafeInteger({ minimum: 0 }),
    /** `ModifyIndex` of the job when the deployment was created. */
    JobModifyIndex: SafeInteger({ minimum: 0 }),
    /** `JobModifyIndex` of the job specification being deployed. */
    JobSpecModifyIndex: SafeInteger({ minimum: 0 }),
    /** Priority of the evaluations the deployment creates. */
    EvalPriority: SafeInteger({ minimum: 0 }),
    /** Whether the deployment is part of a multi-region deployment. */
    IsMultiregion: Type.Boolean(),
    /** Status; see {@link DeploymentStatus}. */
    Status: Type.Enum(DeploymentStatus),
    /** Explanation of the status, for example `Deployment completed successfully`. */
    StatusDescription: Type.String(),
    /** State per task group name. */
    TaskGroups: Type.Record(Type.String(), DeploymentState),
    /** Raft index at which the deployment was created. */
    CreateIndex: SafeInteger({ minimum: 0 }),
    /** Raft index of the last change. */
    ModifyIndex: SafeInteger({ minimum: 0 }),
  }),
);
/** A value matching the {@link Deployment} schema. */
export type Deployment = Static<typeof Deployment>;
