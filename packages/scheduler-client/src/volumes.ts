import type { Transport } from '@sked/http';
import type { CsiVolume, CsiVolumeInput, CsiVolumeListStub, CsiVolumeWriteResponse } from '@sked/model';

import type { ListEndpoint, ReadEndpoint } from './endpoints.js';
import { InvalidRequestError } from './errors.js';
import {
  attempt,
  listEndpoint,
  path,
  quote,
  readEndpoint,
  requireNonEmpty,
  requireObject,
  requireString,
  send,
} from '@sked/http';
import { commonQuery, flag, listQuery } from './internal/query.js';
import { requireHexPrefix, requireId } from './internal/ids.js';
import type { ListOptions, ReadOptions, RequestOptions, Result } from './options.js';

/**
 * Options of {@link VolumesApi.list}.
 * @since 0.1.0
 */
export interface VolumeListOptions extends ListOptions {
  /**
   * Volume type. Only `csi` is supported. The service answers an empty list when the type is
   * omitted, so the client always sends it.
   * @defaultValue `"csi"`
   */
  readonly type?: 'csi' | undefined;
  /**
   * Node ID prefix (an even number of hexadecimal characters). A filtering parameter: cannot be
   * combined with `filter`.
   * @defaultValue none
   */
  readonly nodeId?: string | undefined;
  /**
   * Plugin ID prefix. A filtering parameter: cannot be combined with `filter`.
   * @defaultValue none
   */
  readonly pluginId?: string | undefined;
}

/**
 * Options of {@link VolumesApi.delete}.
 * @since 0.1.0
 */
export interface VolumeDeleteOptions extends RequestOptions {
  /**
   * Deregisters at once and drops the claims of terminal allocations (still an error while
   * running allocations use the volume).
   * @defaultValue false
   */
  readonly force?: boolean | undefined;
}

/**
 * The CSI volume endpoints (spec document 2).
 * @since 0.1.0
 */
export interface VolumesApi {
  /** `GET /v1/volumes`: lists volumes. Blocking, paged, filterable. */
  readonly list: ListEndpoint<VolumeListOptions, CsiVolumeListStub>;
  /** `GET /v1/volume/csi/:volume_id`: reads one volume with its allocations. Blocking. */
  readonly read: ReadEndpoint<ReadOptions, CsiVolume>;
  /**
   * `PUT /v1/volume/csi/:volume_id`: registers an external volume (the path uses `volume.ID`).
   * @param volume - The volume.
   * @param options - Request options; the namespace defaults to `volume.Namespace` when set.
   * @returns The service's answer (its body is not specified by the spec).
   * @throws {@link InvalidRequestError} when the volume has no ID.
   */
  register(
    this: void,
    volume: CsiVolumeInput,
    options?: RequestOptions,
  ): Promise<Result<CsiVolumeWriteResponse>>;
  /**
   * `DELETE /v1/volume/csi/:volume_id`: deregisters a volume that is not in use.
   * @param volumeId - The volume's ID.
   * @param options - `force` and request options.
   * @returns The service's answer.
   * @throws {@link InvalidRequestError} when `volumeId` is empty.
   */
  delete(
    this: void,
    volumeId: string,
    options?: VolumeDeleteOptions,
  ): Promise<Result<CsiVolumeWriteResponse>>;
  /**
   * `DELETE /v1/volume/csi/:volume_id/detach`: detaches a volume from a client node.
   * @param volumeId - The volume's ID.
   * @param nodeId - The node to detach it from.
   * @param options - Request options.
   * @returns The service's answer.
   * @throws {@link InvalidRequestError} when `volumeId` or `nodeId` is empty.
   */
  detach(
    this: void,
    volumeId: string,
    nodeId: string,
    options?: RequestOptions,
  ): Promise<Result<CsiVolumeWriteResponse>>;
}

function volumeType(type: unknown): string {
  if (type === undefined) return 'csi';
  if (type !== 'csi') {
    throw new InvalidRequestError(
      `Unsupported volume type ${quote(type)}: the service supports only "csi".`,
      'type',
      type,
    );
  }
  return type;
}

function volumeIdOf(id: unknown): string {
  return requireId(id, 'volumeId', 'Volume ID');
}

/**
 * Builds the volume endpoints on a transport.
 * @internal
 */
export function createVolumesApi(transport: Transport): VolumesApi {
  return {
    list: listEndpoint<VolumeListOptions, CsiVolumeListStub>(transport, (options) => {
      const nodeId = options.nodeId === undefined ? undefined : requireHexPrefix(options.nodeId, 'nodeId');
      const pluginId =
        options.pluginId === undefined ? undefined : requireString(options.pluginId, 'pluginId');
      return {
        method: 'GET',
        path: '/v1/volumes',
        query: {
          ...listQuery(
            options,
            options.prefix === undefined ? undefined : requireString(options.prefix, 'prefix'),
            { nodeId, pluginId },
          ),
          type: volumeType(options.type),
          node_id: nodeId,
          plugin_id: pluginId,
        },
      };
    }),
    read: readEndpoint<ReadOptions, CsiVolume>(transport, (id, options) => ({
      method: 'GET',
      path: path`/v1/volume/csi/${volumeIdOf(id)}`,
      query: commonQuery(options),
    })),
    register: (volume, options = {}) =>
      attempt(() => {
        const body = requireObject(volume, 'volume');
        const id = requireId(body['ID'], 'volume.ID', 'Volume ID (volume.ID)');
        const own = body['Namespace'];
        if (own !== undefined && typeof own !== 'string') {
          throw new InvalidRequestError(
            `volume.Namespace must be a string, but got ${quote(own)}.`,
            'volume.Namespace',
            own,
          );
        }
        const effective = options.namespace === undefined && own ? { ...options, namespace: own } : options;
        return send(
          transport,
          {
            method: 'PUT',
            path: path`/v1/volume/csi/${id}`,
            query: commonQuery(effective),
            body: { Volumes: [volume] },
          },
          effective,
        );
      }),
    delete: (volumeId, options = {}) =>
      attempt(() =>
        send(
          transport,
          {
            method: 'DELETE',
            path: path`/v1/volume/csi/${volumeIdOf(volumeId)}`,
            query: { ...commonQuery(options), force: flag(options.force, 'force') },
          },
          options,
        ),
      ),
    detach: (volumeId, nodeId, options = {}) =>
      attempt(() => {
        const id = volumeIdOf(volumeId);
        return send(
          transport,
          {
            method: 'DELETE',
            path: path`/v1/volume/csi/${id}/detach`,
            query: { ...commonQuery(options), node: requireNonEmpty(nodeId, 'nodeId') },
          },
          options,
        );
      }),
  };
}
