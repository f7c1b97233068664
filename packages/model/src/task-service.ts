/**
 * Service registrations of a task or group, and their health checks.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';
import { Nanoseconds, NullableArray, optionalProperties } from './internal/schema.js';
import { lazySchema } from './internal/lazy.js';

const ServiceCheckProperties = lazySchema(() => ({
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
}));

/**
 * A health check of a {@link Service}.
 *
 * @since 0.1.0
 */
export const ServiceCheck = lazySchema(() => Type.Object(ServiceCheckProperties));
/** A value matching the {@link ServiceCheck} schema. */
export type ServiceCheck = Static<typeof ServiceCheck>;

/**
 * A {@link ServiceCheck} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const ServiceCheckInput = lazySchema(() => Type.Object(optionalProperties(ServiceCheckProperties)));
/** A value matching the {@link ServiceCheckInput} schema. */
export type ServiceCheckInput = Static<typeof ServiceCheckInput>;

const ServiceScalarProperties = lazySchema(() => ({
  /** Name the service is registered under. Canonicalization default: `<job>-<group>` or `<job>-<group>-<task>`. */
  Name: Type.String(),
  /** Label of the port (or a number) the service is reachable on; `""` when none. */
  PortLabel: Type.String(),
}));

/**
 * A service registered for a task or a group.
 *
 * @since 0.1.0
 */
export const Service = lazySchema(() =>
  Type.Object({
    ...ServiceScalarProperties,
    /** Tags registered with the service; `null` when none. */
    Tags: NullableArray(Type.String()),
    /** Health checks; `null` when none. */
    Checks: NullableArray(ServiceCheck),
  }),
);
/** A value matching the {@link Service} schema. */
export type Service = Static<typeof Service>;

/**
 * A {@link Service} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const ServiceInput = lazySchema(() =>
  Type.Object({
    ...optionalProperties(ServiceScalarProperties),
    /** See {@link Service}. */
    Tags: Type.Optional(NullableArray(Type.String())),
    /** See {@link Service}. */
    Checks: Type.Optional(NullableArray(ServiceCheckInput)),
  }),
);
/** A value matching the {@link ServiceInput} schema. */
export type ServiceInput = Static<typeof ServiceInput>;
