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

/**
 * Sends one request and returns the envelope (or undefined for a 204 or, with `missingIsUndefined`, a 404).
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
