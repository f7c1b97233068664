import type { Transport } from '@sked/http';
import { formatWait, paginate, paginateItems, parseWait, watch, type PageCursor } from '@sked/query';

import type { ListEndpoint, ReadEndpoint } from '../endpoints.js';
import { InvalidRequestError } from '../errors.js';
import type { ListOptions, ReadOptions, RequestOptions, Result, WatchOptions } from '../options.js';
import { filterText, refuseFilterWith } from './filter.js';
import { quote, requireBoolean, requireInteger, requireString } from './validate.js';

/** A query-string value: `undefined` leaves the parameter out. */
export type QueryValue = string | number | boolean | undefined;

/** What one endpoint call sends. */
export interface RequestSpec {
  readonly method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  readonly path: string;
  readonly query?: Readonly<Record<string, QueryValue>>;
  readonly body?: unknown;
}

/** Builds a path from literal parts and encoded segments. */
export function path(strings: TemplateStringsArray, ...segments: string[]): string {
  let out = strings[0] ?? '';
  segments.forEach((segment, i) => {
    out += encodeURIComponent(segment) + (strings[i + 1] ?? '');
  });
  return out;
}

/** Drops undefined values and turns the rest into strings. */
export function compactQuery(query: Readonly<Record<string, QueryValue>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) out[key] = String(value);
  }
  return out;
}

/** `true` becomes the flag, anything else leaves it out. */
export function flag(value: boolean | undefined, parameter: string): true | undefined {
  if (value === undefined) return undefined;
  return requireBoolean(value, parameter) ? true : undefined;
}

/** Checks a `wait` and turns it into the duration string the service reads. */
export function waitText(wait: unknown): string {
  if (typeof wait === 'number') {
    if (!Number.isFinite(wait) || wait < 0) {
      throw new InvalidRequestError(
        `wait must be a duration string or a non-negative number of milliseconds, but got ${quote(wait)}.`,
        'wait',
        wait,
      );
    }
    return formatWait(wait);
  }
  if (typeof wait !== 'string' || !parseWait(wait).ok) {
    throw new InvalidRequestError(
      `Invalid wait time ${quote(wait)}: use a duration such as "30s", "5m" or "1h30m", or milliseconds.`,
      'wait',
      wait,
    );
  }
  return wait;
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
    wait: options.wait === undefined ? undefined : waitText(options.wait),
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

/** Sends one request. */
export function send<T>(
  transport: Transport,
  spec: RequestSpec,
  options: RequestOptions,
): Promise<Result<T>> {
  return transport.request<T>({
    method: spec.method,
    path: spec.path,
    query: compactQuery(spec.query ?? {}),
    ...(spec.body === undefined ? {} : { body: spec.body }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
  });
}

/** The blocking-query loop of one read. */
export function watchSpec<T>(
  transport: Transport,
  spec: RequestSpec,
  options: ReadOptions & WatchOptions,
): AsyncIterable<Result<T>> {
  const { signal, ...rest } = options;
  return watch<object, Result<T>>(
    (cursor, inner) =>
      send<T>(
        transport,
        { ...spec, query: { ...spec.query, index: cursor.index, wait: cursor.wait } },
        { ...options, signal: inner },
      ),
    {},
    { ...rest, signal },
  );
}

function pageFetcher<T>(
  transport: Transport,
  spec: RequestSpec,
  options: ListOptions,
): (cursor: PageCursor, signal: AbortSignal) => Promise<Result<T[]>> {
  return (cursor, signal) =>
    send<T[]>(
      transport,
      { ...spec, query: { ...spec.query, next_token: cursor.nextToken, per_page: cursor.perPage } },
      { ...options, signal },
    );
}

function firstCursor(options: ListOptions): PageCursor {
  return {
    ...(options.nextToken === undefined ? {} : { nextToken: options.nextToken }),
    ...(options.perPage === undefined ? {} : { perPage: options.perPage }),
  };
}

/** The pages of one list. */
export function pagesSpec<T>(
  transport: Transport,
  spec: RequestSpec,
  options: ListOptions,
): AsyncIterable<Result<T[]>> {
  return paginate<PageCursor, Result<T[]>>(pageFetcher<T>(transport, spec, options), firstCursor(options), {
    signal: options.signal,
  });
}

/** The items of one list, page after page. */
export function itemsSpec<T>(
  transport: Transport,
  spec: RequestSpec,
  options: ListOptions,
): AsyncIterable<T> {
  return paginateItems<PageCursor, T>(pageFetcher<T>(transport, spec, options), firstCursor(options), {
    signal: options.signal,
  });
}

/**
 * Defers building an iterable to its first `next()`, so that a refused parameter rejects the
 * iteration like a failed request does. `return()` goes straight to the inner iterator, so a
 * `break` (even while a `next()` is pending) still aborts the request in flight.
 */
export function lazy<T>(make: () => AsyncIterable<T>): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      let inner: AsyncIterator<T> | undefined;
      let failed = false;
      return {
        next(): Promise<IteratorResult<T>> {
          if (failed) return Promise.resolve({ done: true, value: undefined });
          if (inner === undefined) {
            try {
              inner = make()[Symbol.asyncIterator]();
            } catch (error) {
              failed = true;
              return Promise.reject(error);
            }
          }
          return inner.next();
        },
        return(): Promise<IteratorResult<T>> {
          failed = true;
          if (inner?.return !== undefined) return inner.return();
          return Promise.resolve({ done: true, value: undefined });
        },
      };
    },
  };
}

/** Runs a call, turning a synchronous throw (a refused parameter) into a rejected promise. */
export function attempt<T>(run: () => Promise<T>): Promise<T> {
  try {
    return run();
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Builds a list endpoint: the call, `pages`, `items` and `watch`. */
export function listEndpoint<O extends ListOptions, T>(
  transport: Transport,
  build: (options: O) => RequestSpec,
): ListEndpoint<O, T> {
  const none = {} as O;
  return Object.assign(
    (options: O = none): Promise<Result<T[]>> => attempt(() => send<T[]>(transport, build(options), options)),
    {
      pages: (options: O = none): AsyncIterable<Result<T[]>> =>
        lazy(() => pagesSpec<T>(transport, build(options), options)),
      items: (options: O = none): AsyncIterable<T> =>
        lazy(() => itemsSpec<T>(transport, build(options), options)),
      watch: (options: O & WatchOptions = none as O & WatchOptions): AsyncIterable<Result<T[]>> =>
        lazy(() => watchSpec<T[]>(transport, build(options), options)),
    },
  );
}

/** Builds a blocking read of one resource by ID: the call and `watch`. */
export function readEndpoint<O extends ReadOptions, T>(
  transport: Transport,
  checkId: (id: unknown) => string,
  build: (id: string, options: O) => RequestSpec,
): ReadEndpoint<O, T> {
  const none = {} as O;
  return Object.assign(
    (id: string, options: O = none): Promise<Result<T>> =>
      attempt(() => send<T>(transport, build(checkId(id), options), options)),
    {
      watch: (id: string, options: O & WatchOptions = none as O & WatchOptions): AsyncIterable<Result<T>> =>
        lazy(() => watchSpec<T>(transport, build(checkId(id), options), options)),
    },
  );
}
