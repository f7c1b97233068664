/**
 * The one request path of the sked clients: an endpoint is a {@link EndpointSpec} (method, path,
 * query, body, what a 2xx answer must be) built from the caller's arguments, sent by {@link send}.
 * Builders make the calls every client shares: a send, a read with `watch` (blocking queries), a
 * list with `pages`, `items` and `watch`. One behaviour for all of them: a refused argument
 * rejects (never a synchronous throw), a refused argument of an iteration rejects its first
 * `next()`, and `break` (even while a `next()` is pending) aborts the request in flight. A body
 * with a schema is checked here, once for every client, before anything is sent.
 */
import { formatProblems, pointerToDotted, validate, ValidationError } from '@sked/model';
import {
  paginate,
  paginateItems,
  watch,
  type PageCursor,
  type WatchOptions as QueryWatchOptions,
} from '@sked/query';

import { ApiError } from './errors.js';
import { InvalidRequestError } from './invalid-request.js';
import type { ApiResponse, Query, Transport } from './transport.js';

/**
 * Options every call of every client takes.
 * @since 0.2.0
 */
export interface CallOptions {
  /** Aborts the request; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
  /** Timeout of this request in milliseconds (`0`: none); defaults to the client's. */
  readonly timeout?: number | undefined;
  /** Headers of this request, over the client's. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * Retry and backoff options of `watch` (the signal is the call's own).
 * @since 0.2.0
 */
export type WatchOptions = Omit<QueryWatchOptions, 'signal'>;

/**
 * What a 2xx answer must be: `what` says it in a message (`a peering (an object with a Name)`).
 * @since 0.2.0
 */
export interface Expect {
  /** What the answer should be, for the error message (`a list of peerings`). */
  readonly what: string;
  /** Whether a decoded 2xx body is of that shape. */
  readonly ok: (data: unknown) => boolean;
}

/**
 * A schema of `@sked/model` that a request body must match (`JobRegisterRequest`, `LdapConfigRequest`, ...).
 * @since 0.2.0
 */
export type BodySchema = Parameters<typeof validate>[0];

/**
 * What one endpoint call sends.
 * @since 0.2.0
 */
export interface EndpointSpec {
  /** The HTTP method (`GET`, `POST`, `LIST`, ...). */
  readonly method: string;
  /** The path, with every name in it encoded (see {@link path}). */
  readonly path: string;
  /** Query parameters; an `undefined` value is left out. */
  readonly query?: Query | undefined;
  /** The request body, sent as JSON. @defaultValue none */
  readonly body?: unknown;
  /**
   * The model schema `body` must match, checked by {@link send} before anything is sent: a body that
   * does not match rejects with an `InvalidRequestError` whose `parameter` is the path of the first
   * problem (`Job.TaskGroups[0].Count`; `body` for the body itself) and whose `cause` is the model's
   * `ValidationError` with every problem. @defaultValue none (not checked)
   */
  readonly bodySchema?: BodySchema | undefined;
  /** What the body is, in words, for that error (`the job register body`). @defaultValue `the request body` */
  readonly bodyName?: string | undefined;
  /**
   * What the caller named the body (`config`): the error's `parameter` is then it followed by the
   * problem's path (`config.token_ttl`), or it alone for the body itself.
   * @defaultValue none: the path alone, `body` for the body itself
   */
  readonly bodyParameter?: string | undefined;
  /** What a 2xx answer must be; anything else rejects with an `ApiError` (status 200). */
  readonly expect?: Expect | undefined;
}

/**
 * Builds a path from literal parts and segments, each segment encoded.
 * @example `` path`/v1/job/${id}/versions` ``
 * @since 0.2.0
 */
export function path(strings: TemplateStringsArray, ...segments: string[]): string {
  let out = strings[0] ?? '';
  segments.forEach((segment, i) => {
    out += encodeURIComponent(segment) + (strings[i + 1] ?? '');
  });
  return out;
}

/** A short JSON preview of a value for a message. */
function preview(value: unknown): string {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? typeof value);
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}

/**
 * The error of a 2xx answer that is not what the endpoint answers (`null`, a list, a wrong shape).
 * @since 0.2.0
 */
export function unusableAnswer(
  method: string,
  url: string,
  what: string,
  value: unknown,
  meta?: ApiResponse<unknown>['meta'],
): ApiError {
  return new ApiError({
    status: 200,
    method,
    url,
    message: `The answer to ${method} ${url} is not ${what}: ${preview(value)}.`,
    body: value,
    ...(meta === undefined ? {} : { meta }),
  });
}

/** Problems listed in the message of a refused body (all of them are in its `cause`). */
const LISTED_PROBLEMS = 5;

