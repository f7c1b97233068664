/**
 * Job types and statuses, as constants with their union types and schemas.
 *
 * @packageDocumentation
 */
import Type from 'typebox';
import { lazySchema } from './internal/lazy.js';

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

export const JobTypeSchema = lazySchema(() => Type.Enum(JobType));
export const SchedulerJobTypeSchema = lazySchema(() => Type.Enum(SchedulerJobType));
export const JobStatusSchema = lazySchema(() => Type.Enum(JobStatus));
