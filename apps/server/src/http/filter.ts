import { compileFilter } from '@sked/filter';
import { badRequest } from './errors.js';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A compiled `filter` that turns evaluation errors into the 400 answer of the service. */
export type ItemFilter = (item: unknown) => boolean;

const CACHE_SIZE = 256;
const cache = new Map<string, (datum: unknown) => boolean>();

/**
 * Compiles a `filter` expression, caching compiled filters by their text.
 * @param text - The expression as given in the query string.
 * @returns A predicate; it throws 400 `failed to read result page: <error>` when the expression
 * cannot be evaluated on an item.
 * @throws 400 `failed to read filter expression: <diagnostic>` when it does not parse.
 */
export function compileItemFilter(text: string): ItemFilter {
  let predicate = cache.get(text);
  if (predicate === undefined) {
    try {
      predicate = compileFilter(text);
    } catch (error) {
      throw badRequest(`failed to read filter expression: ${messageOf(error)}`);
    }
    if (cache.size >= CACHE_SIZE) {
      const oldest = cache.keys().next();
      if (oldest.done !== true) cache.delete(oldest.value);
    }
    cache.set(text, predicate);
  }
  const compiled = predicate;
  return (item) => {
    try {
      return compiled(item);
    } catch (error) {
      throw badRequest(`failed to read result page: ${messageOf(error)}`);
    }
  };
}
