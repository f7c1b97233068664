/** The secrets service's response envelope, read through the one request path of `@sked/http`. */
import { ApiError, isObject, send, type CallOptions, type Expect, type Transport } from '@sked/http';

/** The `data` (and `auth`, `warnings`) of the secrets service's response envelope. @internal */
export interface Envelope<D, A = null> {
  readonly data: D;
  readonly auth: A;
  readonly warnings: readonly string[] | null;
}

const ENVELOPE: Expect = {
  what: 'a JSON object (the response envelope)',
  ok: (data) => data === undefined || isObject(data),
};

/**
 * Sends one request and returns the envelope (undefined for a 204 or, with `missingIsUndefined`, a 404).
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
    const { data } = await send<Envelope<D, A> | undefined>(
      transport,
      { method, path, body: extra.body, expect: ENVELOPE },
      options,
    );
    return data;
  } catch (error) {
    if (extra.missingIsUndefined === true && ApiError.is(error) && error.status === 404) return undefined;
    throw error;
  }
}
