/**
 * Storage volumes (type `csi`): the full record, the list item and the register body.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { Allocation } from './allocation.js';
import { Nullable, NullableArray, StringMap, SafeInteger } from './internal/schema.js';
import { lazySchema } from './internal/lazy.js';

/**
 * Access modes of a storage volume.
 *
 * @since 0.1.0
 */
export const CsiVolumeAccessMode = {
  /** One node, read only. */
  SingleNodeReaderOnly: 'single-node-reader-only',
  /** One node, read and write. */
  SingleNodeWriter: 'single-node-writer',
  /** Many nodes, read only. */
  MultiNodeReaderOnly: 'multi-node-reader-only',
  /** Many nodes, one of them writing. */
  MultiNodeSingleWriter: 'multi-node-single-writer',
  /** Many nodes, all writing. */
  MultiNodeMultiWriter: 'multi-node-multi-writer',
} as const;
/** One of the values of {@link CsiVolumeAccessMode}. */
export type CsiVolumeAccessMode = (typeof CsiVolumeAccessMode)[keyof typeof CsiVolumeAccessMode];

/**
 * Attachment modes of a storage volume.
 *
 * @since 0.1.0
 */
export const CsiVolumeAttachmentMode = {
  /** Mounted as a file system. */
  FileSystem: 'file-system',
  /** Attached as a block device. */
  BlockDevice: 'block-device',
} as const;
/** One of the values of {@link CsiVolumeAttachmentMode}. */
export type CsiVolumeAttachmentMode = (typeof CsiVolumeAttachmentMode)[keyof typeof CsiVolumeAttachmentMode];

const CsiVolumeListProperties = lazySchema(() => ({
  /** Volume ID, unique within its namespace. */
  ID: Type.String(),
  /** Display name. */
  Name: Type.String(),
  /** ID of the volume in the storage provider. */
  ExternalID: Type.String(),
  /** Namespace. */
  Namespace: Type.String(),
  /** Topologies the volume is reachable from: each a map of segment key to value; `null` when unrestricted. */
  Topologies: NullableArray(StringMap),
  /** Access mode; see {@link CsiVolumeAccessMode}. `""` when not set at registration. */
  AccessMode: Type.String(),
  /** Attachment mode; see {@link CsiVolumeAttachmentMode}. `""` when not set at registration. */
  AttachmentMode: Type.String(),
  /** Whether new claims may be placed (the plugin is healthy and the volume is usable). */
  Schedulable: Type.Boolean(),
  /** ID of the storage plugin managing the volume. */
  PluginID: Type.String(),
  /** Name of the plugin's provider; `""` when unknown. */
  Provider: Type.String(),
  /** Whether the plugin needs a controller. */
  ControllerRequired: Type.Boolean(),
  /** Healthy controller plugin instances. */
  ControllersHealthy: SafeInteger({ minimum: 0 }),
  /** Controller plugin instances expected. */
  ControllersExpected: SafeInteger({ minimum: 0 }),
  /** Healthy node plugin instances. */
  NodesHealthy: SafeInteger({ minimum: 0 }),
  /** Node plugin instances expected. */
  NodesExpected: SafeInteger({ minimum: 0 }),
  /** Number of claims refused because the volume's claim limit was reached. */
  ResourceExhausted: SafeInteger({ minimum: 0 }),
  /** Raft index at which the volume was registered. */
  CreateIndex: SafeInteger({ minimum: 0 }),
  /** Raft index of the last change. */
  ModifyIndex: SafeInteger({ minimum: 0 }),
}));

/**
 * An item of the volume list: the volume fields without `Allocations`, `ReadAllocs`, `WriteAllocs` and `Version`.
 *
 * @since 0.1.0
 */
export const CsiVolumeListStub = lazySchema(() => Type.Object(CsiVolumeListProperties));
/** A value matching the {@link CsiVolumeListStub} schema. */
export type CsiVolumeListStub = Static<typeof CsiVolumeListStub>;

/**
 * A storage volume as returned by the single-volume read.
 *
 * @since 0.1.0
 */
