/**
 * How a job is launched beyond a plain registration: periodic (cron) launches, dispatch of a
 * parameterized job, and multi-region deployment.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';
import { Nullable, NullableArray, StringMap, optionalProperties, SafeInteger } from './internal/schema.js';
import { lazySchema } from './internal/lazy.js';

const PeriodicProperties = lazySchema(() => ({
  /** Whether new instances are launched. Canonicalization default: `true`. */
  Enabled: Type.Boolean(),
  /** Launch schedule; a cron expression when `SpecType` is `cron`. */
  Spec: Type.String(),
  /** Kind of `Spec`: `cron` (default). */
  SpecType: Type.String(),
  /** Whether a new instance is skipped while a previous one still runs. Default `false`. */
  ProhibitOverlap: Type.Boolean(),
  /** IANA time zone the schedule is read in; `""` or absent = `UTC`. */
  TimeZone: Type.Optional(Type.String()),
}));

/**
 * Periodic launch configuration: the job is a template launching a child job on a schedule.
 *
 * @since 0.1.0
 */
export const Periodic = lazySchema(() => Type.Object(PeriodicProperties));
/** A value matching the {@link Periodic} schema. */
export type Periodic = Static<typeof Periodic>;

/**
 * A {@link Periodic} block as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const PeriodicInput = lazySchema(() => Type.Object(optionalProperties(PeriodicProperties)));
/** A value matching the {@link PeriodicInput} schema. */
export type PeriodicInput = Static<typeof PeriodicInput>;

const ParameterizedJobProperties = lazySchema(() => ({
  /** Whether a dispatch payload is `optional` (default), `required` or `forbidden`. */
  Payload: Type.String(),
  /** Meta keys every dispatch must give; `null` when none. */
  MetaRequired: NullableArray(Type.String()),
  /** Meta keys a dispatch may give; `null` when none. */
  MetaOptional: NullableArray(Type.String()),
}));

/**
 * Parameterized job configuration: the job is a template instantiated by dispatch.
 *
 * @since 0.1.0
 */
export const ParameterizedJob = lazySchema(() => Type.Object(ParameterizedJobProperties));
/** A value matching the {@link ParameterizedJob} schema. */
export type ParameterizedJob = Static<typeof ParameterizedJob>;

/**
 * A {@link ParameterizedJob} block as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const ParameterizedJobInput = lazySchema(() =>
  Type.Object(optionalProperties(ParameterizedJobProperties)),
);
/** A value matching the {@link ParameterizedJobInput} schema. */
export type ParameterizedJobInput = Static<typeof ParameterizedJobInput>;

const MultiregionStrategyProperties = lazySchema(() => ({
  /** Regions updated at the same time; 0 = all at once. */
  MaxParallel: SafeInteger({ minimum: 0 }),
  /** What a failed region does to the others: `""` (nothing), `fail_all` or `fail_local`. */
  OnFailure: Type.String(),
}));

const MultiregionRegionProperties = lazySchema(() => ({
  /** Region name. */
  Name: Type.String(),
  /** Group count override for this region; 0 = the job's counts. */
  Count: SafeInteger({ minimum: 0 }),
  /** Datacenters used in this region; `null` = the job's. */
  Datacenters: NullableArray(Type.String()),
  /** Meta merged into the job in this region; `null` when none. */
  Meta: Nullable(StringMap),
}));

/**
 * Multi-region deployment configuration.
 *
 * @since 0.1.0
 */
export const Multiregion = lazySchema(() =>
  Type.Object({
    /** How regions are rolled out; `null` = all at once. */
    Strategy: Nullable(Type.Object(MultiregionStrategyProperties)),
    /** Regions the job runs in; `null` when none. */
    Regions: NullableArray(Type.Object(MultiregionRegionProperties)),
  }),
);
/** A value matching the {@link Multiregion} schema. */
export type Multiregion = Static<typeof Multiregion>;

/**
 * A {@link Multiregion} block as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const MultiregionInput = lazySchema(() =>
  Type.Object({
    /** See {@link Multiregion}. */
    Strategy: Type.Optional(Nullable(Type.Object(optionalProperties(MultiregionStrategyProperties)))),
    /** See {@link Multiregion}. */
    Regions: Type.Optional(NullableArray(Type.Object(optionalProperties(MultiregionRegionProperties)))),
  }),
);
/** A value matching the {@link MultiregionInput} schema. */
export type MultiregionInput = Static<typeof MultiregionInput>;
