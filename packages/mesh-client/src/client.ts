import {
  ConfigError,
  createTransport,
  isTransport,
  type Transport,
  type TransportDefaults,
  type TransportOptions,
} from '@sked/http';

import { InvalidRequestError } from './errors.js';
import { optionalPartition } from './internal/checks.js';
import { createPeeringsApi, type PeeringsApi } from './peerings.js';

/** Default address of the mesh service. */
export const MESH_DEFAULT_ADDRESS = 'http://127.0.0.1:8500';
/** Prefix of the environment variables the mesh client reads (`SKED_MESH_ADDR`, ...). */
export const MESH_ENV_PREFIX = 'SKED_MESH_';

/**
 * Options of {@link createMeshClient}: the transport's options (address, token, TLS, timeout,
 * fetch, headers, env, log) with the mesh service's defaults, plus a default partition.
 * @since 0.1.0
 */
export interface MeshClientOptions extends Omit<
  TransportOptions,
  'namespace' | 'region' | 'envPrefix' | 'defaultAddress'
> {
  /**
   * Partition sent with every call that does not name one (env `SKED_MESH_PARTITION`).
   * @defaultValue none (the server's `default`)
   */
  readonly partition?: string | undefined;
}

/**
 * Defaults a derived client applies (see {@link MeshClient.withDefaults}): the transport's, and the
 * partition.
 * @since 0.2.0
 */
export interface MeshClientDefaults extends Omit<
  TransportDefaults,
  'namespace' | 'region' | 'defaultAddress'
> {
  /** Partition sent with every call that does not name one. */
  readonly partition?: string | undefined;
}

/**
 * A client of the mesh service's cluster peering API: plain objects of functions, so
 * `const { list } = client.peerings` works.
 * @since 0.1.0
 */
export interface MeshClient {
  /** The transport every call goes through. */
  readonly transport: Transport;
  /** The default partition, when one is set. */
  readonly partition: string | undefined;
  /** The peering endpoints. */
  readonly peerings: PeeringsApi;
  /**
   * Derives a client with other defaults (token, address, partition, timeout, headers); this one
   * is unchanged.
   * @param defaults - The defaults to change.
   * @returns A new client.
   * @throws {@link ConfigError} for an invalid option or partition.
   */
  withDefaults(this: void, defaults: MeshClientDefaults): MeshClient;
}

function checkedPartition(value: string | undefined, source: string): string | undefined {
  try {
    return optionalPartition(value, source);
  } catch (error) {
    if (!InvalidRequestError.is(error)) throw error;
    throw new ConfigError(error.message, source, String(error.value));
  }
}

function build(transport: Transport, partition: string | undefined): MeshClient {
  return {
    transport,
    partition,
    peerings: createPeeringsApi(transport, partition),
    withDefaults: ({ partition: next, ...defaults }) =>
      build(
        transport.withDefaults(defaults),
        next === undefined ? partition : checkedPartition(next, 'option partition'),
      ),
  };
}

/**
 * Creates a client of the mesh service.
 *
 * @remarks
 * Options fall back to the `SKED_MESH_*` environment variables (`SKED_MESH_ADDR`,
 * `SKED_MESH_TOKEN`, `SKED_MESH_PARTITION`, `SKED_MESH_CACERT`, `SKED_MESH_CLIENT_CERT`,
 * `SKED_MESH_CLIENT_KEY`, `SKED_MESH_SKIP_VERIFY`), then to `http://127.0.0.1:8500`. The token
 * travels in `X-Mesh-Token` (or `Authorization: Bearer` with `tokenHeader: 'Authorization'`) and
 * is redacted from every error and log line.
 *
 * @param transportOrOptions - Options, or a transport of `@sked/http` configured by you (its
 *   token header should be `X-Mesh-Token`).
 * @returns The client.
 * @throws {@link ConfigError} for an invalid address, token, TLS file or partition.
 * @example
 * ```ts
 * import { createMeshClient } from '@sked/mesh-client';
 *
 * const mesh = createMeshClient({ address: 'http://127.0.0.1:8500', token: process.env.MESH_TOKEN });
 * const { data: peerings } = await mesh.peerings.list();
 * ```
 * @since 0.1.0
 */
export function createMeshClient(transportOrOptions: Transport | MeshClientOptions = {}): MeshClient {
  if (isTransport(transportOrOptions)) return build(transportOrOptions, undefined);
  const { partition: partitionOption, ...options } = transportOrOptions;
  const transport = createTransport({
    tokenHeader: 'X-Mesh-Token',
    ...options,
    envPrefix: MESH_ENV_PREFIX,
    defaultAddress: MESH_DEFAULT_ADDRESS,
  });
  const env =
    options.env === false ? {} : (options.env ?? (typeof process === 'undefined' ? {} : process.env));
  const fromEnv = env[`${MESH_ENV_PREFIX}PARTITION`];
  const source = partitionOption === undefined ? `${MESH_ENV_PREFIX}PARTITION` : 'option partition';
  const partition = checkedPartition(partitionOption ?? (fromEnv === '' ? undefined : fromEnv), source);
  return build(transport, partition);
}
