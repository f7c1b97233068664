/**
 * Nodes: the clients tasks run on (payload of the `Node` event topic).
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { Nullable, NullableArray, StringMap, SafeInteger } from './internal/schema.js';
import { NetworkResource } from './network.js';
import { lazySchema } from './internal/lazy.js';

/**
 * Node statuses.
 *
 * @since 0.1.0
 */
export const NodeStatus = {
  /** Registered, fingerprinting. */
  Initializing: 'initializing',
  /** Ready for work. */
  Ready: 'ready',
  /** Missed its heartbeats. */
  Down: 'down',
  /** Disconnected but its allocations may still run. */
  Disconnected: 'disconnected',
} as const;
/** One of the values of {@link NodeStatus}. */
export type NodeStatus = (typeof NodeStatus)[keyof typeof NodeStatus];

/**
 * Scheduling eligibility of a node.
 *
 * @since 0.1.0
 */
export const NodeSchedulingEligibility = {
  /** New allocations may be placed. */
  Eligible: 'eligible',
  /** No new allocations are placed (for example while draining). */
  Ineligible: 'ineligible',
} as const;
/** One of the values of {@link NodeSchedulingEligibility}. */
export type NodeSchedulingEligibility =
  (typeof NodeSchedulingEligibility)[keyof typeof NodeSchedulingEligibility];

/**
 * An address of a node network.
 *
 * @since 0.1.0
 */
export const NodeNetworkAddress = lazySchema(() =>
  Type.Object({
    /** `ipv4` or `ipv6`. */
    Family: Type.String(),
    /** Host network name the address belongs to. */
    Alias: Type.String(),
    /** The address. */
    Address: Type.String(),
    /** Ports reserved on this address, as a comma-separated list or ranges; `""` when none. */
    ReservedPorts: Type.String(),
    /** Gateway address; `""` when none. */
    Gateway: Type.String(),
  }),
);
/** A value matching the {@link NodeNetworkAddress} schema. */
export type NodeNetworkAddress = Static<typeof NodeNetworkAddress>;

/**
 * A network interface of a node.
 *
 * @since 0.1.0
 */
export const NodeNetworkResource = lazySchema(() =>
  Type.Object({
    /** Network mode, for example `host`. */
    Mode: Type.String(),
    /** Interface name, for example `eth0`. */
    Device: Type.String(),
    /** MAC address; `""` when unknown. */
    MacAddress: Type.String(),
    /** Link speed in megabits per second. */
    Speed: SafeInteger({ minimum: 0 }),
    /** Addresses of the interface; `null` when none. */
    Addresses: NullableArray(NodeNetworkAddress),
  }),
);
/** A value matching the {@link NodeNetworkResource} schema. */
export type NodeNetworkResource = Static<typeof NodeNetworkResource>;

/**
 * Resources of a node (comparable older form).
 *
 * @since 0.1.0
 */
export const NodeLegacyResources = lazySchema(() =>
  Type.Object({
    /** CPU in MHz. */
    CPU: SafeInteger({ minimum: 0 }),
    /** Memory in megabytes. */
    MemoryMB: SafeInteger({ minimum: 0 }),
    /** Disk in megabytes. */
    DiskMB: SafeInteger({ minimum: 0 }),
    /** Disk I/O operations per second. */
    IOPS: SafeInteger({ minimum: 0 }),
    /** Networks; `null` when none. */
    Networks: NullableArray(NetworkResource),
    /** Devices (free-form); `null` when none. */
    Devices: NullableArray(Type.Unknown()),
  }),
);
/** A value matching the {@link NodeLegacyResources} schema. */
export type NodeLegacyResources = Static<typeof NodeLegacyResources>;

/**
 * Resources a node offers.
 *
 * @since 0.1.0
 */
export const NodeResources = lazySchema(() =>
  Type.Object({
    /** CPU. */
    Cpu: Type.Object({
      /** CPU shares (MHz) available. */
      CpuShares: SafeInteger({ minimum: 0 }),
    }),
    /** Memory. */
    Memory: Type.Object({
      /** Memory in megabytes. */
      MemoryMB: SafeInteger({ minimum: 0 }),
    }),
    /** Disk. */
    Disk: Type.Object({
      /** Disk in megabytes. */
      DiskMB: SafeInteger({ minimum: 0 }),
    }),
    /** Networks available to tasks; `null` when none. */
    Networks: NullableArray(NetworkResource),
    /** Network interfaces of the node; `null` when none. */
    NodeNetworks: NullableArray(NodeNetworkResource),
    /** Devices (free-form); `null` when none. */
    Devices: NullableArray(Type.Unknown()),
  }),
);
/** A value matching the {@link NodeResources} schema. */
export type NodeResources = Static<typeof NodeResources>;

