import type { ApiResponse, CallOptions } from '@sked/http';

/**
 * What every call resolves to: the decoded body and the metadata read from the `X-Mesh-*`
 * response headers (`index` from `X-Mesh-Index`, `lastContact`, `knownLeader`, `filteredByAcls`).
 * @typeParam T - The type of the response body.
 * @since 0.1.0
 */
export type Result<T> = ApiResponse<T>;

/**
 * Options every call accepts: the partition, and the signal, timeout and headers every sked client takes.
 * @since 0.1.0
 */
export interface RequestOptions extends CallOptions {
  /**
   * Partition of the peering (an edition-restricted feature; servers without it know only
   * `default`).
   * @defaultValue the client's partition, else the server's (`default`)
   */
  readonly partition?: string | undefined;
}

/**
 * Options of the blocking reads (read and list).
 * @since 0.1.0
 */
export interface ReadOptions extends RequestOptions {
  /**
   * Blocking query: the server answers once the index of the peerings passes this value (or
   * `wait` elapses). `0` answers at once. For a loop, use the endpoint's `watch`.
   * @defaultValue 0 (no blocking)
   */
  readonly index?: number | undefined;
  /**
   * Longest blocking time with `index`: a duration string (`"30s"`, `"5m"`) or milliseconds. The
   * server caps it at 10 minutes and adds up to wait/16 at random.
   * @defaultValue the server's 5 minutes
   */
  readonly wait?: string | number | undefined;
}

/**
 * Options of the `watch` helpers: `wait`, the start `index` and the retry policy (`maxRetries`,
 * `backoffMs`, `maxBackoffMs`, `retryable`, `onError`, `minIntervalMs`, `random`) of
 * `@sked/query`'s `watch`. The signal is the one of the request options. The same for every client.
 * @since 0.1.0
 */
export type { WatchOptions } from '@sked/http';
