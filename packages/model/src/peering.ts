/**
 * The mesh service's cluster peering: the peering record, its states, and the token and establish bodies.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { Nullable, NullableArray, StringMap, SafeInteger } from './internal/schema.js';
import { lazySchema } from './internal/lazy.js';

/**
 * States of a peering.
 *
 * @since 0.1.0
 */
export const PeeringState = {
  /** A token was generated; the peer has not connected yet. */
  Initial: 'INITIAL',
  /** The peers are connected. */
  Active: 'ACTIVE',
  /** The peering was deleted; its imported data is being removed in the background. */
  Terminated: 'TERMINATED',
} as const;
/** One of the values of {@link PeeringState}. */
export type PeeringState = (typeof PeeringState)[keyof typeof PeeringState];

/** A DNS hostname label: letters, digits and hyphens, 1-63 characters, not starting or ending with a hyphen. */
const PeerName = lazySchema(() =>
  Type.String({
    pattern: '^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$',
    'x-expected':
      'a DNS hostname label (letters, digits and hyphens, at most 63 characters, no hyphen at either end)',
  }),
);
/** `{host or IP}:port`. */
const ServerAddress = lazySchema(() =>
  Type.String({
    pattern: '^.+:[0-9]{1,5}$',
    'x-expected': 'an address of the form host:port',
  }),
);

/**
 * Status of a peering's replication stream.
 *
 * @since 0.1.0
 */
export const PeeringStreamStatus = lazySchema(() =>
  Type.Object({
    /** Services imported from the peer; `null` when none. */
    ImportedServices: NullableArray(Type.String()),
    /** Services exported to the peer; `null` when none. */
    ExportedServices: NullableArray(Type.String()),
    /** Last heartbeat received, ISO 8601; `null` before the first. */
    LastHeartbeat: Nullable(Type.String()),
    /** Last message received, ISO 8601; `null` before the first. */
    LastReceive: Nullable(Type.String()),
    /** Last message sent, ISO 8601; `null` before the first. */
    LastSend: Nullable(Type.String()),
  }),
);
/** A value matching the {@link PeeringStreamStatus} schema. */
export type PeeringStreamStatus = Static<typeof PeeringStreamStatus>;

/**
 * A peering connection as read and listed.
 *
 * @since 0.1.0
 */
export const Peering = lazySchema(() =>
  Type.Object({
    /** Peering ID (UUID). */
    ID: Type.String(),
    /** Name of the peer (a DNS hostname label). */
    Name: Type.String(),
    /** State; see {@link PeeringState}. */
    State: Type.Enum(PeeringState),
    /** Partition of the peering (present on listings); absent on single reads. */
    Partition: Type.Optional(Type.String()),
    /** ID of the peering in the peer cluster (UUID); `""` until established. */
    PeerID: Type.String(),
    /** TLS server name of the peer's servers; `""` until established. */
    PeerServerName: Type.String(),
    /** Addresses of the peer's servers, `{host or IP}:port`; `null` until established. */
    PeerServerAddresses: NullableArray(Type.String()),
    /** Metadata of the peering; `null` when none. */
    Meta: Nullable(StringMap),
    /** Replication stream status; `null` when there is no stream yet. */
    StreamStatus: Nullable(PeeringStreamStatus),
    /** Where the peer lives. */
    Remote: Type.Object({
      /** Partition of the peer. */
      Partition: Type.String(),
      /** Datacenter of the peer. */
      Datacenter: Type.String(),
    }),
    /** When the peering was marked for deletion, ISO 8601; absent (or `null`) while not deleted. */
    DeletedAt: Type.Optional(Nullable(Type.String())),
    /** Raft index at which the peering was created. */
    CreateIndex: SafeInteger({ minimum: 0 }),
    /** Raft index of the last change. */
    ModifyIndex: SafeInteger({ minimum: 0 }),
  }),
);
/** A value matching the {@link Peering} schema. */
export type Peering = Static<typeof Peering>;

/**
 * Body of `POST /peering/token`.
 *
 * @since 0.1.0
 */
export const PeeringGenerateTokenRequest = lazySchema(() =>
  Type.Object({
    /** Name of the peer: a DNS hostname label. Required. */
    PeerName,
    /** Partition; `""` (default) = `default`. */
    Partition: Type.Optional(Type.String()),
    /** Addresses routing to this cluster's servers (`{host or IP}:port`); absent = the servers' own. */
    ServerExternalAddresses: Type.Optional(NullableArray(ServerAddress)),
    /** Metadata (no effect on peering); absent or `null` = none. */
    Meta: Type.Optional(Nullable(StringMap)),
  }),
);
/** A value matching the {@link PeeringGenerateTokenRequest} schema. */
export type PeeringGenerateTokenRequest = Static<typeof PeeringGenerateTokenRequest>;

/**
 * Response of `POST /peering/token`.
 *
 * @since 0.1.0
 */
export const PeeringGenerateTokenResponse = lazySchema(() =>
  Type.Object({
    /** The token to give to the peer cluster (opaque, base64). */
    PeeringToken: Type.String(),
  }),
);
/** A value matching the {@link PeeringGenerateTokenResponse} schema. */
export type PeeringGenerateTokenResponse = Static<typeof PeeringGenerateTokenResponse>;

/**
 * Body of `POST /peering/establish`.
 *
 * @since 0.1.0
 */
export const PeeringEstablishRequest = lazySchema(() =>
  Type.Object({
    /** Name of the peer: a DNS hostname label. Required. */
    PeerName,
    /** Partition; `""` (default) = `default`. */
    Partition: Type.Optional(Type.String()),
    /** The token generated by the peer cluster. Required, non-empty. */
    PeeringToken: Type.String({ minLength: 1 }),
    /** Metadata; absent or `null` = none. */
    Meta: Type.Optional(Nullable(StringMap)),
  }),
);
/** A value matching the {@link PeeringEstablishRequest} schema. */
export type PeeringEstablishRequest = Static<typeof PeeringEstablishRequest>;

/**
 * Response of `POST /peering/establish`: an empty object (success is the status code).
 *
 * @since 0.1.0
 */
export const PeeringEstablishResponse = lazySchema(() => Type.Object({}));
/** A value matching the {@link PeeringEstablishResponse} schema. */
export type PeeringEstablishResponse = Static<typeof PeeringEstablishResponse>;
