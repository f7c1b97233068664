/**
 * Job canonicalization: turns a submitted {@link JobInput} into a complete {@link Job}.
 *
 * @packageDocumentation
 */
import type { Job, JobInput, SchedulerJob, SchedulerJobInput } from './job.js';
import { JobStatus, type SchedulerJobType } from './job-types.js';
import type { MigrateStrategy, ReschedulePolicy, RestartPolicy, UpdateStrategy } from './policies.js';
import type { TaskGroup, TaskGroupInput } from './task-group.js';
import type { Task, TaskInput } from './task.js';
import type { LogConfig, Template } from './task-parts.js';
import {
  JobDefaults,
  JobTypeDefaults,
  MIGRATE_FALLBACK,
  RESCHEDULE_FALLBACK,
  defaultsOf,
} from './job-defaults.js';
import {
  canonicalizeAffinity,
  canonicalizeConstraint,
  canonicalizeNetwork,
  canonicalizeScaling,
  canonicalizeService,
  canonicalizeSpread,
  canonicalizeVolume,
} from './canonicalize-parts.js';
import { cloneRecord, copyList, copyMap, fill, mapList, nonEmpty } from './internal/copy.js';

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
 * objects become `null`. A job of {@link SchedulerJobType} `system` (a {@link SchedulerJobInput}: `JobInput`
 * refuses the type, but a job file may name it) gets its own defaults and keeps its type: the result is then
 * a {@link SchedulerJob}.
 *
 * @param job - A job that passed `validate(JobInput, ...)` (the result is a `Job`), or
 * `validate(SchedulerJobInput, ...)` (the result is a `SchedulerJob`).
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
export function canonicalizeJob(job: JobInput, options?: CanonicalizeJobOptions): Job;
export function canonicalizeJob(job: SchedulerJobInput, options?: CanonicalizeJobOptions): SchedulerJob;
export function canonicalizeJob(job: SchedulerJobInput, options: CanonicalizeJobOptions = {}): SchedulerJob {
  // A `system` job (a SchedulerJobInput) gets its own defaults, from JobTypeDefaults.
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

const jobStatuses: ReadonlySet<string> = new Set(Object.values(JobStatus));
function isJobStatus(value: string | undefined): value is JobStatus {
  return value !== undefined && jobStatuses.has(value);
}

export { JobDefaults, JobTypeDefaults } from './job-defaults.js';
export type { JobTypePolicyDefaults } from './job-defaults.js';
