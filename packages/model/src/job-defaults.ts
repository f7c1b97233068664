/**
 * The defaults {@link canonicalizeJob} fills: per job type, and for every job.
 *
 * @packageDocumentation
 */
import { JobStatus, JobType, type SchedulerJobType } from './job-types.js';
import type { MigrateStrategy, ReschedulePolicy, RestartPolicy, UpdateStrategy } from './policies.js';
import { ownValue } from './own.js';

const SECOND = 1_000_000_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The policy defaults of one job type (see {@link JobTypeDefaults}).
 *
 * @since 0.2.0
 */
export interface JobTypePolicyDefaults {
  /** Restart policy of groups (and, merged under their own, of tasks). */
  readonly RestartPolicy: Readonly<RestartPolicy>;
  /** Reschedule policy of groups; `null` = never rescheduled. */
  readonly ReschedulePolicy: Readonly<ReschedulePolicy> | null;
  /** Migrate strategy of groups; `null` = not applicable. */
  readonly Migrate: Readonly<MigrateStrategy> | null;
  /** Update strategy of the job and its groups (their own blocks filled in over it); `null` = not applicable. */
  readonly Update: Readonly<UpdateStrategy> | null;
}

const SERVICE_DEFAULTS: JobTypePolicyDefaults = {
  RestartPolicy: { Attempts: 2, Interval: 30 * MINUTE, Delay: 15 * SECOND, Mode: 'fail' },
  ReschedulePolicy: {
    Attempts: 0,
    Interval: 0,
    Delay: 30 * SECOND,
    DelayFunction: 'exponential',
    MaxDelay: HOUR,
    Unlimited: true,
  },
  Migrate: {
    MaxParallel: 1,
    HealthCheck: 'checks',
    MinHealthyTime: 10 * SECOND,
    HealthyDeadline: 5 * MINUTE,
  },
  Update: {
    AutoPromote: false,
    AutoRevert: false,
    Canary: 0,
    HealthCheck: 'checks',
    HealthyDeadline: 5 * MINUTE,
    MaxParallel: 1,
    MinHealthyTime: 10 * SECOND,
    ProgressDeadline: 10 * MINUTE,
    Stagger: 30 * SECOND,
  },
};

/**
 * Policy defaults that depend on the job type, applied by {@link canonicalizeJob}. Durations are in nanoseconds.
 *
 * | Policy | `service` | `batch` | `sysbatch` | `system` |
 * |---|---|---|---|---|
 * | RestartPolicy | 2 attempts in 30 min, delay 15 s, mode `fail` | 3 attempts in 24 h, delay 15 s, mode `fail` | as batch | as service |
 * | ReschedulePolicy | unlimited, delay 30 s `exponential` up to 1 h | 1 attempt in 24 h, delay 5 s `constant` | `null` (never rescheduled) | `null` |
 * | Migrate | 1 at a time, `checks`, healthy for 10 s within 5 min | `null` | `null` | as service |
 * | Update | 1 at a time, `checks`, healthy for 10 s within 5 min, progress deadline 10 min, stagger 30 s, no canaries | `null` | `null` | as service |
 *
 * A service job without an update block gets the default update strategy on the job and on every group, as the
 * service does, so its first registration creates a deployment; a job's or group's own block is filled in
 * over these defaults (set `MaxParallel` to 0 for no deployment). A `Type`
 * outside {@link SchedulerJobType} (input that did not pass validation) gets the `service` defaults, so a validator
 * that runs after canonicalization can still report the type.
 *
 * @since 0.1.0
 */
export const JobTypeDefaults: {
  readonly [T in SchedulerJobType]: JobTypePolicyDefaults;
} = {
  service: SERVICE_DEFAULTS,
  batch: {
    RestartPolicy: { Attempts: 3, Interval: 24 * HOUR, Delay: 15 * SECOND, Mode: 'fail' },
    ReschedulePolicy: {
      Attempts: 1,
      Interval: 24 * HOUR,
      Delay: 5 * SECOND,
      DelayFunction: 'constant',
      MaxDelay: 0,
      Unlimited: false,
    },
    Migrate: null,
    Update: null,
  },
  sysbatch: {
    RestartPolicy: { Attempts: 3, Interval: 24 * HOUR, Delay: 15 * SECOND, Mode: 'fail' },
    ReschedulePolicy: null,
    Migrate: null,
    Update: null,
  },
  system: { ...SERVICE_DEFAULTS, ReschedulePolicy: null },
};

