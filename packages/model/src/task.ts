/**
 * Tasks and their sub-objects: resources, services, checks, templates, artifacts, logs, lifecycle.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { AffinityInput, Affinity, Constraint, ConstraintInput, Spread, SpreadInput } from './constraint.js';
import { Nanoseconds, Nullable, NullableArray, StringMap, optionalProperties } from './internal/schema.js';
import { NetworkResource, NetworkResourceInput } from './network.js';
import { RestartPolicy, RestartPolicyInput } from './policies.js';

const RequestedDeviceScalarProperties = {
  /** Device name: `<vendor>/<type>/<name>`, `<vendor>/<type>` or `<type>`, for example `nvidia/gpu`. */
  Name: Type.String(),
  /** Number of instances wanted. Canonicalization turns an absent count into 1. */
  Count: Type.Integer({ minimum: 0 }),
};

/**
 * A device (GPU, FPGA, ...) requested by a task.
 *
 * @since 0.1.0
 */
export const RequestedDevice = Type.Object({
  ...RequestedDeviceScalarProperties,
  /** Constraints on the device's attributes; `null` when none. */
  Constraints: NullableArray(Constraint),
  /** Affinities on the device's attributes; `null` when none. */
  Affinities: NullableArray(Affinity),
});
/** A value matching the {@link RequestedDevice} schema. */
export type RequestedDevice = Static<typeof RequestedDevice>;

/**
 * A {@link RequestedDevice} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const RequestedDeviceInput = Type.Object({
  ...optionalProperties(RequestedDeviceScalarProperties),
  /** See {@link RequestedDevice}. */
  Constraints: Type.Optional(NullableArray(ConstraintInput)),
  /** See {@link RequestedDevice}. */
  Affinities: Type.Optional(NullableArray(AffinityInput)),
});
/** A value matching the {@link RequestedDeviceInput} schema. */
export type RequestedDeviceInput = Static<typeof RequestedDeviceInput>;

const ResourcesScalarProperties = {
  /** CPU in MHz. Canonicalization default: 100. */
  CPU: Type.Integer({ minimum: 0 }),
  /** Memory in megabytes. Canonicalization default: 300. */
  MemoryMB: Type.Integer({ minimum: 0 }),
  /** Disk in megabytes (deprecated on tasks; the group's ephemeral disk is used). Default: 0. */
  DiskMB: Type.Integer({ minimum: 0 }),
  /** Disk I/O operations per second (deprecated, ignored). Default: 0. */
  IOPS: Type.Integer({ minimum: 0 }),
};

/**
 * Resources a task asks for.
 *
 * @since 0.1.0
 */
export const Resources = Type.Object({
  ...ResourcesScalarProperties,
  /** Task-level network requests (deprecated in favour of group networks); `null` when none. */
  Networks: NullableArray(NetworkResource),
  /** Devices requested; `null` when none. */
  Devices: NullableArray(RequestedDevice),
});
/** A value matching the {@link Resources} schema. */
export type Resources = Static<typeof Resources>;

/**
 * {@link Resources} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const ResourcesInput = Type.Object({
  ...optionalProperties(ResourcesScalarProperties),
  /** See {@link Resources}. */
  Networks: Type.Optional(NullableArray(NetworkResourceInput)),
  /** See {@link Resources}. */
  Devices: Type.Optional(NullableArray(RequestedDeviceInput)),
});
/** A value matching the {@link ResourcesInput} schema. */
export type ResourcesInput = Static<typeof ResourcesInput>;

const ServiceCheckProperties = {
  /** Name of the check. Canonicalization default: `service: "<service name>" check`. */
  Name: Type.String(),
  /** Kind of check: `http`, `tcp`, `script`, `grpc`. */
  Type: Type.String(),
  /** Command run by a `script` check; `""` otherwise. */
  Command: Type.String(),
  /** Arguments of `Command`; `null` when none. */
  Args: NullableArray(Type.String()),
  /** HTTP path of an `http` check; `""` otherwise. */
  Path: Type.String(),
  /** Protocol of an `http` check: `http` or `https`; `""` = `http`. */
  Protocol: Type.String(),
  /** Port label the check connects to; `""` = the service's port. */
  PortLabel: Type.String(),
  /** Time between runs of the check, in nanoseconds. */
  Interval: Nanoseconds(),
  /** Time after which a run of the check fails, in nanoseconds. */
  Timeout: Nanoseconds(),
  /** Status before the first run: `passing`, `warning`, `critical`; `""` = `critical`. */
  InitialStatus: Type.String(),
};

