/**
 * Job canonicalization: turns a submitted {@link JobInput} into a complete {@link Job}.
 *
 * @packageDocumentation
 */
import type {
  Affinity,
  AffinityInput,
  Constraint,
  ConstraintInput,
  Spread,
  SpreadInput,
} from './constraint.js';
import { JobStatus, JobType, type Job, type JobInput, type SchedulerJobType } from './job.js';
import type { NetworkResource, NetworkResourceInput, Port, PortInput } from './network.js';
import type { MigrateStrategy, ReschedulePolicy, RestartPolicy, UpdateStrategy } from './policies.js';
import type { TaskGroup, TaskGroupInput, VolumeRequest, VolumeRequestInput } from './task-group.js';
import type {
  LogConfig,
  ScalingPolicy,
  ScalingPolicyInput,
  Service,
  ServiceInput,
  Task,
  TaskInput,
  Template,
} from './task.js';

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

/**
 * Options of {@link canonicalizeJob}.
 *
 * @since 0.1.0
 */
export interface CanonicalizeJobOptions {
  /**
   * Region filled in when the job has none (the serving agent's region).
   *
   * @defaultValue `"global"`
   */
  readonly region?: string;
}

/**
 * Fills every default a user expects, turning a submitted job into a complete stored job. Pure: the input
 * is not changed and the output shares no objects with it. Unknown extra fields are dropped.
 *
 * Defaults (see {@link JobDefaults} and {@link JobTypeDefaults}): `Region` from the options (else `global`),
 * `Namespace` `default`, `Type` `service`, `Priority` 50, `Name` = `ID`, `Datacenters` `["*"]`, `NodePool`
 * `default`, `Status` `pending`; each group `Count` 1, restart, reschedule, migrate and update policies per
 * job type (job-level `Update`, `Migrate` and `Reschedule` merged under the group's own; a service job without
 * an update block gets the default `Update` on the job and every group), ephemeral disk
 * 300 MB; each task CPU 100 MHz, memory 300 MB, kill timeout 5 s, logs 10 files of 10 MB, the group's
 * restart policy merged under the task's; service names `<job>-<group>[-<task>]`; absent lists, maps and
 * objects become `null`. A job of {@link SchedulerJobType} `system` (which `JobInput` refuses, but a job
 * file may name) gets its own defaults and keeps its type: the result is then a {@link SchedulerJob}.
 *
 * @param job - A job that passed `validate(JobInput, ...)`.
 * @param options - See {@link CanonicalizeJobOptions}.
 * @returns The complete job.
 * @example
 * ```ts
 * const job = canonicalizeJob({ ID: 'web', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock' }] }] });
 * job.Priority; // 50
 * job.TaskGroups[0]?.Count; // 1
 * ```
 * @since 0.1.0
 */
