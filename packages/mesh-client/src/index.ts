/**
 * A typed client for the mesh service's cluster peering HTTP API: generate a token, establish,
 * read, delete and list peerings, with blocking-query watches over `X-Mesh-Index`.
 *
 * See the package README for a walk-through.
 *
 * @packageDocumentation
 */

// Client
export { createMeshClient, MESH_DEFAULT_ADDRESS, MESH_ENV_PREFIX } from './client.js';
export type { MeshClient, MeshClientDefaults, MeshClientOptions } from './client.js';

// Peerings
export type { PeeringListEndpoint, PeeringReadEndpoint, PeeringsApi } from './peerings.js';

// Options
export type { ReadOptions, RequestOptions, Result, WatchOptions } from './options.js';

// Errors
export { InvalidRequestError } from './errors.js';

// Types of @sked/model, re-exported for convenience
export { PeeringState } from '@sked/model';
export type {
  Peering,
  PeeringEstablishRequest,
  PeeringEstablishResponse,
  PeeringGenerateTokenRequest,
  PeeringGenerateTokenResponse,
  PeeringStreamStatus,
} from '@sked/model';

// Re-exported from @sked/http, so that one import is enough
export { ApiError, ConfigError, createTransport } from '@sked/http';
export type { QueryMeta, Transport, TransportOptions } from '@sked/http';
