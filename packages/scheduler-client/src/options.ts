import type { ApiResponse, CallOptions } from '@sked/http';
import type { FilterInput } from './internal/filter.js';

export type { FilterInput };

/**
 * What every call resolves to: the decoded body and the metadata read from the `X-Svc-*`
 * response headers (index, last contact, known leader, next-page token). The transport's
 * `ApiResponse` under the client's name.
 * @typeParam T - The type of the response body.
 * @since 0.1.0
 */
export type Result<T> = ApiResponse<T>;

/**
 * Options every call accepts.
 * @since 0.1.0
 */
export interface RequestOptions extends CallOptions {
  /**
   * Target namespace. `*` on lists means every namespace the token may read.
   * @defaultValue the transport's namespace (which defaults to `default`)
   */
  readonly namespace?: string | undefined;
  /**
   * Target region.
   * @defaultValue the transport's region, else the region of the server that answers
   */
  readonly region?: string | undefined;
}

/**
 * Options of every read.
 * @since 0.1.0
 */
export interface ReadOptions extends RequestOptions {
  /**
   * Lets any server answer (possibly slightly stale, generally within 50 ms of the leader).
   * @defaultValue false
   */
  readonly stale?: boolean | undefined;
  /**
   * Blocking query: the server answers once the index of what is read passes this value (or
   * `wait` elapses). `0` answers at once. For a loop of blocking queries use the endpoint's
   * `watch`, which manages the index for you.
   * @defaultValue 0 (no blocking)
   */
  readonly index?: number | undefined;
  /**
   * Longest blocking time with `index`: a duration string (`"30s"`, `"5m"`, `"1h30m"`) or
   * milliseconds. The server caps it at 10 minutes and adds up to wait/16 at random.
   * @defaultValue the server's 5 minutes
   */
  readonly wait?: string | number | undefined;
}

/**
 * Parameters every list accepts: paging, ordering and filtering.
 * @since 0.1.0
 */
export interface ListOptions extends ReadOptions {
  /**
   * ID prefix. Cannot be combined with {@link ListOptions.filter}.
   * @defaultValue none
   */
  readonly prefix?: string | undefined;
  /**
   * Filter expression, as text or as an expression built with `@sked/filter`. It is evaluated by
   * the server against the whole stored object. Cannot be combined with `prefix` (or another
   * filtering parameter): such a call throws {@link InvalidRequestError} before any request.
   * @defaultValue none
   */
  readonly filter?: FilterInput | undefined;
  /**
   * Page size. `0` or absent: the whole list in one response.
   * @defaultValue no paging
   */
  readonly perPage?: number | undefined;
  /**
   * Token of the page to read (the previous page's `meta.nextToken`).
   * @defaultValue the first page
   */
  readonly nextToken?: string | undefined;
  /**
   * Reverses the order of the list.
   * @defaultValue false
   */
  readonly reverse?: boolean | undefined;
}

/**
 * Options of the `watch` helpers (blocking queries): `wait` (a duration string such as `"30s"`, or
 * milliseconds; the server caps it at 10 minutes), the start `index`, and the retry policy
 * (`maxRetries`, `backoffMs`, `maxBackoffMs`, `retryable`, `onError`, `random`) of `@sked/query`'s
 * `watch`. The signal is the one of the request options.
 * @since 0.1.0
 */
export type { WatchOptions } from '@sked/http';