export function canonicalizeJob(job: JobInput, options: CanonicalizeJobOptions = {}): Job {
  // A `system` job reaches here from a caller that owns it (see SchedulerJob): its defaults are in JobTypeDefaults.
  const type: SchedulerJobType = job.Type ?? JobDefaults.Type;
  const typeDefaults = defaultsOf(type);
  const namespace = nonEmpty(job.Namespace) ?? JobDefaults.Namespace;
  const updateDefaults =
    typeDefaults.Update === null || job.Update === undefined || job.Update === null
      ? typeDefaults.Update
      : fill(typeDefaults.Update, job.Update);
  const context: GroupContext = {
    jobId: job.ID,
    namespace,
    type,
    updateDefaults,
    jobMigrate: job.Migrate ?? undefined,
    jobReschedule: job.Reschedule ?? undefined,
  };
  const datacenters = job.Datacenters ?? [];
  return {
    Region: nonEmpty(job.Region) ?? nonEmpty(options.region) ?? JobDefaults.Region,
    Namespace: namespace,
    ID: job.ID,
    ParentID: job.ParentID ?? '',
    Name: nonEmpty(job.Name) ?? job.ID,
    Type: type,
    Priority: job.Priority ?? JobDefaults.Priority,
    AllAtOnce: job.AllAtOnce ?? false,
    Datacenters: datacenters.length === 0 ? [...JobDefaults.Datacenters] : [...datacenters],
    NodePool: nonEmpty(job.NodePool) ?? JobDefaults.NodePool,
    Constraints: mapList(job.Constraints, canonicalizeConstraint),
    Affinities: mapList(job.Affinities, canonicalizeAffinity),
    Spreads: mapList(job.Spreads, canonicalizeSpread),
    TaskGroups: (job.TaskGroups ?? []).map((group) => canonicalizeGroup(group, context)),
    Update: updateDefaults === null ? null : { ...updateDefaults },
    Migrate:
      job.Migrate === undefined || job.Migrate === null
        ? null
        : fill(JobTypeDefaults.service.Migrate ?? MIGRATE_FALLBACK, job.Migrate),
    Reschedule:
      job.Reschedule === undefined || job.Reschedule === null
        ? null
        : fill(typeDefaults.ReschedulePolicy ?? RESCHEDULE_FALLBACK, job.Reschedule),
    Periodic:
      job.Periodic === undefined || job.Periodic === null
        ? null
        : {
            Enabled: job.Periodic.Enabled ?? true,
            Spec: job.Periodic.Spec ?? '',
            SpecType: nonEmpty(job.Periodic.SpecType) ?? JobDefaults.Periodic.SpecType,
            ProhibitOverlap: job.Periodic.ProhibitOverlap ?? false,
            TimeZone: nonEmpty(job.Periodic.TimeZone) ?? JobDefaults.Periodic.TimeZone,
          },
    ParameterizedJob:
      job.ParameterizedJob === undefined || job.ParameterizedJob === null
        ? null
        : {
            Payload: nonEmpty(job.ParameterizedJob.Payload) ?? JobDefaults.ParameterizedPayload,
            MetaRequired: copyList(job.ParameterizedJob.MetaRequired),
            MetaOptional: copyList(job.ParameterizedJob.MetaOptional),
          },
    Payload: job.Payload ?? null,
    Multiregion:
      job.Multiregion === undefined || job.Multiregion === null
        ? null
        : {
            Strategy:
              job.Multiregion.Strategy === undefined || job.Multiregion.Strategy === null
                ? null
                : {
                    MaxParallel: job.Multiregion.Strategy.MaxParallel ?? 0,
                    OnFailure: job.Multiregion.Strategy.OnFailure ?? '',
                  },
            Regions: mapList(job.Multiregion.Regions, (region) => ({
              Name: region.Name ?? '',
              Count: region.Count ?? 0,
              Datacenters: copyList(region.Datacenters),
              Meta: copyMap(region.Meta),
            })),
          },
    Meta: copyMap(job.Meta),
    Dispatched: job.Dispatched ?? false,
    Stop: job.Stop ?? false,
    Stable: job.Stable ?? false,
    Version: job.Version ?? 0,
    SubmitTime: job.SubmitTime ?? 0,
    // server-owned: a known status read back from the server is kept, anything else ("") is the default
    Status: isJobStatus(job.Status) ? job.Status : JobDefaults.Status,
    StatusDescription: job.StatusDescription ?? '',
    CreateIndex: job.CreateIndex ?? 0,
    ModifyIndex: job.ModifyIndex ?? 0,
    JobModifyIndex: job.JobModifyIndex ?? 0,
    MeshToken: job.MeshToken ?? '',
    SecretsToken: job.SecretsToken ?? '',
    SvcTokenID: job.SvcTokenID ?? '',
    SecretsNamespace: job.SecretsNamespace ?? '',
  };
}

const MIGRATE_FALLBACK: MigrateStrategy = {
  MaxParallel: 1,
  HealthCheck: 'checks',
  MinHealthyTime: 10 * SECOND,
  HealthyDeadline: 5 * MINUTE,
};
const RESCHEDULE_FALLBACK: ReschedulePolicy = {
  Attempts: 0,
  Interval: 0,
  Delay: 0,
  DelayFunction: 'constant',
  MaxDelay: 0,
  Unlimited: false,
};

interface GroupContext {
  readonly jobId: string;
  readonly namespace: string;
  readonly type: SchedulerJobType;
  /** The type's update defaults with the job's own update block filled in; `null` = not applicable. */
  readonly updateDefaults: UpdateStrategy | null;
  readonly jobMigrate: Partial<MigrateStrategy> | undefined;
  readonly jobReschedule: Partial<ReschedulePolicy> | undefined;
}

