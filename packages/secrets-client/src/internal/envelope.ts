/** The secrets service's response envelope, read through the one request path of `@sked/http`. */
import { isObject, send, type BodySchema, type Expect, type Transport } from '@sked/http';

import type { RequestOptions, SecretsMeta } from '../options.js';

/** The `data` (and `auth`, `warnings`) of the secrets service's response envelope. @internal */
export interface Envelope<D, A = null> {
  readonly data: D;
  readonly auth: A;
  readonly warnings?: readonly string[] | null;
  readonly request_id?: string;
}

const ENVELOPE: Expect = {
  what: 'a JSON object (the response envelope)',
  ok: (data) => data === undefined || isObject(data),
};

/**
 * The metadata of an answer: its headers' (`QueryMeta`) plus the envelope's warnings and request ID.
 * @internal
 */
export function metaOf(
  headers: Omit<SecretsMeta, 'warnings' | 'requestId'>,
  envelope: Envelope<unknown, unknown> | undefined,
): SecretsMeta {
  const warnings = Array.isArray(envelope?.warnings)
    ? envelope.warnings.filter((w): w is string => typeof w === 'string')
    : [];
  const requestId = envelope?.request_id;
  return {
    ...headers,
    warnings,
    ...(typeof requestId === 'string' && requestId !== '' ? { requestId } : {}),
  };
}

/** The model schema a request body must match, and the names of the body for a refusal. @internal */
export interface BodyCheck {
  readonly schema: BodySchema;
  /** In words (`the LDAP configuration`). */
  readonly name: string;
  /** As the caller named it (`config`). */
  readonly parameter: string;
}

/**
 * Sends one request: the envelope (undefined for a 204) and the metadata of the answer. A body with a
 * check is validated by `@sked/http`'s `send` before anything is sent.
 * @throws `InvalidRequestError` for a body that does not match its schema; `ApiError` (status 200) for
 *   an answer that is not a JSON object: `null`, a list, a number.
 * @internal
 */
export async function call<D, A = null>(
  transport: Transport,
  method: string,
  path: string,
  options: RequestOptions | undefined,
  body?: unknown,
  check?: BodyCheck,
): Promise<{ envelope: Envelope<D, A> | undefined; meta: SecretsMeta }> {
  const schema =
    check === undefined
      ? {}
      : { bodySchema: check.schema, bodyName: check.name, bodyParameter: check.parameter };
  const result = await send<Envelope<D, A> | undefined>(
    transport,
    { method, path, body, expect: ENVELOPE, ...schema },
    options,
  );
  return { envelope: result.data, meta: metaOf(result.meta, result.data) };
}
