/**
 * The smaller blocks of a task: templates, artifacts, logs, lifecycle, dispatch payload, volume
 * mounts, storage plugin configuration and secrets.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';
import {
  Nanoseconds,
  Nullable,
  NullableArray,
  StringMap,
  optionalProperties,
  SafeInteger,
} from './internal/schema.js';
import { lazySchema } from './internal/lazy.js';

const TemplateProperties = lazySchema(() => ({
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
}));

/**
 * A file rendered from a template into the task directory.
 *
 * @since 0.1.0
 */
export const Template = lazySchema(() => Type.Object(TemplateProperties));
/** A value matching the {@link Template} schema. */
export type Template = Static<typeof Template>;

/**
 * A {@link Template} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const TemplateInput = lazySchema(() => Type.Object(optionalProperties(TemplateProperties)));
/** A value matching the {@link TemplateInput} schema. */
export type TemplateInput = Static<typeof TemplateInput>;

const ArtifactProperties = lazySchema(() => ({
  /** URL (or getter address) to download. */
  GetterSource: Type.String(),
  /** Getter options such as `checksum`; `null` when none. */
  GetterOptions: Nullable(StringMap),
  /** Destination relative to the task directory. Default `local/`. */
  RelativeDest: Type.String(),
}));

/**
 * A file downloaded into the task directory before the task starts.
 *
 * @since 0.1.0
 */
export const Artifact = lazySchema(() => Type.Object(ArtifactProperties));
/** A value matching the {@link Artifact} schema. */
export type Artifact = Static<typeof Artifact>;

/**
 * An {@link Artifact} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const ArtifactInput = lazySchema(() => Type.Object(optionalProperties(ArtifactProperties)));
/** A value matching the {@link ArtifactInput} schema. */
export type ArtifactInput = Static<typeof ArtifactInput>;

const LogConfigProperties = lazySchema(() => ({
  /** Whether log collection is off for the task. Default `false`. */
  Disabled: Type.Boolean(),
  /** Rotated log files kept per stream (stdout, stderr). Default 10. */
  MaxFiles: SafeInteger({ minimum: 0 }),
  /** Size at which a log file is rotated, in megabytes. Default 10. */
  MaxFileSizeMB: SafeInteger({ minimum: 0 }),
}));

/**
 * Log rotation of a task.
 *
 * @since 0.1.0
 */
export const LogConfig = lazySchema(() => Type.Object(LogConfigProperties));
/** A value matching the {@link LogConfig} schema. */
export type LogConfig = Static<typeof LogConfig>;

/**
 * A {@link LogConfig} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const LogConfigInput = lazySchema(() => Type.Object(optionalProperties(LogConfigProperties)));
/** A value matching the {@link LogConfigInput} schema. */
export type LogConfigInput = Static<typeof LogConfigInput>;

const LifecycleProperties = lazySchema(() => ({
  /** When the task runs relative to the main tasks: `prestart`, `poststart` or `poststop`. */
  Hook: Type.String(),
  /** Whether the hook task keeps running alongside the main tasks (`false` = runs to completion first). */
  Sidecar: Type.Boolean(),
}));

/**
 * Lifecycle hook of a task; a task without one is a main task.
 *
 * @since 0.1.0
 */
export const Lifecycle = lazySchema(() => Type.Object(LifecycleProperties));
/** A value matching the {@link Lifecycle} schema. */
export type Lifecycle = Static<typeof Lifecycle>;

/**
 * A {@link Lifecycle} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const LifecycleInput = lazySchema(() => Type.Object(optionalProperties(LifecycleProperties)));
/** A value matching the {@link LifecycleInput} schema. */
export type LifecycleInput = Static<typeof LifecycleInput>;

const DispatchPayloadProperties = lazySchema(() => ({
  /** File, relative to the task's `local/` directory, that receives the dispatch payload. */
  File: Type.String(),
}));

/**
 * Where a dispatched job's payload is written for the task.
 *
 * @since 0.1.0
 */
export const DispatchPayload = lazySchema(() => Type.Object(DispatchPayloadProperties));
/** A value matching the {@link DispatchPayload} schema. */
export type DispatchPayload = Static<typeof DispatchPayload>;

/**
 * A {@link DispatchPayload} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const DispatchPayloadInput = lazySchema(() =>
  Type.Object(optionalProperties(DispatchPayloadProperties)),
);
/** A value matching the {@link DispatchPayloadInput} schema. */
export type DispatchPayloadInput = Static<typeof DispatchPayloadInput>;

const VolumeMountProperties = lazySchema(() => ({
  /** Name of a volume requested by the group (`TaskGroup.Volumes` key). */
  Volume: Type.String(),
  /** Path inside the task where the volume is mounted. */
  Destination: Type.String(),
  /** Whether the mount is read-only. Default `false`. */
  ReadOnly: Type.Boolean(),
  /** Mount propagation: `private` (default), `host-to-task`, `bidirectional`. */
  PropagationMode: Type.String(),
}));

/**
 * Mount of a group volume into a task.
 *
 * @since 0.1.0
 */
export const VolumeMount = lazySchema(() => Type.Object(VolumeMountProperties));
/** A value matching the {@link VolumeMount} schema. */
export type VolumeMount = Static<typeof VolumeMount>;

/**
 * A {@link VolumeMount} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const VolumeMountInput = lazySchema(() => Type.Object(optionalProperties(VolumeMountProperties)));
/** A value matching the {@link VolumeMountInput} schema. */
export type VolumeMountInput = Static<typeof VolumeMountInput>;

const TaskCsiPluginConfigProperties = lazySchema(() => ({
  /** Plugin ID the task provides. */
  ID: Type.String(),
  /** Plugin role: `controller`, `node` or `monolith`. */
  Type: Type.String(),
  /** Directory inside the task where the plugin's socket lives. Default `/csi`. */
  MountDir: Type.String(),
}));

/**
 * Declares that the task runs a storage (CSI) plugin.
 *
 * @since 0.1.0
 */
export const TaskCsiPluginConfig = lazySchema(() => Type.Object(TaskCsiPluginConfigProperties));
/** A value matching the {@link TaskCsiPluginConfig} schema. */
export type TaskCsiPluginConfig = Static<typeof TaskCsiPluginConfig>;

/**
 * A {@link TaskCsiPluginConfig} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const TaskCsiPluginConfigInput = lazySchema(() =>
  Type.Object(optionalProperties(TaskCsiPluginConfigProperties)),
);
/** A value matching the {@link TaskCsiPluginConfigInput} schema. */
export type TaskCsiPluginConfigInput = Static<typeof TaskCsiPluginConfigInput>;

const TaskSecretsProperties = lazySchema(() => ({
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
}));

/**
 * The secrets-service integration block of a task: which token the task receives.
 *
 * @since 0.1.0
 */
export const TaskSecrets = lazySchema(() => Type.Object(TaskSecretsProperties));
/** A value matching the {@link TaskSecrets} schema. */
export type TaskSecrets = Static<typeof TaskSecrets>;

/**
 * A {@link TaskSecrets} block as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const TaskSecretsInput = lazySchema(() => Type.Object(optionalProperties(TaskSecretsProperties)));
/** A value matching the {@link TaskSecretsInput} schema. */
export type TaskSecretsInput = Static<typeof TaskSecretsInput>;
