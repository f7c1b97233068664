import { createSorted, registerScan, type Slot, type Sorted } from './internal/sorted-chunks.js';
import type { Ordering } from './ordering.js';

/**
 * Where and how to iterate an {@link OrderedIndex}.
 * @since 0.1.0
 */
export interface IterateOptions {
  /**
   * Sort key to start at (inclusive). Forwards, iteration starts at the first key `>= from`; in
   * reverse, at the last key `<= from`.
   * @defaultValue the first key (or the last one in reverse)
   */
  readonly from?: string | undefined;
  /**
   * Iterate from the last key to the first.
   * @defaultValue false
   */
  readonly reverse?: boolean | undefined;
  /**
   * Only keys that start with this string (found by binary search, not by a scan).
   * @defaultValue every key
   */
  readonly prefix?: string | undefined;
}

/**
 * A collection kept sorted by its {@link Ordering}'s keys, with lookups by id and seeks by key.
 *
 * @remarks
 * Stored as a list of sorted chunks of at most 1,024 entries, so an upsert or delete costs
 * O(log n + 1024) and a seek O(log n). Iterators survive changes made while they are suspended:
 * after a change they seek again to the key just after (before, in reverse) the last one they
 * yielded, so items present throughout are neither skipped nor repeated.
 *
 * A collection may keep secondary orderings (see {@link OrderedIndexOptions.secondary}); {@link
 * OrderedIndex.by} returns a view sorted by one of them, sharing the items, for example allocations
 * by ID when a list has a `prefix`.
 *
 * @typeParam T - The item type.
 * @since 0.1.0
 */
export interface OrderedIndex<T> {
  /** The ordering this view sorts by. */
  readonly ordering: Ordering<T>;
  /** Number of items. */
  readonly size: number;
  /**
   * Looks an item up by id.
   * @param id - The item's id (see {@link Ordering.id}).
   * @returns The item, or `undefined`.
   */
  readonly get: (id: string) => T | undefined;
  /**
   * Whether an item with this id exists.
   * @param id - The item's id.
   * @returns `true` when it exists.
   */
  readonly has: (id: string) => boolean;
  /**
   * Inserts an item or replaces the one with the same id (moving it in every ordering whose key
   * changed).
   * @param item - The item.
   * @returns The item it replaced, or `undefined`.
   */
  readonly upsert: (item: T) => T | undefined;
  /**
   * Removes the item with this id.
   * @param id - The item's id.
   * @returns `true` when an item was removed.
   */
  readonly delete: (id: string) => boolean;
  /** Removes every item. */
  readonly clear: () => void;
  /**
   * Adds many items at once (restoring a saved state): the keys are sorted once and the chunks
   * built directly, instead of one insert each. An item whose id is already present replaces it,
   * as {@link OrderedIndex.upsert} does. Costs O(n log n) in the whole collection's size; already
   * sorted input (in key order) is only checked, not sorted again.
   * @param items - The items.
   * @since 0.2.0
   */
  readonly fill: (items: Iterable<T>) => void;
  /**
   * Iterates items in this view's key order.
   * @param options - Start key, direction and key prefix.
   * @returns An iterator of items.
   */
  readonly values: (options?: IterateOptions) => IterableIterator<T>;
  /**
   * The view of the same items sorted by another of the collection's orderings.
   * @param ordering - The primary ordering or one of the `secondary` ones, as passed at creation.
   * @returns The view; its writes change the whole collection.
   * @throws RangeError when the ordering is not one of this collection's.
   */
  readonly by: (ordering: Ordering<T>) => OrderedIndex<T>;
}

/**
 * Options of {@link createOrderedIndex}.
 * @typeParam T - The item type.
 * @since 0.1.0
 */
export interface OrderedIndexOptions<T> {
  /**
   * Most entries per internal chunk before it splits in two (a tuning knob; tests use small values
   * to exercise splits).
   * @defaultValue 1024
   */
  readonly chunkSize?: number | undefined;
  /**
   * More orderings to keep the items sorted by, reachable with {@link OrderedIndex.by}. Their
   * `id` must agree with the primary ordering's. Each costs one more sorted structure per write.
   * @defaultValue none
   */
  readonly secondary?: readonly Ordering<T>[] | undefined;
}

