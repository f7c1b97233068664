import { compileFilter, type FilterPredicate } from './compile.js';
import { FilterSyntaxError } from './errors.js';
import type { CompileOptions } from './options.js';

/**
 * Options of {@link createFilterCache}: the compile options every entry shares, and a size.
 * @since 0.2.0
 */
export interface FilterCacheOptions extends CompileOptions {
  /**
   * Most filter texts kept; the least recently used one goes first.
   * @defaultValue 256
   */
  readonly maxEntries?: number;
}

/**
 * A bounded cache of compiled filters for one set of options (typically one schema).
 * @since 0.2.0
 */
export interface FilterCache {
  /**
   * The compiled predicate of `text` (compiled on first use). A text that does not compile throws
   * the same {@link FilterSyntaxError} every time, without parsing it again.
   */
  compile(text: string): FilterPredicate;
  /** Number of texts held. */
  readonly size: number;
  /** Forgets every entry. */
  clear(): void;
}

/**
 * Creates a cache of compiled filters per text, for servers that see the same filters again and
 * again. One cache per option set: a server filtering jobs and allocations in typed mode keeps one
 * cache per schema.
 *
 * @param options - Compile options shared by every entry (for example `{ schema: Job }`), and `maxEntries`.
 * @returns The cache.
 * @throws RangeError when `maxEntries` is not a positive integer.
 * @example
 * ```ts
 * const jobFilters = createFilterCache({ schema: JobSchema, maxEntries: 500 });
 * jobFilters.compile('Meta.team == "data"')(job); // compiled once, then reused
 * ```
 * @since 0.2.0
 */
export function createFilterCache(options: FilterCacheOptions = {}): FilterCache {
  const { maxEntries = 256, ...compileOptions } = options;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError(`maxEntries must be a positive integer but is ${String(maxEntries)}.`);
  }
  const entries = new Map<string, FilterPredicate | FilterSyntaxError>();
  // The most recently used text: a server asking for the same filter again and again (a polled
  // list) finds it without moving it in the map.
  let newest: string | undefined;
  return {
    compile(text: string): FilterPredicate {
      if (typeof text !== 'string')
        throw new TypeError(`A filter cache compiles text but got ${typeof text}.`);
      let entry = entries.get(text);
      if (entry === undefined) {
        try {
          entry = compileFilter(text, compileOptions);
        } catch (e) {
          if (!FilterSyntaxError.is(e)) throw e;
          entry = e;
        }
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(text, entry);
        newest = text;
      } else if (text !== newest) {
        entries.delete(text); // moved to the most recently used end
        entries.set(text, entry);
        newest = text;
      }
      if (typeof entry !== 'function') throw entry;
      return entry;
    },
    get size() {
      return entries.size;
    },
    clear() {
      entries.clear();
      newest = undefined;
    },
  };
}
