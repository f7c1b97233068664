/** The options of the job endpoints. */
import type { JobRegisterRequest } from '@sked/model';
import type { ListOptions, ReadOptions, RequestOptions } from '../options.js';

/**
 * Options of {@link JobsApi.list}.
 * @since 0.1.0
 */
export interface JobListOptions extends ListOptions {
  /**
   * Adds each job's `Meta` to the list items.
   * @defaultValue false
   */
  readonly meta?: boolean | undefined;
}

/**
 * Options of the job reads that take only the common read options.
 * @since 0.1.0
 */
export type JobReadOptions = ReadOptions;

/**
 * Options of {@link JobsApi.allocations}.
 * @since 0.1.0
 */
export interface JobAllocationsOptions extends ReadOptions {
  /**
   * Includes allocations of an earlier job with the same ID (after a deregister and re-register).
   * @defaultValue false
   */
  readonly all?: boolean | undefined;
}

/**
 * Options of {@link JobsApi.deployments}.
 * @since 0.1.0
 */
export interface JobDeploymentsOptions extends ReadOptions {
  /**
   * Includes deployments of an earlier job with the same ID.
   * @defaultValue false
   */
  readonly all?: boolean | undefined;
}

/**
 * Options of {@link JobsApi.versions}.
 * @since 0.1.0
 */
export interface JobVersionsOptions extends ReadOptions {
  /**
   * Fills `Diffs` with the structured diff between each version and the one before.
   * @defaultValue false
   */
  readonly diffs?: boolean | undefined;
}

/**
 * Options of {@link JobsApi.create} and {@link JobsApi.update}.
 * @since 0.1.0
 */
export interface JobRegisterOptions extends RequestOptions {
  /**
   * Check-and-set: register only if the current job's `JobModifyIndex` equals this value; `0`
   * means "only if the job is new". Sends `EnforceIndex: true` with `JobModifyIndex`.
   * @defaultValue no check
   */
  readonly enforceIndex?: number | undefined;
  /**
   * Priority of the resulting evaluations.
   * @defaultValue the job's priority
   */
  readonly evalPriority?: number | undefined;
  /**
   * Overrides soft-mandatory policy rules that would deny the registration.
   * @defaultValue false
   */
  readonly policyOverride?: boolean | undefined;
  /**
   * Keeps the existing task group counts instead of those of the new job.
   * @defaultValue false
   */
  readonly preserveCounts?: boolean | undefined;
  /**
   * The original job source, kept for reference (see {@link JobsApi.submission}).
   * @defaultValue none
   */
  readonly submission?: JobRegisterRequest['Submission'] | undefined;
}

/**
 * Options of {@link JobsApi.parse}.
 * @since 0.1.0
 */
export interface JobParseOptions extends RequestOptions {
  /**
   * Fills unset fields with their defaults.
   * @defaultValue false
   */
  readonly canonicalize?: boolean | undefined;
  /**
   * Variables in var-file format.
   * @defaultValue none
   */
  readonly variables?: string | undefined;
  /**
   * Variables as key = value pairs.
   * @defaultValue none
   */
  readonly variableFlags?: Readonly<Record<string, string>> | undefined;
  /**
   * Uses the legacy parser.
   * @defaultValue false
   */
  readonly hclv1?: boolean | undefined;
}

/**
 * Options of {@link JobsApi.dispatch}.
 * @since 0.1.0
 */
export interface JobDispatchOptions extends RequestOptions {
  /**
   * Payload: bytes (encoded to base64 by the client) or a base64 string. At most 16384 bytes once
   * decoded.
   * @defaultValue none
   */
  readonly payload?: Uint8Array | string | undefined;
  /**
   * Meta of the dispatched job.
   * @defaultValue none
   */
  readonly meta?: Readonly<Record<string, string>> | undefined;
  /**
   * Prefix of the dispatched job's ID.
   * @defaultValue the parent job's ID
   */
  readonly idPrefixTemplate?: string | undefined;
  /**
   * At most one dispatch happens per token.
   * @defaultValue none
   */
  readonly idempotencyToken?: string | undefined;
}

/**
 * Options of {@link JobsApi.revert}.
 * @since 0.1.0
 */
export interface JobRevertOptions extends RequestOptions {
  /**
   * Check-and-set: revert only if the job's current version is this one.
   * @defaultValue no check
   */
  readonly enforcePriorVersion?: number | undefined;
  /**
   * Token of the mesh service for service-identity checks.
   * @defaultValue none
   */
  readonly meshToken?: string | undefined;
  /**
   * Token of the secrets service for policy checks.
   * @defaultValue none
   */
  readonly secretsToken?: string | undefined;
}

/**
 * Options of {@link JobsApi.evaluate}.
 * @since 0.1.0
 */
export interface JobEvaluateOptions extends RequestOptions {
  /**
   * Reschedules failed allocations at once, even past their reschedule limit or delay.
   * @defaultValue false
   */
  readonly forceReschedule?: boolean | undefined;
}

/**
 * Options of {@link JobsApi.plan}.
 * @since 0.1.0
 */
export interface JobPlanOptions extends RequestOptions {
  /**
   * Includes the diff between the submitted job and the server's version.
   * @defaultValue false
   */
  readonly diff?: boolean | undefined;
  /**
   * Overrides soft-mandatory policy rules.
   * @defaultValue false
   */
  readonly policyOverride?: boolean | undefined;
}

/**
 * Options of {@link JobsApi.stop}.
 * @since 0.1.0
 */
export interface JobStopOptions extends RequestOptions {
  /**
   * Purges the job at once: it is no longer readable afterwards.
   * @defaultValue false
   */
  readonly purge?: boolean | undefined;
  /**
   * Stops a multi-region job in every region.
   * @defaultValue false
   */
  readonly global?: boolean | undefined;
  /**
   * Priority of the resulting evaluation.
   * @defaultValue the job's priority
   */
  readonly evalPriority?: number | undefined;
  /**
   * Ignores the group and task `shutdown_delay`.
   * @defaultValue false
   */
  readonly noShutdownDelay?: boolean | undefined;
}

/**
 * The stability to set with {@link JobsApi.stable}.
 * @since 0.1.0
 */
export interface JobStability {
  /** The job version to mark. */
  readonly version: number;
  /** `true` marks the version stable, `false` not stable. */
  readonly stable: boolean;
}
