import { abortable, stoppedByConsumer } from './internal/abortable.js';

/**
 * The paging parameters {@link paginate} adds to each request.
 * @since 0.1.0
 */
export interface PageCursor {
  /** Token of the page to read (absent for the first page). */
  readonly nextToken?: string;
  /** Page size (absent when neither the parameters nor the options set one). */
  readonly perPage?: number;
}

/**
 * What a page fetcher resolves to: the page's items and the token of the next page.
 * @typeParam T - The item type.
 * @since 0.1.0
 */
export interface PageResponse<T> {
  /** The items of the page. */
  readonly data: readonly T[];
  /** Response metadata; only `nextToken` is read. */
  readonly meta: {
    /** Token of the next page; absent or empty on the last page. */
    readonly nextToken?: string | undefined;
  };
}

/**
 * Loads one page: receives the caller's parameters plus the {@link PageCursor}, and a signal that
 * aborts when the consumer stops or the caller's signal aborts.
 * @typeParam P - The caller's parameters.
 * @typeParam R - The response type.
 * @since 0.1.0
 */
export type PageFetcher<P, R> = (request: P & PageCursor, signal: AbortSignal) => Promise<R>;

/**
 * Options of {@link paginate} and {@link paginateItems}.
 * @since 0.1.0
 */
export interface PaginateOptions {
  /**
   * Aborts the iteration: the pending `next()` rejects with the signal's reason.
   * @defaultValue never aborted
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Page size; overrides a `perPage` in the parameters.
   * @defaultValue the parameters' `perPage`, else the server's default
   */
  readonly perPage?: number | undefined;
}

/**
 * Iterates over every page of a list endpoint.
 *
 * @remarks
 * Requests the first page with the parameters (starting at their `nextToken` if they have one), then
 * each following page with the previous page's `meta.nextToken`, and stops after a page without
 * one. Breaking out of the loop aborts a request still in flight. When the caller's signal aborts,
 * the pending `next()` rejects with the signal's reason; errors of the fetcher propagate unchanged
 * (no retry).
 *
 * @typeParam P - The caller's parameters.
 * @typeParam R - The page response type.
 * @param fetchPage - Loads one page for a cursor.
 * @param params - Parameters passed to every call of `fetchPage`, merged with the cursor; a
 *   `nextToken` or `perPage` in them sets the first page and the page size.
 * @param options - Signal and page size.
 * @returns An async iterable of pages; breaking out aborts the in-flight request.
 * @throws Error when the server answers the same next token twice in a row (it would never end).
 * @example
 * ```ts
 * for await (const page of paginate((req, signal) => client.jobs.list({ ...req, signal }), {}, { perPage: 50 })) {
 *   console.log(page.data.length, page.meta.nextToken);
 * }
 * ```
 * @see {@link paginateItems}
 * @since 0.1.0
 */
export function paginate<P extends object, R extends PageResponse<unknown>>(
  fetchPage: PageFetcher<P, R>,
  params: P & PageCursor,
  options: PaginateOptions = {},
): AsyncIterable<R> {
  const outer = options.signal;
  return abortable(async function* pages(signal): AsyncGenerator<R, void, undefined> {
    const perPage = options.perPage ?? params.perPage;
    let token = params.nextToken;
    for (;;) {
      if (signal.aborted) {
        if (stoppedByConsumer(signal, outer)) return;
        throw outer?.reason;
      }
      const cursor: { nextToken?: string; perPage?: number } = {};
      if (token !== undefined && token !== '') cursor.nextToken = token;
      if (perPage !== undefined) cursor.perPage = perPage;
      let page: R;
      try {
        page = await fetchPage({ ...params, ...cursor } as P & PageCursor, signal);
      } catch (error) {
        if (stoppedByConsumer(signal, outer)) return;
        throw error;
      }
      yield page;
      const next = page.meta.nextToken;
      if (next === undefined || next === '') return;
      if (next === token) {
        throw new Error(`The server answered the next token ${JSON.stringify(next)} twice in a row.`);
      }
      token = next;
    }
  }, outer);
}

/**
 * Iterates over every item of every page of a list endpoint.
 *
 * @typeParam P - The caller's parameters.
 * @typeParam T - The item type.
 * @param fetchPage - Loads one page for a cursor.
 * @param params - Parameters passed to every call of `fetchPage`, merged with the cursor; a
 *   `nextToken` or `perPage` in them sets the first page and the page size.
 * @param options - Signal and page size.
 * @returns An async iterable of items; breaking out aborts the in-flight request.
 * @throws Error when the server answers the same next token twice in a row.
 * @example
 * ```ts
 * for await (const alloc of paginateItems((req, signal) => client.allocations.list({ ...req, signal }), {})) {
 *   if (alloc.ClientStatus === 'failed') break;
 * }
 * ```
 * @see {@link paginate}
 * @since 0.1.0
 */
export function paginateItems<P extends object, T>(
  fetchPage: PageFetcher<P, PageResponse<T>>,
  params: P & PageCursor,
  options: PaginateOptions = {},
): AsyncIterable<T> {
  const outer = options.signal;
  return abortable(async function* items(signal): AsyncGenerator<T, void, undefined> {
    try {
      for await (const page of paginate(fetchPage, params, { ...options, signal })) {
        yield* page.data;
      }
    } catch (error) {
      if (stoppedByConsumer(signal, outer)) return;
      throw error;
    }
  }, outer);
}