function canonicalizeGroup(group: TaskGroupInput, context: GroupContext): TaskGroup {
  const typeDefaults = defaultsOf(context.type);
  const restart = fill(typeDefaults.RestartPolicy, group.RestartPolicy ?? undefined);
  const count = group.Count ?? group.Scaling?.Min ?? JobDefaults.Count;
  return {
    Name: group.Name,
    Count: count,
    Constraints: mapList(group.Constraints, canonicalizeConstraint),
    Affinities: mapList(group.Affinities, canonicalizeAffinity),
    Spreads: mapList(group.Spreads, canonicalizeSpread),
    Tasks: (group.Tasks ?? []).map((task) =>
      canonicalizeTask(task, { jobId: context.jobId, groupName: group.Name, restart }),
    ),
    RestartPolicy: restart,
    ReschedulePolicy:
      typeDefaults.ReschedulePolicy === null
        ? null
        : fill(
            fill(typeDefaults.ReschedulePolicy, context.jobReschedule),
            group.ReschedulePolicy ?? undefined,
          ),
    Migrate:
      typeDefaults.Migrate === null
        ? null
        : fill(fill(typeDefaults.Migrate, context.jobMigrate), group.Migrate ?? undefined),
    Update: context.updateDefaults === null ? null : fill(context.updateDefaults, group.Update ?? undefined),
    EphemeralDisk: fill(JobDefaults.EphemeralDisk, group.EphemeralDisk ?? undefined),
    Networks: mapList(group.Networks, canonicalizeNetwork),
    Services: mapList(group.Services, (service) =>
      canonicalizeService(service, `${context.jobId}-${group.Name}`),
    ),
    Volumes:
      group.Volumes === undefined || group.Volumes === null
        ? null
        : Object.fromEntries(
            Object.entries(group.Volumes).map(([name, request]) => [name, canonicalizeVolume(name, request)]),
          ),
    Scaling:
      group.Scaling === undefined || group.Scaling === null
        ? null
        : canonicalizeScaling(group.Scaling, count, {
            Namespace: context.namespace,
            Job: context.jobId,
            Group: group.Name,
          }),
    Meta: copyMap(group.Meta),
    ShutdownDelay: group.ShutdownDelay ?? null,
    StopAfterClientDisconnect: group.StopAfterClientDisconnect ?? null,
    MaxClientDisconnect: group.MaxClientDisconnect ?? null,
  };
}

interface TaskContext {
  readonly jobId: string;
  readonly groupName: string;
  readonly restart: RestartPolicy;
}

