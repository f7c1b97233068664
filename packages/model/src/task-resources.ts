/**
 * Resources a task asks for: CPU, memory, disk, networks and devices.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';
import { AffinityInput, Affinity, Constraint, ConstraintInput } from './constraint.js';
import { NullableArray, optionalProperties, SafeInteger } from './internal/schema.js';
import { NetworkResource, NetworkResourceInput } from './network.js';
import { lazySchema } from './internal/lazy.js';

const RequestedDeviceScalarProperties = lazySchema(() => ({
  /** Device name: `<vendor>/<type>/<name>`, `<vendor>/<type>` or `<type>`, for example `nvidia/gpu`. */
  Name: Type.String(),
  /** Number of instances wanted. Canonicalization turns an absent count into 1. */
  Count: SafeInteger({ minimum: 0 }),
}));

/**
 * A device (GPU, FPGA, ...) requested by a task.
 *
 * @since 0.1.0
 */
export const RequestedDevice = lazySchema(() =>
  Type.Object({
    ...RequestedDeviceScalarProperties,
    /** Constraints on the device's attributes; `null` when none. */
    Constraints: NullableArray(Constraint),
    /** Affinities on the device's attributes; `null` when none. */
    Affinities: NullableArray(Affinity),
  }),
);
/** A value matching the {@link RequestedDevice} schema. */
export type RequestedDevice = Static<typeof RequestedDevice>;

/**
 * A {@link RequestedDevice} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const RequestedDeviceInput = lazySchema(() =>
  Type.Object({
    ...optionalProperties(RequestedDeviceScalarProperties),
    /** See {@link RequestedDevice}. */
    Constraints: Type.Optional(NullableArray(ConstraintInput)),
    /** See {@link RequestedDevice}. */
    Affinities: Type.Optional(NullableArray(AffinityInput)),
  }),
);
/** A value matching the {@link RequestedDeviceInput} schema. */
export type RequestedDeviceInput = Static<typeof RequestedDeviceInput>;

const ResourcesScalarProperties = {
  /** CPU in MHz. Canonicalization default: 100. */
  CPU: SafeInteger({ minimum: 0 }),
  /** Memory in megabytes. Canonicalization default: 300. */
  MemoryMB: SafeInteger({ minimum: 0 }),
  /** Disk in megabytes (deprecated on tasks; the group's ephemeral disk is used). Default: 0. */
  DiskMB: SafeInteger({ minimum: 0 }),
  /** Disk I/O operations per second (deprecated, ignored). Default: 0. */
  IOPS: SafeInteger({ minimum: 0 }),
};

/**
 * Resources a task asks for.
 *
 * @since 0.1.0
 */
export const Resources = lazySchema(() =>
  Type.Object({
    ...ResourcesScalarProperties,
    /** Task-level network requests (deprecated in favour of group networks); `null` when none. */
    Networks: NullableArray(NetworkResource),
    /** Devices requested; `null` when none. */
    Devices: NullableArray(RequestedDevice),
  }),
);
/** A value matching the {@link Resources} schema. */
export type Resources = Static<typeof Resources>;

/**
 * {@link Resources} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const ResourcesInput = lazySchema(() =>
  Type.Object({
    ...optionalProperties(ResourcesScalarProperties),
    /** See {@link Resources}. */
    Networks: Type.Optional(NullableArray(NetworkResourceInput)),
    /** See {@link Resources}. */
    Devices: Type.Optional(NullableArray(RequestedDeviceInput)),
  }),
);
/** A value matching the {@link ResourcesInput} schema. */
export type ResourcesInput = Static<typeof ResourcesInput>;
