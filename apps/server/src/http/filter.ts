import { createFilterCache, type FilterCache } from '@sked/filter';
import { badRequest } from './errors.js';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A compiled `filter` that turns evaluation errors into the 400 answer of the service. */
export type ItemFilter = (item: unknown) => boolean;

const CACHE_SIZE = 256;
/** One bounded cache of compiled filters per schema (texts compiled against `Job` apart from the rest). */
const caches = new WeakMap<object, FilterCache>();

function cacheOf(schema: object): FilterCache {
  let cache = caches.get(schema);
  if (cache === undefined) {
    cache = createFilterCache({ schema, maxEntries: CACHE_SIZE });
    caches.set(schema, cache);
  }
  return cache;
}

/**
 * Compiles a `filter` expression in `@sked/filter`'s typed mode against the JSON Schema of the
 * items it filters (the model's `Job`, `Allocation`, `CsiVolume`), so it sees them as the
 * service's typed records: a `null` map or list is empty, a field the schema does not have is a
 * compile-time error with its position, an integer field compares as an integer. Compiled filters
 * are cached per schema and text.
 * @param text - The expression as given in the query string.
 * @param schema - The JSON Schema of the items.
 * @returns A predicate; it throws 400 `failed to read result page: <error>` when the expression
 * cannot be evaluated on an item.
 * @throws 400 `failed to read filter expression: <diagnostic>` when it does not parse or names a
 * field the items do not have.
 */
export function compileItemFilter(text: string, schema: object): ItemFilter {
  let compiled: (datum: unknown) => boolean;
  try {
    compiled = cacheOf(schema).compile(text);
  } catch (error) {
    throw badRequest(`failed to read filter expression: ${messageOf(error)}`);
  }
  return (item) => {
    try {
      return compiled(item);
    } catch (error) {
      throw badRequest(`failed to read result page: ${messageOf(error)}`);
    }
  };
}