/**
 * A health check of a {@link Service}.
 *
 * @since 0.1.0
 */
export const ServiceCheck = Type.Object(ServiceCheckProperties);
/** A value matching the {@link ServiceCheck} schema. */
export type ServiceCheck = Static<typeof ServiceCheck>;

/**
 * A {@link ServiceCheck} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const ServiceCheckInput = Type.Object(optionalProperties(ServiceCheckProperties));
/** A value matching the {@link ServiceCheckInput} schema. */
export type ServiceCheckInput = Static<typeof ServiceCheckInput>;

const ServiceScalarProperties = {
  /** Name the service is registered under. Canonicalization default: `<job>-<group>` or `<job>-<group>-<task>`. */
  Name: Type.String(),
  /** Label of the port (or a number) the service is reachable on; `""` when none. */
  PortLabel: Type.String(),
};

/**
 * A service registered for a task or a group.
 *
 * @since 0.1.0
 */
export const Service = Type.Object({
  ...ServiceScalarProperties,
  /** Tags registered with the service; `null` when none. */
  Tags: NullableArray(Type.String()),
  /** Health checks; `null` when none. */
  Checks: NullableArray(ServiceCheck),
});
/** A value matching the {@link Service} schema. */
export type Service = Static<typeof Service>;

/**
 * A {@link Service} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const ServiceInput = Type.Object({
  ...optionalProperties(ServiceScalarProperties),
  /** See {@link Service}. */
  Tags: Type.Optional(NullableArray(Type.String())),
  /** See {@link Service}. */
  Checks: Type.Optional(NullableArray(ServiceCheckInput)),
});
/** A value matching the {@link ServiceInput} schema. */
export type ServiceInput = Static<typeof ServiceInput>;

const TemplateProperties = {
  /** Path of a template file on the client, relative to the task directory; `""` when `EmbeddedTmpl` is used. */
  SourcePath: Type.String(),
  /** Where the rendered file goes, relative to the task directory. */
  DestPath: Type.String(),
  /** Template text given inline; `""` when `SourcePath` is used. */
  EmbeddedTmpl: Type.String(),
  /** What happens when the rendered content changes: `restart` (default), `signal`, `noop`, `script`. */
  ChangeMode: Type.String(),
  /** Signal sent when `ChangeMode` is `signal`, for example `SIGHUP`; `""` otherwise. */
  ChangeSignal: Type.String(),
  /** Random wait before acting on a change, in nanoseconds. Default 5 s. */
  Splay: Nanoseconds(),
  /** File mode of the rendered file as an octal string. Default `0644`. */
  Perms: Type.String(),
};

/**
 * A file rendered from a template into the task directory.
 *
 * @since 0.1.0
 */
export const Template = Type.Object(TemplateProperties);
/** A value matching the {@link Template} schema. */
export type Template = Static<typeof Template>;

/**
 * A {@link Template} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const TemplateInput = Type.Object(optionalProperties(TemplateProperties));
/** A value matching the {@link TemplateInput} schema. */
export type TemplateInput = Static<typeof TemplateInput>;

const ArtifactProperties = {
  /** URL (or getter address) to download. */
  GetterSource: Type.String(),
  /** Getter options such as `checksum`; `null` when none. */
  GetterOptions: Nullable(StringMap),
  /** Destination relative to the task directory. Default `local/`. */
  RelativeDest: Type.String(),
};

/**
 * A file downloaded into the task directory before the task starts.
 *
 * @since 0.1.0
 */
export const Artifact = Type.Object(ArtifactProperties);
/** A value matching the {@link Artifact} schema. */
export type Artifact = Static<typeof Artifact>;

/**
 * An {@link Artifact} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const ArtifactInput = Type.Object(optionalProperties(ArtifactProperties));
/** A value matching the {@link ArtifactInput} schema. */
export type ArtifactInput = Static<typeof ArtifactInput>;