/**
 * Creates an empty {@link OrderedIndex}.
 *
 * @typeParam T - The item type.
 * @param ordering - How items are identified and sorted, and how tokens map to keys.
 * @param options - Secondary orderings and tuning.
 * @returns The collection, sorted by `ordering`.
 * @throws RangeError when `chunkSize` is not an integer of at least 2.
 * @example
 * ```ts
 * const byId = idOrdering<Allocation>();
 * const allocs = createOrderedIndex(createIndexOrdering<Allocation>(), { secondary: [byId] });
 * allocs.upsert(alloc);
 * const page = readPage(allocs, { perPage: 10 });
 * const withPrefix = readPage(allocs.by(byId), { perPage: 10, prefix: 'ab' });
 * ```
 * @since 0.1.0
 */
export function createOrderedIndex<T>(
  ordering: Ordering<T>,
  options: OrderedIndexOptions<T> = {},
): OrderedIndex<T> {
  const chunkSize = options.chunkSize ?? 1024;
  if (!Number.isSafeInteger(chunkSize) || chunkSize < 2) {
    throw new RangeError(`chunkSize must be an integer of at least 2, got ${String(chunkSize)}.`);
  }
  const orderings = [ordering, ...(options.secondary ?? [])];
  const sorted = orderings.map(() => createSorted<T>(chunkSize));
  const byId = new Map<string, Slot<T>>();

  const upsert = (item: T): T | undefined => {
    const id = ordering.id(item);
    const keys = orderings.map((o) => o.key(item));
    const existing = byId.get(id);
    if (existing === undefined) {
      const record: Slot<T> = { value: item, keys };
      byId.set(id, record);
      for (const [i, s] of sorted.entries()) s.insert({ key: keys[i] as string, record });
      return undefined;
    }
    const previous = existing.value;
    existing.value = item;
    for (const [i, s] of sorted.entries()) {
      const key = keys[i] as string;
      if (existing.keys[i] === key) continue;
      s.remove(existing.keys[i] as string);
      existing.keys[i] = key;
      s.insert({ key, record: existing });
    }
    return previous;
  };

  const remove = (id: string): boolean => {
    const existing = byId.get(id);
    if (existing === undefined) return false;
    byId.delete(id);
    for (const [i, s] of sorted.entries()) s.remove(existing.keys[i] as string);
    return true;
  };

  const fill = (items: Iterable<T>): void => {
    for (const item of items) {
      const id = ordering.id(item);
      const keys = orderings.map((o) => o.key(item));
      const existing = byId.get(id);
      if (existing === undefined) byId.set(id, { value: item, keys });
      else {
        existing.value = item;
        existing.keys.splice(0, keys.length, ...keys);
      }
    }
    const records = [...byId.values()];
    for (const [i, s] of sorted.entries())
      s.build(records.map((record) => ({ key: record.keys[i] as string, record })));
  };

  const views = orderings.map((viewOrdering, i): OrderedIndex<T> => ({
    ordering: viewOrdering,
    get size(): number {
      return byId.size;
    },
    get: (id) => byId.get(id)?.value,
    has: (id) => byId.has(id),
    upsert,
    fill,
    delete: remove,
    clear: () => {
      byId.clear();
      for (const s of sorted) s.clear();
    },
    values: (iterateOptions = {}) => (sorted[i] as Sorted<T>).iterate(iterateOptions),
    by: (other) => {
      const at = orderings.indexOf(other);
      if (at < 0) {
        throw new RangeError("The ordering is not one of this collection's; pass it in options.secondary.");
      }
      return views[at] as OrderedIndex<T>;
    },
  }));
  views.forEach((view, i) => registerScan(view, sorted[i] as Sorted<T>));
  return views[0] as OrderedIndex<T>;
}
