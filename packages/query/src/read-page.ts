import { scanOf } from './internal/sorted-chunks.js';
import type { OrderedIndex } from './ordered-index.js';

/**
 * Options of {@link readPage}; they mirror the `per_page`, `next_token` and `reverse` parameters.
 * @typeParam T - The item type.
 * @since 0.1.0
 */
export interface ReadPageOptions<T> {
  /**
   * Page size. `0` or absent returns every matching item in one page.
   * @defaultValue 0
   */
  readonly perPage?: number | undefined;
  /**
   * Token of the first item of the page (from a previous page's `nextToken`). A malformed token
   * is compared as given, never an error.
   * @defaultValue start at the first item
   */
  readonly nextToken?: string | undefined;
  /**
   * Walk the collection from its last key to its first.
   * @defaultValue false
   */
  readonly reverse?: boolean | undefined;
  /**
   * Keeps an item when it returns `true`; applied before counting, so pages hold `perPage` matching
   * items. An exception it throws propagates unchanged.
   * @defaultValue every item matches
   */
  readonly filter?: ((item: T) => boolean) | undefined;
  /**
   * Only items whose sort key starts with this string (for example `namespaceIdKey(ns, '')` for
   * one namespace, or an ID prefix with `idOrdering`).
   * @defaultValue every item
   */
  readonly prefix?: string | undefined;
}

/**
 * One page read by {@link readPage}.
 * @typeParam T - The item type.
 * @since 0.1.0
 */
export interface ReadPageResult<T> {
  /** The matching items of the page, in order. */
  readonly items: T[];
  /** Token of the first matching item after the page; absent when there is none. */
  readonly nextToken?: string;
}

/**
 * Reads one page of an ordered collection, the way the list endpoints page.
 *
 * @remarks
 * Seeks to the token's key by binary search, then walks the collection, applying the filter before
 * counting. It stops at the first matching item after the page, whose token becomes `nextToken`, so
 * a page costs what it holds plus what its filter skips, never a scan of the whole table. Runs
 * synchronously: a page is a consistent snapshot.
 *
 * @typeParam T - The item type.
 * @param collection - The collection to read.
 * @param options - Page size, token, direction, filter and key prefix.
 * @returns The page's items and the token of the next page.
 * @throws RangeError when `perPage` is not a non-negative integer.
 * @example
 * ```ts
 * const first = readPage(jobs, { perPage: 2 });
 * const second = readPage(jobs, { perPage: 2, nextToken: first.nextToken });
 * ```
 * @see {@link createOrderedIndex}
 * @since 0.1.0
 */
export function readPage<T>(
  collection: OrderedIndex<T>,
  options: ReadPageOptions<T> = {},
): ReadPageResult<T> {
  const { perPage = 0, nextToken, reverse = false, filter, prefix } = options;
  if (!Number.isSafeInteger(perPage) || perPage < 0) {
    throw new RangeError(`perPage must be a non-negative integer, got ${JSON.stringify(perPage)}.`);
  }
  const from = nextToken === undefined || nextToken === '' ? undefined : collection.ordering.seek(nextToken);
  const items: T[] = [];
  let next: T | undefined;
  let more = false;
  const visit = (item: T): boolean => {
    if (filter !== undefined && !filter(item)) return true;
    if (perPage > 0 && items.length === perPage) {
      next = item;
      more = true;
      return false;
    }
    items.push(item);
    return true;
  };
  const range = { from, reverse, prefix };
  const scan = scanOf(collection);
  if (scan !== undefined) scan(range, visit);
  else for (const item of collection.values(range)) if (!visit(item)) break;
  return more ? { items, nextToken: collection.ordering.token(next as T) } : { items };
}
