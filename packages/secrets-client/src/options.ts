/**
 * Options of one call: signal, timeout, headers (the same for every sked client).
 * @since 0.1.0
 */
export type { CallOptions } from '@sked/http';

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