/**
 * An event in a node's life (registration, drain, driver health change, ...).
 *
 * @since 0.1.0
 */
export const NodeEvent = lazySchema(() =>
  Type.Object({
    /** What happened. */
    Message: Type.String(),
    /** Part of the node concerned: `Cluster`, `Drain`, `Driver`, `Heartbeat`, ... */
    Subsystem: Type.String(),
    /** Extra details; `null` when none. */
    Details: Nullable(StringMap),
    /** When it happened, ISO 8601. */
    Timestamp: Type.String(),
    /** Raft index at which it was recorded. */
    CreateIndex: SafeInteger({ minimum: 0 }),
  }),
);
/** A value matching the {@link NodeEvent} schema. */
export type NodeEvent = Static<typeof NodeEvent>;

/**
 * What a node knows about one task driver.
 *
 * @since 0.1.0
 */
export const DriverInfo = lazySchema(() =>
  Type.Object({
    /** Attributes fingerprinted by the driver; `null` when none. */
    Attributes: Nullable(StringMap),
    /** Whether the driver was found on the node. */
    Detected: Type.Boolean(),
    /** Whether the driver is healthy. */
    Healthy: Type.Boolean(),
    /** Explanation of the health. */
    HealthDescription: Type.String(),
    /** When the information was updated, ISO 8601. */
    UpdateTime: Type.String(),
  }),
);
/** A value matching the {@link DriverInfo} schema. */
export type DriverInfo = Static<typeof DriverInfo>;

/**
 * A node (client) of the cluster.
 *
 * @since 0.1.0
 */
export const Node = lazySchema(() =>
  Type.Object({
    /** Node ID (UUID). */
    ID: Type.String(),
    /** Datacenter of the node. */
    Datacenter: Type.String(),
    /** Name of the node (usually its host name). */
    Name: Type.String(),
    /** Address of the node's HTTP API, `host:port`. */
    HTTPAddr: Type.String(),
    /** Whether the node's HTTP API uses TLS. */
    TLSEnabled: Type.Boolean(),
    /** Fingerprinted attributes, for example `kernel.name`; `null` when none. */
    Attributes: Nullable(StringMap),
    /** Resources offered; `null` before fingerprinting. */
    NodeResources: Nullable(NodeResources),
    /** Resources reserved for the system (free-form); `null` when none. */
    ReservedResources: Nullable(Type.Record(Type.String(), Type.Unknown())),
    /** Resources offered, older form; `null` when not reported. */
    Resources: Nullable(NodeLegacyResources),
    /** Resources reserved, older form; `null` when none. */
    Reserved: Nullable(NodeLegacyResources),
    /** Links to other systems (for example a cloud instance ID); `null` when none. */
    Links: Nullable(StringMap),
    /** User metadata of the node; `null` when none. */
    Meta: Nullable(StringMap),
    /** User-chosen class of the node; `""` when none. */
    NodeClass: Type.String(),
    /** Node pool the node belongs to. Absent = `default`. */
    NodePool: Type.Optional(Type.String()),
    /** Hash of the node's scheduling-relevant attributes. */
    ComputedClass: Type.String(),
    /** Whether the node is draining. */
    Drain: Type.Boolean(),
    /** Drain settings (free-form); `null` when not draining. */
    DrainStrategy: Nullable(Type.Record(Type.String(), Type.Unknown())),
    /** Whether new allocations may be placed; see {@link NodeSchedulingEligibility}. */
    SchedulingEligibility: Type.Enum(NodeSchedulingEligibility),
    /** Status; see {@link NodeStatus}. */
    Status: Type.Enum(NodeStatus),
    /** Explanation of the status; `""` when none. */
    StatusDescription: Type.String(),
    /** When the status last changed, in Unix seconds. */
    StatusUpdatedAt: SafeInteger(),
    /** Recent node events; `null` when none. */
    Events: NullableArray(NodeEvent),
    /** Task drivers by name; `null` before fingerprinting. */
    Drivers: Nullable(Type.Record(Type.String(), DriverInfo)),
    /** Controller plugins running on the node, by plugin ID (free-form); `null` when none. */
    CSIControllerPlugins: Nullable(Type.Record(Type.String(), Type.Unknown())),
    /** Node plugins running on the node, by plugin ID (free-form); `null` when none. */
    CSINodePlugins: Nullable(Type.Record(Type.String(), Type.Unknown())),
    /** Host volumes by name (free-form); `null` when none. */
    HostVolumes: Nullable(Type.Record(Type.String(), Type.Unknown())),
    /** Raft index at which the node registered. */
    CreateIndex: SafeInteger({ minimum: 0 }),
    /** Raft index of the last change. */
    ModifyIndex: SafeInteger({ minimum: 0 }),
  }),
);
/** A value matching the {@link Node} schema. */
export type Node = Static<typeof Node>;
