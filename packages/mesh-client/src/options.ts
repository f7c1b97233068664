import type { ApiResponse } from '@sked/http';
import type { WatchOptions as QueryWatchOptions } from '@sked/query';

/**
 * What every call resolves to: the decoded body and the metadata read from the `X-Mesh-*`
 * response headers (`index` from `X-Mesh-Index`, `lastContact`, `knownLeader`, `filteredByAcls`).
 * @typeParam T - The type of the response body.
 * @since 0.1.0
 */
export type Result<T> = ApiResponse<T>;

/**
 * Options every call accepts.
 * @since 0.1.0
 */
export interface RequestOptions {
  /**
   * Partition of the peering (an edition-restricted feature; servers without it know only
   * `default`).
   * @defaultValue the client's partition, else the server's (`default`)
   */
  readonly partition?: string | undefined;
  /**
   * Aborts the request; the promise then rejects with the signal's reason.
   * @defaultValue none
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Timeout of this request in milliseconds.
   * @defaultValue the transport's timeout
   */
  readonly timeout?: number | undefined;
  /**
   * Extra request headers for this call.
   * @defaultValue none
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
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
 * `@sked/query`'s `watch`. The signal is the one of the request options.
 * @since 0.1.0
 */
export type WatchOptions = Omit<QueryWatchOptions, 'signal'>;
