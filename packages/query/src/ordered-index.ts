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

interface Slot<T> {
  value: T;
  /** The record's key in each ordering, by position. */
  readonly keys: string[];
}

interface Entry<T> {
  readonly key: string;
  readonly record: Slot<T>;
}

interface Sorted<T> {
  insert(entry: Entry<T>): void;
  /** Replaces every entry with these. */
  build(entries: Entry<T>[]): void;
  remove(key: string): void;
  clear(): void;
  iterate(options: IterateOptions): Generator<T, undefined, undefined>;
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
  return views[0] as OrderedIndex<T>;
}

/** One sorted structure: a list of sorted chunks of entries. */
function createSorted<T>(chunkSize: number): Sorted<T> {
  let chunks: Entry<T>[][] = [];
  let maxes: string[] = [];
  let version = 0;

  /** First position whose key satisfies `test` (monotone false→true over the sorted keys). */
  const firstWhere = (test: (key: string) => boolean): [number, number] => {
    let lo = 0;
    let hi = maxes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (test(maxes[mid] as string)) hi = mid;
      else lo = mid + 1;
    }
    if (lo === chunks.length) return [lo, 0];
    const chunk = chunks[lo] as Entry<T>[];
    let a = 0;
    let b = chunk.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (test((chunk[mid] as Entry<T>).key)) b = mid;
      else a = mid + 1;
    }
    return [lo, a];
  };

  const before = (pos: [number, number]): [number, number] | undefined => {
    const [ci, off] = pos;
    if (off > 0) return [ci, off - 1];
    if (ci === 0) return undefined;
    return [ci - 1, (chunks[ci - 1] as Entry<T>[]).length - 1];
  };

  const after = (pos: [number, number]): [number, number] =>
    pos[1] + 1 < (chunks[pos[0]] as Entry<T>[]).length ? [pos[0], pos[1] + 1] : [pos[0] + 1, 0];

  const at = (pos: [number, number]): Entry<T> | undefined => chunks[pos[0]]?.[pos[1]];

  function* iterate(options: IterateOptions): Generator<T, undefined, undefined> {
    const { from, reverse = false, prefix } = options;
    const inPrefix = (key: string): boolean => prefix === undefined || key.startsWith(prefix);
    let pos: [number, number] | undefined;
    if (!reverse) {
      const start = prefix !== undefined && (from === undefined || from < prefix) ? prefix : from;
      pos = start === undefined ? [0, 0] : firstWhere((k) => k >= start);
    } else {
      // First position past the range: after every key <= from and every key in the prefix.
      const end = firstWhere(
        (k) =>
          (from !== undefined && k > from) || (prefix !== undefined && k > prefix && !k.startsWith(prefix)),
      );
      pos = before(end);
    }
    let seen = version;
    let lastKey: string | undefined;
    while (pos !== undefined) {
      if (seen !== version && lastKey !== undefined) {
        // The collection changed while suspended: seek again next to the last key yielded.
        const last = lastKey;
        seen = version;
        pos = reverse ? before(firstWhere((k) => k >= last)) : firstWhere((k) => k > last);
        if (pos === undefined) return undefined;
      }
      const entry = at(pos);
      if (entry === undefined || !inPrefix(entry.key)) return undefined;
      lastKey = entry.key;
      pos = reverse ? before(pos) : after(pos);
      yield entry.record.value;
    }
    return undefined;
  }

  return {
    insert(entry) {
      version++;
      if (chunks.length === 0) {
        chunks = [[entry]];
        maxes = [entry.key];
        return;
      }
      let [ci, off] = firstWhere((k) => k >= entry.key);
      if (ci === chunks.length) {
        ci = chunks.length - 1;
        off = (chunks[ci] as Entry<T>[]).length;
      }
      const chunk = chunks[ci] as Entry<T>[];
      chunk.splice(off, 0, entry);
      maxes[ci] = (chunk[chunk.length - 1] as Entry<T>).key;
      if (chunk.length > chunkSize) {
        const tail = chunk.splice(chunk.length >>> 1);
        chunks.splice(ci + 1, 0, tail);
        maxes.splice(
          ci,
          1,
          (chunk[chunk.length - 1] as Entry<T>).key,
          (tail[tail.length - 1] as Entry<T>).key,
        );
      }
    },
    remove(key) {
      const [ci, off] = firstWhere((k) => k >= key);
      const chunk = chunks[ci];
      if (chunk === undefined || chunk[off]?.key !== key) return;
      version++;
      chunk.splice(off, 1);
      if (chunk.length === 0) {
        chunks.splice(ci, 1);
        maxes.splice(ci, 1);
      } else {
        maxes[ci] = (chunk[chunk.length - 1] as Entry<T>).key;
      }
    },
    clear() {
      chunks = [];
      maxes = [];
      version++;
    },
    build(entries) {
      version++;
      let ordered = true;
      for (let i = 1; i < entries.length && ordered; i++) {
        ordered = (entries[i - 1] as Entry<T>).key < (entries[i] as Entry<T>).key;
      }
      if (!ordered) entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      // Chunks half full, so that the next inserts do not split them at once.
      const size = Math.max(1, chunkSize >>> 1);
      chunks = [];
      maxes = [];
      for (let i = 0; i < entries.length; i += size) {
        const chunk = entries.slice(i, i + size);
        chunks.push(chunk);
        maxes.push((chunk[chunk.length - 1] as Entry<T>).key);
      }
    },
    iterate,
  };
}
