import type { IterateOptions, OrderedIndex } from '../ordered-index.js';

/** An item of an ordered index and its key in each of the index's orderings. @internal */
export interface Slot<T> {
  value: T;
  /** The record's key in each ordering, by position. */
  readonly keys: string[];
}

interface Entry<T> {
  readonly key: string;
  readonly record: Slot<T>;
}

/** Visits items in order until it returns false. @internal */
export type Visit<T> = (value: T) => boolean;

/** One sorted structure of an ordered index: a list of sorted chunks of entries. @internal */
export interface Sorted<T> {
  insert(entry: Entry<T>): void;
  /** Replaces every entry with these. */
  build(entries: Entry<T>[]): void;
  remove(key: string): void;
  clear(): void;
  iterate(options: IterateOptions): Generator<T, undefined, undefined>;
  /** Visits the items `iterate` would yield, without a generator (see {@link scanOf}). */
  scan(options: IterateOptions, visit: Visit<T>): void;
}

/** Returned by a cursor past its last item. */
const DONE: unique symbol = Symbol('done');

/** The sorted structure of each view of an ordered index, for {@link scanOf}. */
const scans = new WeakMap<OrderedIndex<unknown>, Sorted<unknown>>();

/** Records the sorted structure behind a view (createOrderedIndex). @internal */
export function registerScan<T>(view: OrderedIndex<T>, sorted: Sorted<T>): void {
  scans.set(view as OrderedIndex<unknown>, sorted as Sorted<unknown>);
}

/**
 * A visit of a collection's items in its order, as `values(options)` yields them but without a
 * generator's cost per item (readPage visits a page and what its filter skips on every list
 * request); `undefined` for a collection not made by createOrderedIndex. @internal
 */
export function scanOf<T>(
  collection: OrderedIndex<T>,
): ((options: IterateOptions, visit: Visit<T>) => void) | undefined {
  const sorted = scans.get(collection as OrderedIndex<unknown>) as Sorted<T> | undefined;
  return sorted === undefined ? undefined : (options, visit) => sorted.scan(options, visit);
}

/** The state of one sorted structure: its chunks, the last key of each, and a change counter. */
interface Chunks<T> {
  chunks: Entry<T>[][];
  maxes: string[];
  /** Moves on every change, so that a cursor knows to seek again. */
  version: number;
}

/** First position whose key satisfies `test` (monotone false→true over the sorted keys). */
function firstWhere<T>(s: Chunks<T>, test: (key: string) => boolean): [number, number] {
  let lo = 0;
  let hi = s.maxes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(s.maxes[mid] as string)) hi = mid;
    else lo = mid + 1;
  }
  if (lo === s.chunks.length) return [lo, 0];
  const chunk = s.chunks[lo] as Entry<T>[];
  let a = 0;
  let b = chunk.length;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (test((chunk[mid] as Entry<T>).key)) b = mid;
    else a = mid + 1;
  }
  return [lo, a];
}

function before<T>(s: Chunks<T>, pos: [number, number]): [number, number] | undefined {
  const [ci, off] = pos;
  if (off > 0) return [ci, off - 1];
  if (ci === 0) return undefined;
  return [ci - 1, (s.chunks[ci - 1] as Entry<T>[]).length - 1];
}

/**
 * A cursor over the items in range: `next()` gives the next item or DONE. It survives changes
 * made between calls: after one it seeks again next to the last key it gave, so items present
 * throughout are neither skipped nor repeated. Positions are plain numbers (no tuple per step).
 * With `after` (forwards only), it goes on after that key, already visited.
 */
function cursor<T>(s: Chunks<T>, options: IterateOptions, after?: string): () => T | typeof DONE {
  const { from, reverse = false, prefix } = options;
  let start: [number, number] | undefined;
  if (!reverse) {
    const first = prefix !== undefined && (from === undefined || from < prefix) ? prefix : from;
    start = first === undefined ? [0, 0] : firstWhere(s, (k) => k >= first);
  } else {
    // First position past the range: after every key <= from and every key in the prefix.
    start = before(
      s,
      firstWhere(
        s,
        (k) =>
          (from !== undefined && k > from) || (prefix !== undefined && k > prefix && !k.startsWith(prefix)),
      ),
    );
  }
  let done = start === undefined;
  let [ci, off] = start ?? [0, 0];
  // started after a key already visited: the first call seeks past it (as after a change)
  let seen = after === undefined ? s.version : -1;
  let lastKey: string | undefined = after;
  return () => {
    if (done) return DONE;
    if (seen !== s.version && lastKey !== undefined) {
      // The collection changed since the last call: seek again next to the last key given.
      const last = lastKey;
      seen = s.version;
      const pos = reverse
        ? before(
            s,
            firstWhere(s, (k) => k >= last),
          )
        : firstWhere(s, (k) => k > last);
      if (pos === undefined) {
        done = true;
        return DONE;
      }
      [ci, off] = pos;
    }
    const chunk = s.chunks[ci];
    const entry = chunk?.[off];
    if (
      chunk === undefined ||
      entry === undefined ||
      (prefix !== undefined && !entry.key.startsWith(prefix))
    ) {
      done = true;
      return DONE;
    }
    lastKey = entry.key;
    if (!reverse) {
      off++;
      if (off >= chunk.length) {
        ci++;
        off = 0;
      }
    } else if (off > 0) off--;
    else if (ci > 0) {
      ci--;
      off = (s.chunks[ci] as Entry<T>[]).length - 1;
    } else done = true;
    return entry.record.value;
  };
}