function canonicalizeTask(task: TaskInput, context: TaskContext): Task {
  const resources = task.Resources ?? {};
  const logConfig: LogConfig = fill(JobDefaults.LogConfig, task.LogConfig ?? undefined);
  return {
    Name: task.Name,
    Driver: task.Driver,
    User: task.User ?? '',
    Config: task.Config === undefined || task.Config === null ? null : cloneRecord(task.Config),
    Env: copyMap(task.Env),
    Meta: copyMap(task.Meta),
    KillTimeout: task.KillTimeout ?? JobDefaults.KillTimeout,
    KillSignal: task.KillSignal ?? '',
    Kind: task.Kind ?? '',
    Leader: task.Leader ?? false,
    ShutdownDelay: task.ShutdownDelay ?? 0,
    Services: mapList(task.Services, (service) =>
      canonicalizeService(service, `${context.jobId}-${context.groupName}-${task.Name}`),
    ),
    Templates: mapList(task.Templates, (template): Template => ({
      SourcePath: template.SourcePath ?? '',
      DestPath: template.DestPath ?? '',
      EmbeddedTmpl: template.EmbeddedTmpl ?? '',
      ChangeMode: nonEmpty(template.ChangeMode) ?? JobDefaults.Template.ChangeMode,
      ChangeSignal: template.ChangeSignal ?? '',
      Splay: template.Splay ?? JobDefaults.Template.Splay,
      Perms: nonEmpty(template.Perms) ?? JobDefaults.Template.Perms,
    })),
    Constraints: mapList(task.Constraints, canonicalizeConstraint),
    Affinities: mapList(task.Affinities, canonicalizeAffinity),
    Spreads: mapList(task.Spreads, canonicalizeSpread),
    Resources: {
      CPU: resources.CPU ?? JobDefaults.Resources.CPU,
      MemoryMB: resources.MemoryMB ?? JobDefaults.Resources.MemoryMB,
      DiskMB: resources.DiskMB ?? JobDefaults.Resources.DiskMB,
      IOPS: resources.IOPS ?? JobDefaults.Resources.IOPS,
      Networks: mapList(resources.Networks, canonicalizeNetwork),
      Devices: mapList(resources.Devices, (device) => ({
        Name: device.Name ?? '',
        Count: device.Count ?? 1,
        Constraints: mapList(device.Constraints, canonicalizeConstraint),
        Affinities: mapList(device.Affinities, canonicalizeAffinity),
      })),
    },
    RestartPolicy: fill(context.restart, task.RestartPolicy ?? undefined),
    DispatchPayload:
      task.DispatchPayload === undefined || task.DispatchPayload === null
        ? null
        : { File: task.DispatchPayload.File ?? '' },
    Lifecycle:
      task.Lifecycle === undefined || task.Lifecycle === null
        ? null
        : { Hook: task.Lifecycle.Hook ?? '', Sidecar: task.Lifecycle.Sidecar ?? false },
    LogConfig: logConfig,
    Artifacts: mapList(task.Artifacts, (artifact) => ({
      GetterSource: artifact.GetterSource ?? '',
      GetterOptions: copyMap(artifact.GetterOptions),
      RelativeDest: nonEmpty(artifact.RelativeDest) ?? JobDefaults.ArtifactDest,
    })),
    CSIPluginConfig:
      task.CSIPluginConfig === undefined || task.CSIPluginConfig === null
        ? null
        : {
            ID: task.CSIPluginConfig.ID ?? '',
            Type: task.CSIPluginConfig.Type ?? '',
            MountDir: nonEmpty(task.CSIPluginConfig.MountDir) ?? '/csi',
          },
    ScalingPolicies: mapList(task.ScalingPolicies, (policy) => canonicalizeScaling(policy, 0, null)),
    VolumeMounts: mapList(task.VolumeMounts, (mount) => ({
      Volume: mount.Volume ?? '',
      Destination: mount.Destination ?? '',
      ReadOnly: mount.ReadOnly ?? false,
      PropagationMode: nonEmpty(mount.PropagationMode) ?? 'private',
    })),
    Secrets:
      task.Secrets === undefined || task.Secrets === null
        ? null
        : {
            Policies: copyList(task.Secrets.Policies),
            Role: task.Secrets.Role ?? '',
            Namespace: task.Secrets.Namespace ?? '',
            ChangeMode: nonEmpty(task.Secrets.ChangeMode) ?? 'restart',
            ChangeSignal: task.Secrets.ChangeSignal ?? '',
            Env: task.Secrets.Env ?? true,
          },
  };
}

function canonicalizeConstraint(constraint: ConstraintInput): Constraint {
  return {
    LTarget: constraint.LTarget ?? '',
    RTarget: constraint.RTarget ?? '',
    Operand: nonEmpty(constraint.Operand) ?? JobDefaults.Operand,
  };
}

function canonicalizeAffinity(affinity: AffinityInput): Affinity {
  return {
    LTarget: affinity.LTarget ?? '',
    RTarget: affinity.RTarget ?? '',
    Operand: nonEmpty(affinity.Operand) ?? JobDefaults.Operand,
    Weight: affinity.Weight ?? JobDefaults.Weight,
  };
}

function canonicalizeSpread(spread: SpreadInput): Spread {
  return {
    Attribute: spread.Attribute ?? '',
    Weight: spread.Weight ?? JobDefaults.Weight,
    SpreadTarget: mapList(spread.SpreadTarget, (target) => ({
      Value: target.Value ?? '',
      Percent: target.Percent ?? 0,
    })),
  };
}

function canonicalizePort(port: PortInput): Port {
  return {
    Label: port.Label ?? '',
    Value: port.Value ?? 0,
    To: port.To ?? 0,
    HostNetwork: nonEmpty(port.HostNetwork) ?? JobDefaults.HostNetwork,
  };
}

