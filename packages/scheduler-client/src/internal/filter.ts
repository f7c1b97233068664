import { printFilter, type Expression } from '@sked/filter';
import { FilterConflictMessage } from '@sked/model';

import { InvalidRequestError } from '../errors.js';
import { quote } from '@sked/http';

/**
 * A filter as text, or as an expression built with `@sked/filter` (printed to text before it is
 * sent).
 */
export type FilterInput = string | Expression;

/** Turns a filter input into the text to send, or `undefined` for none. */
export function filterText(filter: FilterInput | undefined): string | undefined {
  if (filter === undefined) return undefined;
  if (typeof filter === 'string') return filter === '' ? undefined : filter;
  if (typeof filter !== 'object' || filter === null) {
    throw new InvalidRequestError(
      `filter must be a string or a filter expression built with @sked/filter, but got ${quote(filter)}.`,
      'filter',
      filter,
    );
  }
  return printFilter(filter);
}

/**
 * Refuses `filter` together with another filtering parameter, with the server's wording.
 * @param filter - The filter text, if any.
 * @param others - The other filtering parameters, by name.
 */
export function refuseFilterWith(
  filter: string | undefined,
  others: Readonly<Record<string, string | undefined>>,
): void {
  if (filter === undefined) return;
  for (const [name, value] of Object.entries(others)) {
    if (value !== undefined && value !== '') {
      throw new InvalidRequestError(FilterConflictMessage, name, value);
    }
  }
}
