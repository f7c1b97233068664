import { ApiError, type Transport } from '@sked/http';

import type { CallOptions } from '../options.js';

/** The `data` (and `auth`, `warnings`) of the secrets service's response envelope. @internal */
export interface Envelope<D, A = null> {
  readonly data: D;
  readonly auth: A;
  readonly warnings: readonly string[] | null;
}

function callInit(options: CallOptions | undefined): { signal?: AbortSignal; timeout?: number } {
  return {
    ...(options?.signal === undefined ? {} : { signal: options.signal }),
    ...(options?.timeout === undefined ? {} : { timeout: options.timeout }),
  };
}

/** A short JSON preview of a value for a message. */
function preview(value: unknown): string {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? typeof value);
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}

/**
 * The error of a 2xx answer that is not what the endpoint answers (`null`, a list, a wrong shape).
 * @param method - The request's method.
 * @param path - The request's path.
 * @param what - What the answer should be (`"a JSON object (the response envelope)"`).
 * @param value - What it was.
 * @returns The error, with status 200.
 * @internal
 */
export function unusableAnswer(method: string, path: string, what: string, value: unknown): ApiError {
  return new ApiError({
    status: 200,
    method,
    url: path,
    message: `The answer to ${method} ${path} is not ${what}: ${preview(value)}.`,
    body: value,
  });
}

/**
 * Whether a value is a JSON object (not null, not an array).
 * @internal
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Sends one request and returns the envelope (or undefined for a 204 or, with `missingIsUndefined`, a 404).
 * @throws `ApiError` (status 200) for an answer that is not a JSON object: `null`, a list, a number.
 * @internal
 */
export async function call<D, A = null>(
  transport: Transport,
  method: string,
  path: string,
  options: CallOptions | undefined,
  extra: { body?: unknown; missingIsUndefined?: boolean } = {},
): Promise<Envelope<D, A> | undefined> {
  try {
    const { data } = await transport.request<Envelope<D, A> | undefined>({
      method,
      path,
      ...(extra.body === undefined ? {} : { body: extra.body }),
      ...callInit(options),
    });
    if (data !== undefined && !isObject(data)) {
      throw unusableAnswer(method, path, 'a JSON object (the response envelope)', data);
    }
    return data;
  } catch (error) {
    if (extra.missingIsUndefined === true && ApiError.is(error) && error.status === 404) return undefined;
    throw error;
  }
}

/**
 * Encodes one path segment (a name may hold any character but a control character).
 * @internal
 */
export function segment(name: string): string {
  return encodeURIComponent(name);
}
