/**
 * The HTTP transport shared by the sked service clients: fetch with tokens, TLS, namespace and
 * region defaults, `X-Svc-*` metadata and one {@link ApiError} for every failure.
 *
 * Start with {@link createTransport}; see the package README for decisions and limits.
 *
 * @packageDocumentation
 */

// Transport
export type {
  ApiResponse,
  ParseMode,
  Query,
  QueryValue,
  RequestOptions,
  ServiceDefaults,
  ServiceOptions,
  Transport,
  TransportDefaults,
} from './transport.js';
export { createTransport, isTransport } from './transport.js';
export { DEFAULT_MAX_RESPONSE_BYTES } from './bounded.js';
export type {
  FetchInit,
  FetchLike,
  ResolvedTls,
  TlsOptions,
  TransportConfig,
  TransportOptions,
} from './config.js';
export { DEFAULT_ADDRESS } from './config.js';

// Endpoints: the one request path of the clients
export type { CallOptions, EndpointSpec, Expect, PageOptions, WatchOptions } from './endpoint.js';
export { attempt, follow, items, lazy, pages, path, send, unusableAnswer } from './endpoint.js';
export type { ListEndpoint, ReadEndpoint } from './endpoint-builders.js';
export { listEndpoint, readEndpoint } from './endpoint-builders.js';

// Argument checks
export {
  isObject,
  quote,
  requireBoolean,
  requireInteger,
  requireNonEmpty,
  requireObject,
  requireString,
  requireStringMap,
  requireWait,
} from './validate.js';

// Metadata
export type { QueryMeta } from './meta.js';

// Errors
export type { ApiErrorInit } from './errors.js';
export { ApiError, ConfigError } from './errors.js';
export { InvalidRequestError } from './invalid-request.js';

// Redaction
export { REDACTED, redactText, redactUrl } from './redact.js';
