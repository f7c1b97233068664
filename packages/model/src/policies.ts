/**
 * Policies of task groups and tasks: restart, reschedule, migrate, update, ephemeral disk.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { Nanoseconds, optionalProperties, SafeInteger } from './internal/schema.js';
import { lazySchema } from './internal/lazy.js';

const RestartPolicyProperties = lazySchema(() => ({
  /** Restarts allowed within `Interval` before `Mode` applies. */
  Attempts: SafeInteger({ minimum: 0 }),
  /** Window in which `Attempts` restarts are counted, in nanoseconds. */
  Interval: Nanoseconds(),
  /** Wait before restarting a task, in nanoseconds. */
  Delay: Nanoseconds(),
  /**
   * What happens when the attempts are used up within the interval: `fail` (the task is failed and the
   * allocation may be rescheduled) or `delay` (wait until the interval has passed, then restart again).
   */
  Mode: Type.String(),
}));

/**
 * How the client restarts a failed task in place. Defaults depend on the job type (see {@link canonicalizeJob}).
 *
 * @since 0.1.0
 */
export const RestartPolicy = lazySchema(() => Type.Object(RestartPolicyProperties));
/** A value matching the {@link RestartPolicy} schema. */
export type RestartPolicy = Static<typeof RestartPolicy>;

/**
 * A {@link RestartPolicy} as submitted: every field optional; absent fields take the job type's default.
 *
 * @since 0.1.0
 */
export const RestartPolicyInput = lazySchema(() => Type.Object(optionalProperties(RestartPolicyProperties)));
/** A value matching the {@link RestartPolicyInput} schema. */
export type RestartPolicyInput = Static<typeof RestartPolicyInput>;

const ReschedulePolicyProperties = lazySchema(() => ({
  /** Reschedule attempts allowed within `Interval` (ignored when `Unlimited`). */
  Attempts: SafeInteger({ minimum: 0 }),
  /** Window in which `Attempts` are counted, in nanoseconds. */
  Interval: Nanoseconds(),
  /** Initial wait before rescheduling, in nanoseconds. */
  Delay: Nanoseconds(),
  /** How the delay grows between attempts: `constant`, `exponential` or `fibonacci`. */
  DelayFunction: Type.String(),
  /** Upper bound of the delay, in nanoseconds (0 = no bound, used with `constant`). */
  MaxDelay: Nanoseconds(),
  /** Whether rescheduling continues without limit. */
  Unlimited: Type.Boolean(),
}));

/**
 * How the scheduler replaces a failed allocation on another node.
 *
 * @since 0.1.0
 */
export const ReschedulePolicy = lazySchema(() => Type.Object(ReschedulePolicyProperties));
/** A value matching the {@link ReschedulePolicy} schema. */
export type ReschedulePolicy = Static<typeof ReschedulePolicy>;

/**
 * A {@link ReschedulePolicy} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const ReschedulePolicyInput = lazySchema(() =>
  Type.Object(optionalProperties(ReschedulePolicyProperties)),
);
/** A value matching the {@link ReschedulePolicyInput} schema. */
export type ReschedulePolicyInput = Static<typeof ReschedulePolicyInput>;

const MigrateStrategyProperties = lazySchema(() => ({
  /** Allocations migrated at the same time when a node drains. */
  MaxParallel: SafeInteger({ minimum: 0 }),
  /** How health is decided: `checks` (service checks and task states) or `task_states`. */
  HealthCheck: Type.String(),
  /** Time an allocation must stay healthy before it counts as healthy, in nanoseconds. */
  MinHealthyTime: Nanoseconds(),
  /** Deadline for an allocation to become healthy, in nanoseconds. */
  HealthyDeadline: Nanoseconds(),
}));

/**
 * How allocations of a service job move off a draining node.
 *
 * @since 0.1.0
 */
export const MigrateStrategy = lazySchema(() => Type.Object(MigrateStrategyProperties));
/** A value matching the {@link MigrateStrategy} schema. */
export type MigrateStrategy = Static<typeof MigrateStrategy>;

/**
 * A {@link MigrateStrategy} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const MigrateStrategyInput = lazySchema(() =>
  Type.Object(optionalProperties(MigrateStrategyProperties)),
);
/** A value matching the {@link MigrateStrategyInput} schema. */
export type MigrateStrategyInput = Static<typeof MigrateStrategyInput>;

const UpdateStrategyProperties = lazySchema(() => ({
  /** Whether canaries are promoted automatically once all are healthy. */
  AutoPromote: Type.Boolean(),
  /** Whether a failed deployment reverts to the last stable job version. */
  AutoRevert: Type.Boolean(),
  /** Canary allocations placed before the rest of the update (0 = no canaries). */
  Canary: SafeInteger({ minimum: 0 }),
  /** How health is decided: `checks`, `task_states` or `manual`. */
  HealthCheck: Type.String(),
  /** Deadline for an allocation to become healthy, in nanoseconds. */
  HealthyDeadline: Nanoseconds(),
  /** Allocations updated at the same time (0 = updates are not rolling). */
  MaxParallel: SafeInteger({ minimum: 0 }),
  /** Time an allocation must stay healthy before it counts as healthy, in nanoseconds. */
  MinHealthyTime: Nanoseconds(),
  /** Deadline for the deployment to make progress (an allocation becoming healthy), in nanoseconds; 0 = none. */
  ProgressDeadline: Nanoseconds(),
  /** Delay between migrations of allocations, in nanoseconds (older form of rolling updates). */
  Stagger: Nanoseconds(),
}));

/**
 * The rolling-update strategy of a service job or group: how many allocations change at once and how
 * their health is judged.
 *
 * @since 0.1.0
 */
export const UpdateStrategy = lazySchema(() => Type.Object(UpdateStrategyProperties));
/** A value matching the {@link UpdateStrategy} schema. */
export type UpdateStrategy = Static<typeof UpdateStrategy>;

/**
 * An {@link UpdateStrategy} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const UpdateStrategyInput = lazySchema(() =>
  Type.Object(optionalProperties(UpdateStrategyProperties)),
);
/** A value matching the {@link UpdateStrategyInput} schema. */
export type UpdateStrategyInput = Static<typeof UpdateStrategyInput>;

const EphemeralDiskProperties = lazySchema(() => ({
  /** Whether the scheduler tries to place updated allocations on the same node to keep the disk. */
  Sticky: Type.Boolean(),
  /** Size of the shared allocation directory, in megabytes. */
  SizeMB: SafeInteger({ minimum: 0 }),
  /** Whether the data is copied to the new node when the allocation moves (needs `Sticky`). */
  Migrate: Type.Boolean(),
}));

/**
 * The ephemeral disk shared by the tasks of a group.
 *
 * @since 0.1.0
 */
export const EphemeralDisk = lazySchema(() => Type.Object(EphemeralDiskProperties));
/** A value matching the {@link EphemeralDisk} schema. */
export type EphemeralDisk = Static<typeof EphemeralDisk>;

/**
 * An {@link EphemeralDisk} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const EphemeralDiskInput = lazySchema(() => Type.Object(optionalProperties(EphemeralDiskProperties)));
/** A value matching the {@link EphemeralDiskInput} schema. */
export type EphemeralDiskInput = Static<typeof EphemeralDiskInput>;
