/** The query parameters of the scheduling service: flags, `wait`, the shared and the list ones. */
import { requireBoolean, requireInteger, requireString, requireWait } from '@sked/http';

import type { ListOptions, ReadOptions, RequestOptions } from '../options.js';
import { filterText, refuseFilterWith } from './filter.js';

/** A query-string value: `undefined` leaves the parameter out. */
export type QueryValue = string | number | boolean | undefined;

/** `true` becomes the flag, anything else leaves it out. */
export function flag(value: boolean | undefined, parameter: string): true | undefined {
  if (value === undefined) return undefined;
  return requireBoolean(value, parameter) ? true : undefined;
}

/** The query parameters every call shares (and, for reads, `stale`, `index` and `wait`). */
export function commonQuery(
  options: RequestOptions & Pick<ReadOptions, 'stale' | 'index' | 'wait'>,
): Record<string, QueryValue> {
  return {
    namespace: options.namespace === undefined ? undefined : requireString(options.namespace, 'namespace'),
    region: options.region === undefined ? undefined : requireString(options.region, 'region'),
    stale: flag(options.stale, 'stale'),
    index: options.index === undefined ? undefined : requireInteger(options.index, 'index'),
    wait: options.wait === undefined ? undefined : requireWait(options.wait),
  };
}

/**
 * The query parameters every list shares. `others` are the list's other filtering parameters,
 * which the service refuses together with `filter`.
 */
export function listQuery(
  options: ListOptions,
  prefix: string | undefined,
  others: Readonly<Record<string, string | undefined>> = {},
): Record<string, QueryValue> {
  const filter = filterText(options.filter);
  refuseFilterWith(filter, { prefix, ...others });
  return {
    ...commonQuery(options),
    prefix,
    filter,
    per_page: options.perPage === undefined ? undefined : requireInteger(options.perPage, 'perPage'),
    next_token: options.nextToken === undefined ? undefined : requireString(options.nextToken, 'nextToken'),
    reverse: flag(options.reverse, 'reverse'),
  };
}