/**
 * Defaults {@link canonicalizeJob} fills that do not depend on the job type. Durations are in nanoseconds.
 *
 * @since 0.1.0
 */
export const JobDefaults = {
  /** Region when neither the job nor the options give one. */
  Region: 'global',
  /** Namespace. */
  Namespace: 'default',
  /** Job type. */
  Type: JobType.Service,
  /** Priority. */
  Priority: 50,
  /** Node pool. */
  NodePool: 'default',
  /** Datacenters (every datacenter), used when absent, `null` or empty. */
  Datacenters: ['*'],
  /** Status of a job that was never scheduled. */
  Status: JobStatus.Pending,
  /** Count of a task group without `Count` (or `Scaling.Min` when a scaling policy gives one). */
  Count: 1,
  /** Ephemeral disk of a group. */
  EphemeralDisk: {
    /** Not sticky. */
    Sticky: false,
    /** 300 MB. */
    SizeMB: 300,
    /** Not migrated. */
    Migrate: false,
  },
  /** Log rotation of a task. */
  LogConfig: {
    /** Logs are collected. */
    Disabled: false,
    /** 10 files per stream. */
    MaxFiles: 10,
    /** 10 MB per file. */
    MaxFileSizeMB: 10,
  },
  /** Task resources: CPU in MHz, memory and disk in MB. */
  Resources: {
    /** 100 MHz. */
    CPU: 100,
    /** 300 MB. */
    MemoryMB: 300,
    /** 0 MB (the group's ephemeral disk is used). */
    DiskMB: 0,
    /** 0 (ignored). */
    IOPS: 0,
  },
  /** Task kill timeout, in nanoseconds (5 s). */
  KillTimeout: 5 * SECOND,
  /** Operand of constraints and affinities without one. */
  Operand: '=',
  /** Weight of affinities and spreads without one. */
  Weight: 50,
  /** Template change mode, splay (5 s) and file mode. */
  Template: {
    /** Restart the task when the rendered content changes. */
    ChangeMode: 'restart',
    /** 5 s, in nanoseconds. */
    Splay: 5 * SECOND,
    /** `0644`. */
    Perms: '0644',
  },
  /** Artifact destination. */
  ArtifactDest: 'local/',
  /** Network mode. */
  NetworkMode: 'host',
  /** Host network of ports. */
  HostNetwork: 'default',
  /** Periodic spec type and time zone. */
  Periodic: {
    /** Cron expressions. */
    SpecType: 'cron',
    /** UTC. */
    TimeZone: 'UTC',
  },
  /** Payload requirement of parameterized jobs. */
  ParameterizedPayload: 'optional',
} as const;

export const MIGRATE_FALLBACK: MigrateStrategy = {
  MaxParallel: 1,
  HealthCheck: 'checks',
  MinHealthyTime: 10 * SECOND,
  HealthyDeadline: 5 * MINUTE,
};
export const RESCHEDULE_FALLBACK: ReschedulePolicy = {
  Attempts: 0,
  Interval: 0,
  Delay: 0,
  DelayFunction: 'constant',
  MaxDelay: 0,
  Unlimited: false,
};

/** The policy defaults of a job type; the `service` ones for a type outside {@link SchedulerJobType}. */
export function defaultsOf(type: string): JobTypePolicyDefaults {
  // Own keys only: a type named after an Object.prototype member ("toString") is an unknown type.
  return (
    ownValue<JobTypePolicyDefaults>(
      JobTypeDefaults as Readonly<Record<string, JobTypePolicyDefaults>>,
      type,
    ) ?? JobTypeDefaults.service
  );
}