function* iterate<T>(s: Chunks<T>, options: IterateOptions): Generator<T, undefined, undefined> {
  const next = cursor(s, options);
  for (let value = next(); value !== DONE; value = next()) yield value;
  return undefined;
}

function scan<T>(s: Chunks<T>, options: IterateOptions, visit: Visit<T>): void {
  const { reverse = false, prefix } = options;
  if (reverse) {
    const next = cursor(s, options);
    for (let value = next(); value !== DONE; value = next()) if (!visit(value)) return;
    return;
  }
  // Forwards, the usual page: a plain loop over each chunk while nothing changes; a visit that
  // changes the collection hands over to a cursor that seeks again after the last key visited.
  const start =
    prefix !== undefined && (options.from === undefined || options.from < prefix) ? prefix : options.from;
  let [ci, off] = start === undefined ? [0, 0] : firstWhere(s, (k) => k >= start);
  const seen = s.version;
  for (; ci < s.chunks.length; ci++, off = 0) {
    const chunk = s.chunks[ci] as Entry<T>[];
    // keys in the prefix are contiguous: when the chunk's last key has it, so has every key from here
    const check = prefix !== undefined && !(s.maxes[ci] as string).startsWith(prefix);
    for (; off < chunk.length; off++) {
      const entry = chunk[off] as Entry<T>;
      if (check && !entry.key.startsWith(prefix)) return;
      if (!visit(entry.record.value)) return;
      if (s.version !== seen) {
        const next = cursor(s, { ...options, from: entry.key }, entry.key);
        for (let value = next(); value !== DONE; value = next()) if (!visit(value)) return;
        return;
      }
    }
  }
}

/** Creates an empty sorted structure of chunks of at most `chunkSize` entries. @internal */
export function createSorted<T>(chunkSize: number): Sorted<T> {
  const s: Chunks<T> = { chunks: [], maxes: [], version: 0 };
  return {
    insert(entry) {
      s.version++;
      if (s.chunks.length === 0) {
        s.chunks = [[entry]];
        s.maxes = [entry.key];
        return;
      }
      let [ci, off] = firstWhere(s, (k) => k >= entry.key);
      if (ci === s.chunks.length) {
        ci = s.chunks.length - 1;
        off = (s.chunks[ci] as Entry<T>[]).length;
      }
      const chunk = s.chunks[ci] as Entry<T>[];
      chunk.splice(off, 0, entry);
      s.maxes[ci] = (chunk[chunk.length - 1] as Entry<T>).key;
      if (chunk.length > chunkSize) {
        const tail = chunk.splice(chunk.length >>> 1);
        s.chunks.splice(ci + 1, 0, tail);
        s.maxes.splice(
          ci,
          1,
          (chunk[chunk.length - 1] as Entry<T>).key,
          (tail[tail.length - 1] as Entry<T>).key,
        );
      }
    },
    remove(key) {
      const [ci, off] = firstWhere(s, (k) => k >= key);
      const chunk = s.chunks[ci];
      if (chunk === undefined || chunk[off]?.key !== key) return;
      s.version++;
      chunk.splice(off, 1);
      if (chunk.length === 0) {
        s.chunks.splice(ci, 1);
        s.maxes.splice(ci, 1);
      } else {
        s.maxes[ci] = (chunk[chunk.length - 1] as Entry<T>).key;
      }
    },
    clear() {
      s.chunks = [];
      s.maxes = [];
      s.version++;
    },
    build(entries) {
      s.version++;
      let ordered = true;
      for (let i = 1; i < entries.length && ordered; i++) {
        ordered = (entries[i - 1] as Entry<T>).key < (entries[i] as Entry<T>).key;
      }
      if (!ordered) entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      // Chunks half full, so that the next inserts do not split them at once.
      const size = Math.max(1, chunkSize >>> 1);
      s.chunks = [];
      s.maxes = [];
      for (let i = 0; i < entries.length; i += size) {
        const chunk = entries.slice(i, i + size);
        s.chunks.push(chunk);
        s.maxes.push((chunk[chunk.length - 1] as Entry<T>).key);
      }
    },
    iterate: (options) => iterate(s, options),
    scan: (options, visit) => scan(s, options, visit),
  };
}
