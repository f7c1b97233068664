import type { Result, WatchOptions } from './options.js';

/**
 * A list endpoint: call it for one page, or use `pages`, `items` or `watch`.
 * @typeParam O - Its options.
 * @typeParam T - The type of its items.
 * @since 0.1.0
 */
export interface ListEndpoint<O, T> {
  /**
   * Reads one page (or the whole list when `perPage` is not set).
   * @param options - Filtering, paging and request options.
   * @returns The items and the metadata; `meta.nextToken` is set when another page follows.
   * @throws {@link InvalidRequestError} for a parameter the service would refuse.
   */
  (options?: O): Promise<Result<T[]>>;
  /**
   * Iterates over the pages, from `nextToken` (or the first page) to the last. Breaking out
   * aborts the request in flight.
   * @param options - As for the call; `perPage` sets the page size.
   * @returns An async iterable of pages.
   */
  pages(this: void, options?: O): AsyncIterable<Result<T[]>>;
  /**
   * Iterates over the items of every page.
   * @param options - As for the call; `perPage` sets the size of each request.
   * @returns An async iterable of items.
   */
  items(this: void, options?: O): AsyncIterable<T>;
  /**
   * Watches the list with blocking queries: yields the list at once, then each time its index
   * moves.
   * @param options - As for the call, plus the blocking-query options.
   * @returns An async iterable of results; stop it with `break` or the signal.
   */
  watch(this: void, options?: O & WatchOptions): AsyncIterable<Result<T[]>>;
}

/**
 * A blocking read of one resource (by its ID), with a `watch` for blocking queries.
 * @typeParam O - Its options.
 * @typeParam T - The type of its body.
 * @since 0.1.0
 */
export interface ReadEndpoint<O, T> {
  /**
   * Reads the resource.
   * @param id - The ID of the job, allocation or volume the read is about.
   * @param options - Request options.
   * @returns The body and the metadata.
   * @throws {@link InvalidRequestError} when `id` is empty or malformed.
   */
  (id: string, options?: O): Promise<Result<T>>;
  /**
   * Watches the resource with blocking queries: yields at once, then each time its index moves.
   * @param id - The ID of the job, allocation or volume the read is about.
   * @param options - Request options and blocking-query options.
   * @returns An async iterable of results; stop it with `break` or the signal.
   */
  watch(this: void, id: string, options?: O & WatchOptions): AsyncIterable<Result<T>>;
}
