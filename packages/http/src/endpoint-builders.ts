/** The read and list endpoint builders: a call plus its `watch` (and, for lists, `pages` and `items`). */
import type { ApiResponse, Transport } from './transport.js';
import {
  attempt,
  follow,
  items,
  pages,
  send,
  type CallOptions,
  type EndpointSpec,
  type PageOptions,
  type WatchOptions,
} from './endpoint.js';

/**
 * A list endpoint: call it for one page (or the whole list), or use `pages`, `items` or `watch`.
 * @typeParam O - Its options.
 * @typeParam T - The type of its items.
 * @since 0.2.0
 */
export interface ListEndpoint<O, T> {
  /** Reads one page (or the whole list when `perPage` is not set); `meta.nextToken` when more follow. */
  (options?: O): Promise<ApiResponse<T[]>>;
  /** Iterates over the pages; breaking out aborts the request in flight. */
  pages(this: void, options?: O): AsyncIterable<ApiResponse<T[]>>;
  /** Iterates over the items of every page. */
  items(this: void, options?: O): AsyncIterable<T>;
  /** Watches the list with blocking queries: yields at once, then each time its index moves. */
  watch(this: void, options?: O & WatchOptions): AsyncIterable<ApiResponse<T[]>>;
}

/**
 * A blocking read of one object by its name or ID, with a `watch`.
 * @typeParam O - Its options.
 * @typeParam T - The type of its body.
 * @since 0.2.0
 */
export interface ReadEndpoint<O, T> {
  /** Reads the object; a missing one rejects with an `ApiError` of status 404. */
  (id: string, options?: O): Promise<ApiResponse<T>>;
  /** Watches the object with blocking queries: yields at once, then each time its index moves. */
  watch(this: void, id: string, options?: O & WatchOptions): AsyncIterable<ApiResponse<T>>;
}

/**
 * Builds a list endpoint: the call, `pages`, `items` and `watch`.
 * @since 0.2.0
 */
export function listEndpoint<O extends PageOptions, T>(
  transport: Transport,
  build: (options: O) => EndpointSpec,
): ListEndpoint<O, T> {
  const none = {} as O;
  return Object.assign((options: O = none) => attempt(() => send<T[]>(transport, build(options), options)), {
    pages: (options: O = none) => pages<T>(transport, () => build(options), options),
    items: (options: O = none) => items<T>(transport, () => build(options), options),
    watch: (options: O & WatchOptions = none as O & WatchOptions) =>
      follow<T[]>(transport, () => build(options), options),
  });
}

/**
 * Builds a blocking read of one object by name or ID: the call and `watch`.
 * @since 0.2.0
 */
export function readEndpoint<O extends CallOptions, T>(
  transport: Transport,
  build: (id: string, options: O) => EndpointSpec,
): ReadEndpoint<O, T> {
  const none = {} as O;
  return Object.assign(
    (id: string, options: O = none) => attempt(() => send<T>(transport, build(id, options), options)),
    {
      watch: (id: string, options: O & WatchOptions = none as O & WatchOptions) =>
        follow<T>(transport, () => build(id, options), options),
    },
  );
}
