/**
 * Options of {@link collect}.
 * @since 0.1.0
 */
export interface CollectOptions {
  /**
   * Stop after this many items (the iteration is ended, which aborts a request in flight).
   * @defaultValue no limit
   */
  readonly limit?: number | undefined;
}

/**
 * Reads an async iterable into an array.
 *
 * @typeParam T - The item type.
 * @param iterable - For example {@link paginateItems}'s result.
 * @param options - A limit.
 * @returns The items, at most `limit` of them.
 * @throws RangeError when `limit` is not a non-negative integer; otherwise whatever the iterable
 * throws.
 * @example
 * ```ts
 * const first100 = await collect(paginateItems(fetchPage, {}), { limit: 100 });
 * ```
 * @since 0.1.0
 */
export async function collect<T>(iterable: AsyncIterable<T>, options: CollectOptions = {}): Promise<T[]> {
  const { limit = Number.POSITIVE_INFINITY } = options;
  if (limit !== Number.POSITIVE_INFINITY && (!Number.isSafeInteger(limit) || limit < 0)) {
    throw new RangeError(`limit must be a non-negative integer, got ${String(limit)}.`);
  }
  const items: T[] = [];
  if (limit === 0) return items;
  for await (const item of iterable) {
    items.push(item);
    if (items.length >= limit) break;
  }
  return items;
}
