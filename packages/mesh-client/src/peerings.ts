import {
  attempt,
  type BodySchema,
  type EndpointSpec,
  type Expect,
  follow,
  isObject,
  requireInteger,
  requireWait,
  send,
  type Transport,
} from '@sked/http';
import {
  PeeringEstablishRequest,
  PeeringGenerateTokenRequest,
  type Peering,
  type PeeringEstablishResponse,
  type PeeringGenerateTokenResponse,
} from '@sked/model';

import {
  optionalAddresses,
  optionalPartition,
  requirePeerName,
  requirePeeringToken,
} from './internal/checks.js';
import type { ReadOptions, RequestOptions, Result, WatchOptions } from './options.js';

/**
 * The peering endpoints of the mesh service (relative to `/v1`). Every call validates its input
 * first and rejects with `InvalidRequestError` before any request when the service would
 * refuse it; answers other than 2xx reject with `ApiError` (status, message, redacted URL).
 * @since 0.1.0
 */
export interface PeeringsApi {
  /**
   * `POST /v1/peering/token`: generates a token for the peer cluster to establish with. Calling it
   * again for the same name rotates the secret (the earlier token is then refused).
   * @param body - `PeerName` (required), `ServerExternalAddresses`, `Meta`, `Partition`.
   * @param options - Request options.
   * @returns `{ PeeringToken }`.
   * @throws `InvalidRequestError` for a bad name, address list, Meta or partition.
   */
  generateToken(
    this: void,
    body: PeeringGenerateTokenRequest,
    options?: RequestOptions,
  ): Promise<Result<PeeringGenerateTokenResponse>>;
  /**
   * `POST /v1/peering/establish`: establishes the peering with a token of the peer cluster.
   * Resolves once the peer accepted the token's secret; the peering then turns ACTIVE when the
   * stream is up.
   * @param body - `PeerName` and `PeeringToken` (required), `Meta`, `Partition`.
   * @param options - Request options.
   * @returns An empty object.
   * @throws `InvalidRequestError` for a bad name, or a token that is not base64 of JSON.
   */
  establish(
    this: void,
    body: PeeringEstablishRequest,
    options?: RequestOptions,
  ): Promise<Result<PeeringEstablishResponse>>;
  /**
   * `GET /v1/peering/:name`: reads a peering (a blocking query with `index`/`wait`); its `watch`
   * follows it.
   */
  readonly read: PeeringReadEndpoint;
  /**
   * `DELETE /v1/peering/:name`: deletes a peering (it turns TERMINATED, then is removed).
   * Deleting an unknown name succeeds.
   * @param name - The peer name.
   * @param options - Request options.
   * @returns No data.
   * @throws `InvalidRequestError` for a bad name.
   */
  delete(this: void, name: string, options?: RequestOptions): Promise<Result<void>>;
  /**
   * `GET /v1/peerings`: lists the peerings, ordered by name (a blocking query with
   * `index`/`wait`); `meta.filteredByAcls` is true when the token may not read some of them. Its
   * `watch` follows the list.
   */
  readonly list: PeeringListEndpoint;
}

/**
 * Read a peering: call it, or follow it with `watch`.
 * @since 0.1.0
 */
export interface PeeringReadEndpoint {
  /**
   * Reads a peering.
   * @param name - The peer name.
   * @param options - Blocking and request options.
   * @returns The peering record.
   * @throws `InvalidRequestError` for a bad name, index or wait.
   */
  (name: string, options?: ReadOptions): Promise<Result<Peering>>;
  /**
   * Follows a peering: yields its record at once, then each time the peerings' index moves (a
   * change of state, a deletion; heartbeats do not move it).
   * @param name - The peer name.
   * @param options - Request, blocking and retry options; stop with `break` or the signal.
   * @returns An async iterable of results; a bad name rejects the first `next()`.
   */
  watch(this: void, name: string, options?: ReadOptions & WatchOptions): AsyncIterable<Result<Peering>>;
}

/**
 * List the peerings: call it, or follow the list with `watch`.
 * @since 0.1.0
 */
export interface PeeringListEndpoint {
  /**
   * Lists the peerings, ordered by name.
   * @param options - Blocking and request options.
   * @returns The peering records.
   * @throws `InvalidRequestError` for a bad index or wait.
   */
  (options?: ReadOptions): Promise<Result<Peering[]>>;
  /**
   * Follows the list: yields it at once, then each time the index moves.
   * @param options - Request, blocking and retry options; stop with `break` or the signal.
   * @returns An async iterable of results.
   */
  watch(this: void, options?: ReadOptions & WatchOptions): AsyncIterable<Result<Peering[]>>;
}