/** Refuses a body that does not match its schema, naming the first problem's path. */
function checkBody(spec: EndpointSpec): void {
  if (spec.bodySchema === undefined) return;
  const result = validate(spec.bodySchema, spec.body);
  if (result.ok) return;
  const name = spec.bodyName ?? 'the request body';
  const first = result.problems[0]?.path ?? '';
  const owner = spec.bodyParameter;
  const dotted = first === '' ? '' : pointerToDotted(first);
  const parameter =
    first === ''
      ? (owner ?? 'body')
      : owner === undefined
        ? dotted
        : `${owner}${dotted.startsWith('[') ? '' : '.'}${dotted}`;
  const listed = formatProblems(result.problems.slice(0, LISTED_PROBLEMS)).split('\n').join('; ');
  const more =
    result.problems.length > LISTED_PROBLEMS ? ` (and ${result.problems.length - LISTED_PROBLEMS} more)` : '';
  throw new InvalidRequestError(
    `${name.charAt(0).toUpperCase()}${name.slice(1)} is not valid: ${listed}${more}.`,
    parameter,
    undefined, // the value may be a credential (a password, a token): the message describes it
    { cause: new ValidationError(name, result.problems) },
  );
}

/**
 * Sends one endpoint call and checks its answer against `spec.expect`; a body with a
 * `bodySchema` is checked first (nothing is sent when it does not match).
 * @since 0.2.0
 */
export async function send<T>(
  transport: Transport,
  spec: EndpointSpec,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  checkBody(spec);
  const result = await transport.request<T>({
    method: spec.method,
    path: spec.path,
    ...(spec.query === undefined ? {} : { query: spec.query }),
    ...(spec.body === undefined ? {} : { body: spec.body }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
  });
  if (spec.expect !== undefined && !spec.expect.ok(result.data)) {
    throw unusableAnswer(spec.method, spec.path, spec.expect.what, result.data, result.meta);
  }
  return result;
}

/**
 * Runs a call, turning a synchronous throw (a refused argument) into a rejected promise.
 * @since 0.2.0
 */
export function attempt<T>(run: () => Promise<T>): Promise<T> {
  try {
    return run();
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * Defers building an iterable to its first `next()`, so that a refused argument rejects the
 * iteration like a failed request does. `return()` goes straight to the inner iterator, so a
 * `break` (even while a `next()` is pending) still aborts the request in flight.
 * @since 0.2.0
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
              return Promise.reject(error instanceof Error ? error : new Error(String(error)));
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

/**
 * Follows one read with blocking queries (`index` and `wait` in the query): yields at once, then
 * each time the index moves. Lazy: a refused argument rejects the first `next()`.
 * @since 0.2.0
 */
export function follow<T>(
  transport: Transport,
  build: () => EndpointSpec,
  options: CallOptions & WatchOptions = {},
): AsyncIterable<ApiResponse<T>> {
  return lazy(() => {
    const spec = build();
    const { signal, headers, timeout, ...rest } = options;
    const call = { headers, timeout };
    return watch<object, ApiResponse<T>>(
      (cursor, inner) =>
        send<T>(
          transport,
          { ...spec, query: { ...spec.query, index: cursor.index, wait: cursor.wait } },
          { ...call, signal: inner },
        ),
      {},
      { ...rest, signal },
    );
  });
}

/** Paging options the list builders read. */
export interface PageOptions extends CallOptions {
  /** Items per page (`per_page`). @defaultValue the server's: all */
  readonly perPage?: number | undefined;
  /** Where to start (`next_token`), from a previous page's `meta.nextToken`. @defaultValue the start */
  readonly nextToken?: string | undefined;
}

function pageFetcher<T>(
  transport: Transport,
  spec: EndpointSpec,
  options: CallOptions,
): (cursor: PageCursor, signal: AbortSignal) => Promise<ApiResponse<T[]>> {
  const { headers, timeout } = options;
  return (cursor, signal) =>
    send<T[]>(
      transport,
      { ...spec, query: { ...spec.query, next_token: cursor.nextToken, per_page: cursor.perPage } },
      { headers, timeout, signal },
    );
}

function firstCursor(options: PageOptions): PageCursor {
  return {
    ...(options.nextToken === undefined ? {} : { nextToken: options.nextToken }),
    ...(options.perPage === undefined ? {} : { perPage: options.perPage }),
  };
}

/**
 * The pages of one list (`next_token`/`per_page`), from `nextToken` to the last. Lazy.
 * @since 0.2.0
 */
export function pages<T>(
  transport: Transport,
  build: () => EndpointSpec,
  options: PageOptions = {},
): AsyncIterable<ApiResponse<T[]>> {
  return lazy(() =>
    paginate<PageCursor, ApiResponse<T[]>>(
      pageFetcher<T>(transport, build(), options),
      firstCursor(options),
      {
        signal: options.signal,
      },
    ),
  );
}

/**
 * The items of one list, page after page. Lazy.
 * @since 0.2.0
 */
export function items<T>(
  transport: Transport,
  build: () => EndpointSpec,
  options: PageOptions = {},
): AsyncIterable<T> {
  return lazy(() =>
    paginateItems<PageCursor, T>(pageFetcher<T>(transport, build(), options), firstCursor(options), {
      signal: options.signal,
    }),
  );
}