function canonicalizeNetwork(network: NetworkResourceInput): NetworkResource {
  return {
    Mode: nonEmpty(network.Mode) ?? JobDefaults.NetworkMode,
    Device: network.Device ?? '',
    CIDR: network.CIDR ?? '',
    IP: network.IP ?? '',
    MBits: network.MBits ?? 0,
    DNS:
      network.DNS === undefined || network.DNS === null
        ? null
        : {
            Servers: copyList(network.DNS.Servers),
            Searches: copyList(network.DNS.Searches),
            Options: copyList(network.DNS.Options),
          },
    ReservedPorts: mapList(network.ReservedPorts, canonicalizePort),
    DynamicPorts: mapList(network.DynamicPorts, canonicalizePort),
  };
}

function canonicalizeService(service: ServiceInput, defaultName: string): Service {
  const name = nonEmpty(service.Name) ?? defaultName;
  return {
    Name: name,
    PortLabel: service.PortLabel ?? '',
    Tags: copyList(service.Tags),
    Checks: mapList(service.Checks, (check) => ({
      Name: nonEmpty(check.Name) ?? `service: ${JSON.stringify(name)} check`,
      Type: check.Type ?? '',
      Command: check.Command ?? '',
      Args: copyList(check.Args),
      Path: check.Path ?? '',
      Protocol: check.Protocol ?? '',
      PortLabel: check.PortLabel ?? '',
      Interval: check.Interval ?? 0,
      Timeout: check.Timeout ?? 0,
      InitialStatus: check.InitialStatus ?? '',
    })),
  };
}

function canonicalizeVolume(name: string, request: VolumeRequestInput): VolumeRequest {
  return {
    Name: nonEmpty(request.Name) ?? name,
    Type: request.Type ?? '',
    Source: request.Source ?? '',
    ReadOnly: request.ReadOnly ?? false,
    AccessMode: request.AccessMode ?? '',
    AttachmentMode: request.AttachmentMode ?? '',
    PerAlloc: request.PerAlloc ?? false,
  };
}

function canonicalizeScaling(
  policy: ScalingPolicyInput,
  count: number,
  target: Record<string, string> | null,
): ScalingPolicy {
  const min = policy.Min ?? count;
  return {
    ID: policy.ID ?? '',
    Type: nonEmpty(policy.Type) ?? (target === null ? '' : 'horizontal'),
    Target: policy.Target === undefined || policy.Target === null ? target : copyMap(policy.Target),
    Min: min,
    Max: policy.Max ?? Math.max(min, count),
    Policy: policy.Policy === undefined || policy.Policy === null ? null : cloneRecord(policy.Policy),
    Enabled: policy.Enabled ?? true,
  };
}

/** The policy defaults of a job type; the `service` ones for a type outside {@link SchedulerJobType}. */
function defaultsOf(type: string): JobTypePolicyDefaults {
  return (JobTypeDefaults as Partial<Record<string, JobTypePolicyDefaults>>)[type] ?? JobTypeDefaults.service;
}

/** Copies `defaults`, replacing each key the input gives a value for; unknown input keys are dropped. */
function fill<T extends object>(defaults: Readonly<T>, input: Partial<T> | undefined): T {
  const out = { ...defaults } as T;
  if (input === undefined) return out;
  for (const key of Object.keys(defaults) as (keyof T)[]) {
    const value = input[key];
    if (value !== undefined && value !== null) out[key] = value as T[keyof T];
  }
  return out;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function mapList<I, O>(list: readonly I[] | null | undefined, map: (item: I) => O): O[] | null {
  return list === undefined || list === null ? null : list.map((item) => map(item));
}

function copyList<T>(list: readonly T[] | null | undefined): T[] | null {
  return list === undefined || list === null ? null : [...list];
}

function copyMap(map: Readonly<Record<string, string>> | null | undefined): Record<string, string> | null {
  // Object.fromEntries defines own properties, so a "__proto__" key stays a plain key.
  return map === undefined || map === null ? null : Object.fromEntries(Object.entries(map));
}

function cloneRecord(record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, cloneValue(value)]));
}

function cloneValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneValue);
  if (value !== null && typeof value === 'object') return cloneRecord(value as Record<string, unknown>);
  return value;
}

const jobStatuses: ReadonlySet<string> = new Set(Object.values(JobStatus));
function isJobStatus(value: string | undefined): value is JobStatus {
  return value !== undefined && jobStatuses.has(value);
}