const isPeering = (value: unknown): boolean => isObject(value) && typeof value['Name'] === 'string';
const A_PEERING = { what: 'a peering (an object with a Name)', ok: isPeering };
const PEERINGS = {
  what: 'a list of peerings (objects with a Name)',
  ok: (data: unknown) => Array.isArray(data) && data.every(isPeering),
};
const A_TOKEN = {
  what: 'a generated token ({"PeeringToken": "..."})',
  ok: (data: unknown) => isObject(data) && typeof data['PeeringToken'] === 'string',
};

const TOKEN_WRITE = {
  path: '/v1/peering/token',
  bodyName: 'the generateToken body',
  bodySchema: PeeringGenerateTokenRequest,
  expect: A_TOKEN,
};
const ESTABLISH_WRITE = {
  path: '/v1/peering/establish',
  bodyName: 'the establish body',
  bodySchema: PeeringEstablishRequest,
};

/** `Meta` as given, left out when absent or `null` (the body's schema checks it is a map of strings). */
function metaOf(input: Record<string, unknown>): { Meta?: unknown } {
  const meta = input['Meta'];
  return meta === undefined || meta === null ? {} : { Meta: meta };
}

/**
 * Creates the peering endpoints over a transport.
 * @param transport - The transport (token header `X-Mesh-Token`).
 * @param partition - The client's default partition.
 * @returns The endpoints.
 * @internal
 */
export function createPeeringsApi(transport: Transport, partition: string | undefined): PeeringsApi {
  const partitionOf = (options: RequestOptions): string | undefined =>
    optionalPartition(options.partition, 'partition') ?? partition;

  const call = <T>(build: () => EndpointSpec, options: RequestOptions): Promise<Result<T>> =>
    attempt(() => send<T>(transport, build(), options));

  const readSpec = (path: string, options: ReadOptions, expect: Expect): EndpointSpec => ({
    method: 'GET',
    path,
    expect,
    query: {
      partition: partitionOf(options),
      index: options.index === undefined ? undefined : requireInteger(options.index, 'index'),
      wait: options.wait === undefined ? undefined : requireWait(options.wait),
    },
  });

  /**
   * A peering write: the body checked against its model schema in `send`; first what the schema cannot
   * say (a lowercase `PeerName`, a partition name, and the endpoint's own `fields`).
   */
  const writeSpec = (
    endpoint: { path: string; bodyName: string; bodySchema: BodySchema; expect?: Expect },
    body: unknown,
    options: RequestOptions,
    fields: (input: Record<string, unknown>) => Record<string, unknown>,
  ): EndpointSpec => {
    const spec: EndpointSpec = { method: 'POST', query: {}, body, ...endpoint };
    if (!isObject(body)) return spec; // its schema refuses it, naming the body
    const Partition =
      optionalPartition(body['Partition'] === '' ? undefined : body['Partition'], 'Partition') ??
      partitionOf(options);
    return {
      ...spec,
      body: {
        PeerName: requirePeerName(body['PeerName'], 'PeerName'),
        ...fields(body),
        ...(Partition === undefined ? {} : { Partition }),
        ...metaOf(body),
      },
    };
  };

  const namePath = (name: unknown): string =>
    `/v1/peering/${encodeURIComponent(requirePeerName(name, 'name'))}`;

  return {
    generateToken: (body, options = {}) =>
      call(
        () =>
          writeSpec(TOKEN_WRITE, body, options, (input) => {
            const addresses = optionalAddresses(input['ServerExternalAddresses'], 'ServerExternalAddresses');
            return addresses === undefined ? {} : { ServerExternalAddresses: addresses };
          }),
        options,
      ),

    establish: (body, options = {}) =>
      call(
        () =>
          writeSpec(ESTABLISH_WRITE, body, options, (input) => ({
            PeeringToken: requirePeeringToken(input['PeeringToken'], 'PeeringToken'),
          })),
        options,
      ),

    read: Object.assign(
      (name: string, options: ReadOptions = {}) =>
        call<Peering>(() => readSpec(namePath(name), options, A_PEERING), options),
      {
        watch: (name: string, options: ReadOptions & WatchOptions = {}) =>
          follow<Peering>(transport, () => readSpec(namePath(name), options, A_PEERING), options),
      },
    ),

    delete: (name, options = {}) =>
      call(
        () => ({ method: 'DELETE', path: namePath(name), query: { partition: partitionOf(options) } }),
        options,
      ),

    list: Object.assign(
      (options: ReadOptions = {}) =>
        call<Peering[]>(() => readSpec('/v1/peerings', options, PEERINGS), options),
      {
        watch: (options: ReadOptions & WatchOptions = {}) =>
          follow<Peering[]>(transport, () => readSpec('/v1/peerings', options, PEERINGS), options),
      },
    ),
  };
}
