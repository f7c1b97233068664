import type { ApiResponse, CallOptions, QueryMeta } from '@sked/http';

/**
 * Options of one call: signal, timeout, headers (the same for every sked client).
 * @since 0.2.0
 */
export type RequestOptions = CallOptions;

/**
 * The former name of {@link RequestOptions}.
 * @deprecated Use {@link RequestOptions}.
 * @since 0.1.0
 */
export type { CallOptions };

/**
 * The metadata of an answer: what its headers said, and what the response envelope said.
 * @since 0.2.0
 */
export interface SecretsMeta extends QueryMeta {
  /** The envelope's `warnings` (empty when there are none). */
  readonly warnings: readonly string[];
  /** The envelope's `request_id`, when it has one. */
  readonly requestId?: string;
}

/**
 * What every call resolves to: the data and the metadata, as with every sked client.
 * @typeParam T - The data's type.
 * @since 0.2.0
 */
export interface Result<T> extends ApiResponse<T> {
  readonly meta: SecretsMeta;
}

/**
 * What `GET /v1/auth/token/lookup-self` says about the calling token.
 * @since 0.1.0
 */
export interface TokenLookup {
  /** Policies of the token, sorted. */
  readonly policies: readonly string[];
  /** Metadata set at login (`username`), or `null` for the root token. */
  readonly meta: Readonly<Record<string, string>> | null;
  /** `ldap-<username>` (or `root`). */
  readonly display_name: string;
  /** Login path that created the token, `auth/ldap/login/<username>`. */
  readonly path: string;
  /** Seconds left before the token expires (0 for a token that never expires). */
  readonly ttl: number;
  /** Expiry time, ISO 8601, or `null` when the token never expires. */
  readonly expire_time: string | null;
  /** Creation time, Unix seconds (absent for the root token). */
  readonly creation_time?: number;
  /** Whether the token can be renewed. */
  readonly renewable: boolean;
  /** Lifetime at creation, in seconds (when the server reports it). */
  readonly creation_ttl?: number;
  /** Uses left; 0 = unlimited (when the server reports it). */
  readonly num_uses?: number;
  /** Period in seconds; 0 = not periodic (when the server reports it). */
  readonly period?: number;
  /** Hard cap in seconds; 0 = none (when the server reports it). */
  readonly explicit_max_ttl?: number;
  /** CIDR blocks the token may be used from (when the server reports it). */
  readonly bound_cidrs?: readonly string[];
  /** `service` or `batch` (when the server reports it). */
  readonly type?: string;
}
