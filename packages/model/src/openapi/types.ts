/**
 * The shapes the OpenAPI generator works with: an endpoint as the routing table writes it, and a
 * service (listener) with its conventions.
 *
 * @packageDocumentation
 */
import type { TSchema } from 'typebox';

/** An HTTP method OpenAPI can describe. */
export type OpenApiMethod = 'get' | 'post' | 'put' | 'delete';

/** One operation of an API, as the routing tables of this folder write it. */
export interface EndpointSpec {
  /** The HTTP method (an endpoint that takes POST and PUT lists both in {@link EndpointSpec.methods}). */
  readonly methods: readonly OpenApiMethod[];
  /** The path in OpenAPI form, e.g. `/v1/job/{job_id}`. */
  readonly path: string;
  /** A stable operation name, e.g. `listJobs`. */
  readonly operationId: string;
  /** One line for a reader. */
  readonly summary: string;
  /** The capability the token needs, when the spec names one. */
  readonly acl?: string;
  /** Query parameters by name, from the service's catalogue (beyond those every call takes). */
  readonly query?: readonly string[];
  /** Required query parameters among {@link EndpointSpec.query}. */
  readonly requiredQuery?: readonly string[];
  /** The request body schema. */
  readonly body?: TSchema | undefined;
  /** Whether the body must be sent. @defaultValue true when a body is given */
  readonly bodyRequired?: boolean;
  /** The success body schema; absent for an answer without a body. */
  readonly response?: TSchema | undefined;
  /** The success status. @defaultValue 200 */
  readonly status?: number;
  /** A blocking read: takes `index`/`wait`, answers the index headers. */
  readonly blocking?: boolean;
  /** A paginated list: takes the paging parameters, may answer the next-token header. */
  readonly paginated?: boolean;
  /** Error statuses it can answer (besides those every call can). */
  readonly errors?: readonly number[];
  /** Headers this endpoint may answer beyond the service's read headers. */
  readonly responseHeaders?: Readonly<Record<string, QueryParameterSpec>>;
  /** How the success answer is carried when it is not one JSON body: newline-delimited JSON. */
  readonly transport?: 'ndjson';
  /**
   * A WebSocket endpoint (RFC 6455): a `GET` with the upgrade headers answered `101 Switching
   * Protocols`, then JSON text frames in both directions. Described with the upgrade headers as
   * parameters, the handshake headers on the 101, and the frames in the `x-websocket` extension.
   */
  readonly websocket?: WebSocketSpec;
  /**
   * The security schemes of this operation when they differ from the service's; empty for an
   * operation that needs no token (login, status probes, the description itself).
   */
  readonly security?: readonly string[];
}

/** The frames and close codes of a WebSocket endpoint. */
export interface WebSocketSpec {
  /** Schema of each frame the client sends (one JSON object per text frame). */
  readonly clientFrame: TSchema;
  /** Schema of each frame the server sends. */
  readonly serverFrame: TSchema;
  /** What the frames are, for a reader (the order, the last frame). */
  readonly description: string;
  /** Close codes the server ends the socket with, and when. */
  readonly closeCodes: Readonly<Record<number, string>>;
}

/** A query parameter of a service's catalogue. */
export interface QueryParameterSpec {
  readonly description: string;
  readonly schema: Record<string, unknown>;
}

/**
 * The headers every blocking read of a service answers, under its prefix (`X-Svc`, `X-Mesh`): the
 * index of the state the answer reflects, the milliseconds since the leader was last heard from,
 * and whether a leader is known.
 */
export function blockingReadHeaders(prefix: string): Readonly<Record<string, QueryParameterSpec>> {
  return {
    [`${prefix}-Index`]: {
      description: 'Index of the state the answer reflects (at least 1).',
      schema: { type: 'integer', minimum: 1 },
    },
    [`${prefix}-LastContact`]: {
      description: 'Milliseconds since the server last heard from the leader.',
      schema: { type: 'integer', minimum: 0 },
    },
    [`${prefix}-KnownLeader`]: {
      description: 'Whether a leader is known.',
      schema: { type: 'string', enum: ['true', 'false'] },
    },
  };
}

/** One API (one listener of the sample server) and its conventions. */
export interface ServiceSpec {
  /** Tag name, e.g. `scheduler`. */
  readonly tag: string;
  readonly description: string;
  /** Default base URL of the service. */
  readonly server: { readonly url: string; readonly description: string };
  /** Names of the security schemes that carry this service's token. */
  readonly security: readonly string[];
  /** Media type and schema of an error body. */
  readonly error: {
    readonly mediaType: string;
    readonly schema: Record<string, unknown>;
    readonly example: unknown;
  };
  /** Headers every blocking read answers (name → description and schema). */
  readonly readHeaders: Readonly<Record<string, QueryParameterSpec>>;
  /** Header a paginated list answers while more pages follow. */
  readonly nextTokenHeader?: string;
  /** Query parameters every call of the service takes. */
  readonly common: readonly string[];
  /** Query parameters every blocking read also takes. */
  readonly blockingQuery: readonly string[];
  /** Query parameters every paginated list also takes. */
  readonly pagingQuery: readonly string[];
  /** The service's query parameters by name. */
  readonly parameters: Readonly<Record<string, QueryParameterSpec>>;
  /** Error statuses every call can answer. */
  readonly errors: readonly number[];
  readonly endpoints: readonly EndpointSpec[];
}