const LogConfigProperties = {
  /** Whether log collection is off for the task. Default `false`. */
  Disabled: Type.Boolean(),
  /** Rotated log files kept per stream (stdout, stderr). Default 10. */
  MaxFiles: Type.Integer({ minimum: 0 }),
  /** Size at which a log file is rotated, in megabytes. Default 10. */
  MaxFileSizeMB: Type.Integer({ minimum: 0 }),
};

/**
 * Log rotation of a task.
 *
 * @since 0.1.0
 */
export const LogConfig = Type.Object(LogConfigProperties);
/** A value matching the {@link LogConfig} schema. */
export type LogConfig = Static<typeof LogConfig>;

/**
 * A {@link LogConfig} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const LogConfigInput = Type.Object(optionalProperties(LogConfigProperties));
/** A value matching the {@link LogConfigInput} schema. */
export type LogConfigInput = Static<typeof LogConfigInput>;

const LifecycleProperties = {
  /** When the task runs relative to the main tasks: `prestart`, `poststart` or `poststop`. */
  Hook: Type.String(),
  /** Whether the hook task keeps running alongside the main tasks (`false` = runs to completion first). */
  Sidecar: Type.Boolean(),
};

/**
 * Lifecycle hook of a task; a task without one is a main task.
 *
 * @since 0.1.0
 */
export const Lifecycle = Type.Object(LifecycleProperties);
/** A value matching the {@link Lifecycle} schema. */
export type Lifecycle = Static<typeof Lifecycle>;

/**
 * A {@link Lifecycle} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const LifecycleInput = Type.Object(optionalProperties(LifecycleProperties));
/** A value matching the {@link LifecycleInput} schema. */
export type LifecycleInput = Static<typeof LifecycleInput>;

const DispatchPayloadProperties = {
  /** File, relative to the task's `local/` directory, that receives the dispatch payload. */
  File: Type.String(),
};

/**
 * Where a dispatched job's payload is written for the task.
 *
 * @since 0.1.0
 */
export const DispatchPayload = Type.Object(DispatchPayloadProperties);
/** A value matching the {@link DispatchPayload} schema. */
export type DispatchPayload = Static<typeof DispatchPayload>;

/**
 * A {@link DispatchPayload} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const DispatchPayloadInput = Type.Object(optionalProperties(DispatchPayloadProperties));
/** A value matching the {@link DispatchPayloadInput} schema. */
export type DispatchPayloadInput = Static<typeof DispatchPayloadInput>;

const VolumeMountProperties = {
  /** Name of a volume requested by the group (`TaskGroup.Volumes` key). */
  Volume: Type.String(),
  /** Path inside the task where the volume is mounted. */
  Destination: Type.String(),
  /** Whether the mount is read-only. Default `false`. */
  ReadOnly: Type.Boolean(),
  /** Mount propagation: `private` (default), `host-to-task`, `bidirectional`. */
  PropagationMode: Type.String(),
};

/**
 * Mount of a group volume into a task.
 *
 * @since 0.1.0
 */
export const VolumeMount = Type.Object(VolumeMountProperties);
/** A value matching the {@link VolumeMount} schema. */
export type VolumeMount = Static<typeof VolumeMount>;

/**
 * A {@link VolumeMount} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const VolumeMountInput = Type.Object(optionalProperties(VolumeMountProperties));
/** A value matching the {@link VolumeMountInput} schema. */
export type VolumeMountInput = Static<typeof VolumeMountInput>;

const TaskCsiPluginConfigProperties = {
  /** Plugin ID the task provides. */
  ID: Type.String(),
  /** Plugin role: `controller`, `node` or `monolith`. */
  Type: Type.String(),
  /** Directory inside the task where the plugin's socket lives. Default `/csi`. */
  MountDir: Type.String(),
};

/**
 * Declares that the task runs a storage (CSI) plugin.
 *
 * @since 0.1.0
 */
export const TaskCsiPluginConfig = Type.Object(TaskCsiPluginConfigProperties);
/** A value matching the {@link TaskCsiPluginConfig} schema. */
export type TaskCsiPluginConfig = Static<typeof TaskCsiPluginConfig>;

