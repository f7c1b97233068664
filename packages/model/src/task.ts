/**
 * Tasks: the unit of work of a task group, and the scaling policy of a group.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';
import { AffinityInput, Affinity, Constraint, ConstraintInput, Spread, SpreadInput } from './constraint.js';
import {
  Nanoseconds,
  Nullable,
  NullableArray,
  StringMap,
  optionalProperties,
  SafeInteger,
} from './internal/schema.js';
import { RestartPolicy, RestartPolicyInput } from './policies.js';
import { Resources, ResourcesInput } from './task-resources.js';
import { Service, ServiceInput } from './task-service.js';
import {
  Artifact,
  ArtifactInput,
  DispatchPayload,
  DispatchPayloadInput,
  Lifecycle,
  LifecycleInput,
  LogConfig,
  LogConfigInput,
  TaskCsiPluginConfig,
  TaskCsiPluginConfigInput,
  TaskSecrets,
  TaskSecretsInput,
  Template,
  TemplateInput,
  VolumeMount,
  VolumeMountInput,
} from './task-parts.js';
import { lazySchema } from './internal/lazy.js';

const ScalingPolicyProperties = lazySchema(() => ({
  /** ID of the policy (a UUID) once stored; `""` before. */
  ID: Type.String(),
  /** Kind of scaling: `horizontal` (group count) or a vertical kind on tasks. Default `horizontal`. */
  Type: Type.String(),
  /** What is scaled (`Namespace`, `Job`, `Group`, ...); `null` until the service fills it. */
  Target: Nullable(StringMap),
  /** Lowest allowed value. Canonicalization default: the group's count. */
  Min: SafeInteger({ minimum: 0 }),
  /** Highest allowed value. */
  Max: SafeInteger({ minimum: 0 }),
  /** Free-form policy for an autoscaler; `null` when none. */
  Policy: Nullable(Type.Record(Type.String(), Type.Unknown())),
  /** Whether the policy is active. Default `true`. */
  Enabled: Type.Boolean(),
}));

/**
 * A scaling policy of a group (`Scaling`) or a task (`ScalingPolicies`).
 *
 * @since 0.1.0
 */
export const ScalingPolicy = lazySchema(() => Type.Object(ScalingPolicyProperties));
/** A value matching the {@link ScalingPolicy} schema. */
export type ScalingPolicy = Static<typeof ScalingPolicy>;

/**
 * A {@link ScalingPolicy} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const ScalingPolicyInput = lazySchema(() => Type.Object(optionalProperties(ScalingPolicyProperties)));
/** A value matching the {@link ScalingPolicyInput} schema. */
export type ScalingPolicyInput = Static<typeof ScalingPolicyInput>;

const TaskScalarProperties = lazySchema(() => ({
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
}));

/**
 * A task: one process (or container) run by a driver, as stored by the service.
 *
 * @since 0.1.0
 */
export const Task = lazySchema(() =>
  Type.Object({
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
  }),
);
/** A value matching the {@link Task} schema. */
export type Task = Static<typeof Task>;

/**
 * A {@link Task} as submitted: only `Name` and `Driver` are required; absent fields take the defaults
 * {@link canonicalizeJob} documents.
 *
 * @since 0.1.0
 */
export const TaskInput = lazySchema(() =>
  Type.Object({
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
  }),
);
/** A value matching the {@link TaskInput} schema. */
export type TaskInput = Static<typeof TaskInput>;
