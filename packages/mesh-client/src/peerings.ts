import { ApiError, type Query, type Transport } from '@sked/http';
import type {
  Peering,
  PeeringEstablishRequest,
  PeeringEstablishResponse,
  PeeringGenerateTokenRequest,
  PeeringGenerateTokenResponse,
} from '@sked/model';
import { watch } from '@sked/query';

import { InvalidRequestError } from './errors.js';
import {
  optionalAddresses,
  optionalIndex,
  optionalMeta,
  optionalPartition,
  optionalWait,
  quote,
  requirePeerName,
  requirePeeringToken,
} from './internal/validate.js';
import type { ReadOptions, RequestOptions, Result, WatchOptions } from './options.js';

/**
 * The peering endpoints of the mesh service (relative to `/v1`). Every call validates its input
 * first and rejects with {@link InvalidRequestError} before any request when the service would
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
   * @throws {@link InvalidRequestError} for a bad name, address list, Meta or partition.
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
   * @throws {@link InvalidRequestError} for a bad name, or a token that is not base64 of JSON.
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
   * @throws {@link InvalidRequestError} for a bad name.
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
   * @throws {@link InvalidRequestError} for a bad name, index or wait.
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
   * @throws {@link InvalidRequestError} for a bad index or wait.
   */
  (options?: ReadOptions): Promise<Result<Peering[]>>;
  /**
   * Follows the list: yields it at once, then each time the index moves.
   * @param options - Request, blocking and retry options; stop with `break` or the signal.
   * @returns An async iterable of results.
   */
  watch(this: void, options?: ReadOptions & WatchOptions): AsyncIterable<Result<Peering[]>>;
}

interface Expect {
  readonly what: string;
  readonly ok: (data: unknown) => boolean;
}

interface Spec {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly query: Query;
  readonly body?: unknown;
  /** What a 2xx answer must be, said as `a peering (a JSON object)`, with its check. */
  readonly expect?: Expect;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

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

/** Checks a 2xx answer against what the endpoint answers: `null` or a wrong shape is an `ApiError`. */
function checked<T>(spec: Spec, result: Result<T>): Result<T> {
  if (spec.expect === undefined || spec.expect.ok(result.data)) return result;
  const text = JSON.stringify(result.data) ?? 'nothing';
  throw new ApiError({
    status: 200,
    method: spec.method,
    url: spec.path,
    message: `The answer to ${spec.method} ${spec.path} is not ${spec.expect.what}: ${
      text.length > 60 ? `${text.slice(0, 60)}...` : text
    }.`,
    body: result.data,
    meta: result.meta,
  });
}

function requireBody(body: unknown, what: string): Record<string, unknown> {
  if (typeof body === 'object' && body !== null && !Array.isArray(body))
    return body as Record<string, unknown>;
  throw new InvalidRequestError(
    `The ${what} body must be an object with a PeerName, but got ${quote(body)}.`,
    'body',
    body,
  );
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

  const send = async <T>(spec: Spec, options: RequestOptions): Promise<Result<T>> =>
    checked(
      spec,
      await transport.request<T>({
        method: spec.method,
        path: spec.path,
        query: spec.query,
        ...(spec.body === undefined ? {} : { body: spec.body }),
        ...(options.headers === undefined ? {} : { headers: options.headers }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
      }),
    );

  // Validation errors become rejections, never synchronous throws.
  const call = <T>(build: () => Spec, options: RequestOptions): Promise<Result<T>> => {
    try {
      return send<T>(build(), options);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };

  const readSpec = (path: string, options: ReadOptions, expect: Expect): Spec => ({
    method: 'GET',
    path,
    expect,
    query: {
      partition: partitionOf(options),
      index: optionalIndex(options.index),
      wait: optionalWait(options.wait),
    },
  });

  const namePath = (name: unknown): string =>
    `/v1/peering/${encodeURIComponent(requirePeerName(name, 'name'))}`;

  async function* follow<T>(
    build: () => Spec,
    options: ReadOptions & WatchOptions,
  ): AsyncGenerator<Result<T>> {
    const spec = build();
    const { signal, ...rest } = options;
    yield* watch<object, Result<T>>(
      (cursor, inner) =>
        send<T>(
          { ...spec, query: { ...spec.query, index: cursor.index, wait: cursor.wait } },
          { ...options, signal: inner },
        ),
      {},
      { ...rest, signal },
    );
  }

  return {
    generateToken: (body, options = {}) =>
      call(() => {
        const input = requireBody(body, 'generateToken');
        const Partition =
          optionalPartition(input['Partition'] === '' ? undefined : input['Partition'], 'Partition') ??
          partitionOf(options);
        const addresses = optionalAddresses(input['ServerExternalAddresses'], 'ServerExternalAddresses');
        const meta = optionalMeta(input['Meta'], 'Meta');
        return {
          method: 'POST',
          path: '/v1/peering/token',
          query: {},
          expect: A_TOKEN,
          body: {
            PeerName: requirePeerName(input['PeerName'], 'PeerName'),
            ...(Partition === undefined ? {} : { Partition }),
            ...(addresses === undefined ? {} : { ServerExternalAddresses: addresses }),
            ...(meta === undefined ? {} : { Meta: meta }),
          },
        };
      }, options),

    establish: (body, options = {}) =>
      call(() => {
        const input = requireBody(body, 'establish');
        const Partition =
          optionalPartition(input['Partition'] === '' ? undefined : input['Partition'], 'Partition') ??
          partitionOf(options);
        const meta = optionalMeta(input['Meta'], 'Meta');
        return {
          method: 'POST',
          path: '/v1/peering/establish',
          query: {},
          body: {
            PeerName: requirePeerName(input['PeerName'], 'PeerName'),
            PeeringToken: requirePeeringToken(input['PeeringToken'], 'PeeringToken'),
            ...(Partition === undefined ? {} : { Partition }),
            ...(meta === undefined ? {} : { Meta: meta }),
          },
        };
      }, options),

    read: Object.assign(
      (name: string, options: ReadOptions = {}) =>
        call<Peering>(() => readSpec(namePath(name), options, A_PEERING), options),
      {
        watch: (name: string, options: ReadOptions & WatchOptions = {}) =>
          follow<Peering>(() => readSpec(namePath(name), options, A_PEERING), options),
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
          follow<Peering[]>(() => readSpec('/v1/peerings', options, PEERINGS), options),
      },
    ),
  };
}