/**
 * A {@link TaskCsiPluginConfig} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const TaskCsiPluginConfigInput = Type.Object(optionalProperties(TaskCsiPluginConfigProperties));
/** A value matching the {@link TaskCsiPluginConfigInput} schema. */
export type TaskCsiPluginConfigInput = Static<typeof TaskCsiPluginConfigInput>;

const TaskSecretsProperties = {
  /** Policies of the secrets service the task's token carries; `null` when none. */
  Policies: NullableArray(Type.String()),
  /** Role of the secrets service used to create the token; `""` = the cluster's default role. */
  Role: Type.String(),
  /** Namespace of the secrets service; `""` = the job's `SecretsNamespace` or the default. */
  Namespace: Type.String(),
  /** What happens when the token changes: `restart` (default), `signal`, `noop`. */
  ChangeMode: Type.String(),
  /** Signal sent when `ChangeMode` is `signal`; `""` otherwise. */
  ChangeSignal: Type.String(),
  /** Whether the token is exposed in the task's environment. Default `true`. */
  Env: Type.Boolean(),
};

/**
 * The secrets-service integration block of a task: which token the task receives.
 *
 * @since 0.1.0
 */
export const TaskSecrets = Type.Object(TaskSecretsProperties);
/** A value matching the {@link TaskSecrets} schema. */
export type TaskSecrets = Static<typeof TaskSecrets>;

/**
 * A {@link TaskSecrets} block as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const TaskSecretsInput = Type.Object(optionalProperties(TaskSecretsProperties));
/** A value matching the {@link TaskSecretsInput} schema. */
export type TaskSecretsInput = Static<typeof TaskSecretsInput>;

const ScalingPolicyProperties = {
  /** ID of the policy (a UUID) once stored; `""` before. */
  ID: Type.String(),
  /** Kind of scaling: `horizontal` (group count) or a vertical kind on tasks. Default `horizontal`. */
  Type: Type.String(),
  /** What is scaled (`Namespace`, `Job`, `Group`, ...); `null` until the service fills it. */
  Target: Nullable(StringMap),
  /** Lowest allowed value. Canonicalization default: the group's count. */
  Min: Type.Integer({ minimum: 0 }),
  /** Highest allowed value. */
  Max: Type.Integer({ minimum: 0 }),
  /** Free-form policy for an autoscaler; `null` when none. */
  Policy: Nullable(Type.Record(Type.String(), Type.Unknown())),
  /** Whether the policy is active. Default `true`. */
  Enabled: Type.Boolean(),
};

/**
 * A scaling policy of a group (`Scaling`) or a task (`ScalingPolicies`).
 *
 * @since 0.1.0
 */
export const ScalingPolicy = Type.Object(ScalingPolicyProperties);
/** A value matching the {@link ScalingPolicy} schema. */
export type ScalingPolicy = Static<typeof ScalingPolicy>;

/**
 * A {@link ScalingPolicy} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const ScalingPolicyInput = Type.Object(optionalProperties(ScalingPolicyProperties));
/** A value matching the {@link ScalingPolicyInput} schema. */
export type ScalingPolicyInput = Static<typeof ScalingPolicyInput>;

const TaskScalarProperties = {
  /** Name of the task, unique within its group. */
  Name: Type.String({ minLength: 1 }),
  /** Task driver that runs it, for example `mock`, `raw_exec`, `exec`, `docker`. */
  Driver: Type.String({ minLength: 1 }),
  /** OS user the task runs as; `""` = the driver's default. */
  User: Type.String(),
  /** Driver-specific configuration (free-form), for example `{ command, args }`; `null` when none. */
  Config: Nullable(Type.Record(Type.String(), Type.Unknown())),
  /** Environment variables set for the task; `null` when none. */
  Env: Nullable(StringMap),
  /** Metadata of the task (merged over group and job meta); `null` when none. */
  Meta: Nullable(StringMap),
  /** Time between the kill signal and a forced kill, in nanoseconds. Default 5 s. */
  KillTimeout: Nanoseconds(),
  /** Signal sent to stop the task, for example `SIGTERM`; `""` = the driver's default (`SIGINT`). */
  KillSignal: Type.String(),
  /** Kind of task, set by the service for connect sidecars; `""` for user tasks. */
  Kind: Type.String(),
  /** Whether this task is the group's leader: when it dies, its siblings are stopped. Default `false`. */
  Leader: Type.Boolean(),
  /** Delay between deregistering the task's services and killing it, in nanoseconds. Default 0. */
  ShutdownDelay: Nanoseconds(),
};