export const CsiVolume = lazySchema(() =>
  Type.Object({
    ...CsiVolumeListProperties,
    /** Version of the plugin's provider. */
    Version: Type.String(),
    /** Allocations claiming the volume (without their `Job`); empty when none. */
    Allocations: Type.Array(Allocation),
    /** Read claims keyed by allocation ID; the entry value is the claiming allocation or `null`. */
    ReadAllocs: Nullable(Type.Record(Type.String(), Type.Unknown())),
    /** Write claims keyed by allocation ID; the entry value is the claiming allocation or `null`. */
    WriteAllocs: Nullable(Type.Record(Type.String(), Type.Unknown())),
  }),
);
/** A value matching the {@link CsiVolume} schema. */
export type CsiVolume = Static<typeof CsiVolume>;

/**
 * A volume as given in a register body: only `ID` is required.
 *
 * @since 0.1.0
 */
export const CsiVolumeInput = lazySchema(() =>
  Type.Object({
    /** Volume ID. Required, non-empty. */
    ID: Type.String({ minLength: 1 }),
    /** Display name. Absent = the `ID`. */
    Name: Type.Optional(Type.String()),
    /** Namespace. Absent = the request's namespace. */
    Namespace: Type.Optional(Type.String()),
    /** ID in the storage provider. Absent = the `ID`. */
    ExternalID: Type.Optional(Type.String()),
    /** Topologies; absent or `null` = unrestricted. */
    Topologies: Type.Optional(NullableArray(StringMap)),
    /** Access mode; absent = `""` (decided at claim time). */
    AccessMode: Type.Optional(Type.Enum(CsiVolumeAccessMode)),
    /** Attachment mode; absent = `""` (decided at claim time). */
    AttachmentMode: Type.Optional(Type.Enum(CsiVolumeAttachmentMode)),
    /** ID of the storage plugin. Absent = `""`. */
    PluginID: Type.Optional(Type.String()),
    /** File system mount options (`FSType`, `MountFlags`); absent or `null` = the plugin's defaults. */
    MountOptions: Type.Optional(
      Nullable(
        Type.Object({
          /** File system type, e.g. `ext4`. */
          FSType: Type.Optional(Type.String()),
          /** Mount flags, e.g. `noatime`. */
          MountFlags: Type.Optional(NullableArray(Type.String())),
        }),
      ),
    ),
    /** Secrets handed to the plugin; never shown by a read. Absent = `null`. */
    Secrets: Type.Optional(Nullable(StringMap)),
    /** Parameters handed to the plugin. Absent = `null`. */
    Parameters: Type.Optional(Nullable(StringMap)),
    /** Context of the volume in the storage provider. Absent = `null`. */
    Context: Type.Optional(Nullable(StringMap)),
    /** Capacity in bytes. Absent = 0 (unknown). */
    Capacity: Type.Optional(SafeInteger({ minimum: 0 })),
    /** Access and attachment modes the volume must support; absent or `null` = none asked for. */
    RequestedCapabilities: Type.Optional(
      NullableArray(
        Type.Object({
          /** See {@link CsiVolumeAccessMode}. */
          AccessMode: Type.Optional(Type.Enum(CsiVolumeAccessMode)),
          /** See {@link CsiVolumeAttachmentMode}. */
          AttachmentMode: Type.Optional(Type.Enum(CsiVolumeAttachmentMode)),
        }),
      ),
    ),
  }),
);
/** A value matching the {@link CsiVolumeInput} schema. */
export type CsiVolumeInput = Static<typeof CsiVolumeInput>;

/**
 * Body of `PUT /v1/volume/csi/:volume_id`.
 *
 * @since 0.1.0
 */
export const CsiVolumeRegisterRequest = lazySchema(() =>
  Type.Object({
    /** The volumes to register (at least one). */
    Volumes: Type.Array(CsiVolumeInput, { minItems: 1 }),
  }),
);
/** A value matching the {@link CsiVolumeRegisterRequest} schema. */
export type CsiVolumeRegisterRequest = Static<typeof CsiVolumeRegisterRequest>;

/**
 * Response of register, delete and detach volume (not shown by the spec; our choice): the index of the write.
 *
 * @since 0.1.0
 */
export const CsiVolumeWriteResponse = lazySchema(() =>
  Type.Object({
    /** Raft index of the write. */
    Index: SafeInteger({ minimum: 0 }),
  }),
);
/** A value matching the {@link CsiVolumeWriteResponse} schema. */
export type CsiVolumeWriteResponse = Static<typeof CsiVolumeWriteResponse>;
