/**
 * Network requests and ports of task groups, tasks, allocations and nodes.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { Nullable, NullableArray, optionalProperties, SafeInteger } from './internal/schema.js';
import { lazySchema } from './internal/lazy.js';

const PortProperties = lazySchema(() => ({
  /** Name of the port, referenced by services and checks (`PortLabel`) and in the task environment. */
  Label: Type.String(),
  /** Host port: fixed for reserved ports; for dynamic ports 0 until the scheduler assigns one. */
  Value: SafeInteger({ minimum: 0, maximum: 65535 }),
  /** Port inside the task's network namespace the host port maps to; 0 = the same as `Value`. */
  To: SafeInteger({ minimum: -1, maximum: 65535 }),
  /** Name of the host network to use; `default` (or `""`) is the node's default network. */
  HostNetwork: Type.String(),
}));

/**
 * A reserved (fixed) or dynamic port of a network request.
 *
 * @since 0.1.0
 */
export const Port = lazySchema(() => Type.Object(PortProperties));
/** A value matching the {@link Port} schema. */
export type Port = Static<typeof Port>;

/**
 * A {@link Port} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const PortInput = lazySchema(() => Type.Object(optionalProperties(PortProperties)));
/** A value matching the {@link PortInput} schema. */
export type PortInput = Static<typeof PortInput>;

const DnsConfigProperties = lazySchema(() => ({
  /** DNS servers (IP addresses); `null` when none are configured. */
  Servers: NullableArray(Type.String()),
  /** Search domains; `null` when none. */
  Searches: NullableArray(Type.String()),
  /** Resolver options such as `ndots:2`; `null` when none. */
  Options: NullableArray(Type.String()),
}));

/**
 * DNS configuration of a network (bridge mode).
 *
 * @since 0.1.0
 */
export const DnsConfig = lazySchema(() => Type.Object(DnsConfigProperties));
/** A value matching the {@link DnsConfig} schema. */
export type DnsConfig = Static<typeof DnsConfig>;

/**
 * A {@link DnsConfig} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const DnsConfigInput = lazySchema(() => Type.Object(optionalProperties(DnsConfigProperties)));
/** A value matching the {@link DnsConfigInput} schema. */
export type DnsConfigInput = Static<typeof DnsConfigInput>;

const NetworkScalarProperties = lazySchema(() => ({
  /** Network mode: `host` (default), `bridge`, `none`, `cni/<name>`. */
  Mode: Type.String(),
  /** Host network device used; `""` = chosen by the client. */
  Device: Type.String(),
  /** CIDR block of the network; `""` when not set. */
  CIDR: Type.String(),
  /** IP address assigned to the allocation; `""` until placed. */
  IP: Type.String(),
  /** Bandwidth in megabits per second; 0 = no bandwidth requested. */
  MBits: SafeInteger({ minimum: 0 }),
}));

/**
 * A network request (in a job) or assignment (in an allocation or node).
 *
 * @since 0.1.0
 */
export const NetworkResource = lazySchema(() =>
  Type.Object({
    ...NetworkScalarProperties,
    /** DNS configuration; `null` = the client's default resolver configuration. */
    DNS: Nullable(DnsConfig),
    /** Ports with a fixed host port; `null` when none. */
    ReservedPorts: NullableArray(Port),
    /** Ports whose host port is picked by the scheduler; `null` when none. */
    DynamicPorts: NullableArray(Port),
  }),
);
/** A value matching the {@link NetworkResource} schema. */
export type NetworkResource = Static<typeof NetworkResource>;

/**
 * A {@link NetworkResource} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const NetworkResourceInput = lazySchema(() =>
  Type.Object({
    ...optionalProperties(NetworkScalarProperties),
    /** See {@link NetworkResource}. */
    DNS: Type.Optional(Nullable(DnsConfigInput)),
    /** See {@link NetworkResource}. */
    ReservedPorts: Type.Optional(NullableArray(PortInput)),
    /** See {@link NetworkResource}. */
    DynamicPorts: Type.Optional(NullableArray(PortInput)),
  }),
);
/** A value matching the {@link NetworkResourceInput} schema. */
export type NetworkResourceInput = Static<typeof NetworkResourceInput>;