/**
 * A task: one process (or container) run by a driver, as stored by the service.
 *
 * @since 0.1.0
 */
export const Task = Type.Object({
  ...TaskScalarProperties,
  /** Services registered for the task; `null` when none. */
  Services: NullableArray(Service),
  /** Templates rendered for the task; `null` when none. */
  Templates: NullableArray(Template),
  /** Constraints of the task; `null` when none. */
  Constraints: NullableArray(Constraint),
  /** Affinities of the task; `null` when none. */
  Affinities: NullableArray(Affinity),
  /** Spreads of the task; `null` when none. */
  Spreads: NullableArray(Spread),
  /** Resources the task asks for. */
  Resources: Resources,
  /** Restart policy of the task (the group's policy merged with the task's own). */
  RestartPolicy: Nullable(RestartPolicy),
  /** Where a dispatch payload is written; `null` when the task takes none. */
  DispatchPayload: Nullable(DispatchPayload),
  /** Lifecycle hook; `null` for a main task. */
  Lifecycle: Nullable(Lifecycle),
  /** Log rotation of the task. */
  LogConfig: Nullable(LogConfig),
  /** Artifacts downloaded before the task starts; `null` when none. */
  Artifacts: NullableArray(Artifact),
  /** Storage plugin the task provides; `null` when none. */
  CSIPluginConfig: Nullable(TaskCsiPluginConfig),
  /** Task scaling policies; `null` when none. */
  ScalingPolicies: NullableArray(ScalingPolicy),
  /** Group volumes mounted into the task; `null` when none. */
  VolumeMounts: NullableArray(VolumeMount),
  /** Secrets-service integration block; `null` when the task gets no secrets token. */
  Secrets: Nullable(TaskSecrets),
});
/** A value matching the {@link Task} schema. */
export type Task = Static<typeof Task>;

/**
 * A {@link Task} as submitted: only `Name` and `Driver` are required; absent fields take the defaults
 * {@link canonicalizeJob} documents.
 *
 * @since 0.1.0
 */
export const TaskInput = Type.Object({
  ...optionalProperties(TaskScalarProperties),
  /** See {@link Task}. Required, non-empty. */
  Name: TaskScalarProperties.Name,
  /** See {@link Task}. Required, non-empty. */
  Driver: TaskScalarProperties.Driver,
  /** See {@link Task}. */
  Services: Type.Optional(NullableArray(ServiceInput)),
  /** See {@link Task}. */
  Templates: Type.Optional(NullableArray(TemplateInput)),
  /** See {@link Task}. */
  Constraints: Type.Optional(NullableArray(ConstraintInput)),
  /** See {@link Task}. */
  Affinities: Type.Optional(NullableArray(AffinityInput)),
  /** See {@link Task}. */
  Spreads: Type.Optional(NullableArray(SpreadInput)),
  /** See {@link Task}. */
  Resources: Type.Optional(Nullable(ResourcesInput)),
  /** See {@link Task}. */
  RestartPolicy: Type.Optional(Nullable(RestartPolicyInput)),
  /** See {@link Task}. */
  DispatchPayload: Type.Optional(Nullable(DispatchPayloadInput)),
  /** See {@link Task}. */
  Lifecycle: Type.Optional(Nullable(LifecycleInput)),
  /** See {@link Task}. */
  LogConfig: Type.Optional(Nullable(LogConfigInput)),
  /** See {@link Task}. */
  Artifacts: Type.Optional(NullableArray(ArtifactInput)),
  /** See {@link Task}. */
  CSIPluginConfig: Type.Optional(Nullable(TaskCsiPluginConfigInput)),
  /** See {@link Task}. */
  ScalingPolicies: Type.Optional(NullableArray(ScalingPolicyInput)),
  /** See {@link Task}. */
  VolumeMounts: Type.Optional(NullableArray(VolumeMountInput)),
  /** See {@link Task}. */
  Secrets: Type.Optional(Nullable(TaskSecretsInput)),
});
/** A value matching the {@link TaskInput} schema. */
export type TaskInput = Static<typeof TaskInput>;
