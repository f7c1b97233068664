import { MaxDispatchPayloadBytes } from '@sked/model';

import { badRequest } from '../errors.js';

/** Strict base64 (padded, the alphabet of RFC 4648 section 4): what a dispatch payload must be. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Decodes the base64 payload of a dispatch request, the one place its wire rules are checked
 * (the routes call it at the edge and pass the bytes inward): base64, and at most
 * `MaxDispatchPayloadBytes` (16384, `@sked/model`) once decoded.
 * @param text - The request's `Payload` (`""`: none).
 * @returns the decoded bytes (empty for none).
 * @throws {@link ClusterError} 400 `Payload must be base64-encoded` or
 *   `Payload exceeds maximum size; <n> > 16384`.
 */
export function decodeDispatchPayload(text: string): Buffer {
  if (text === '') return Buffer.alloc(0);
  if (!BASE64.test(text)) throw badRequest('Payload must be base64-encoded');
  const payload = Buffer.from(text, 'base64');
  if (payload.length > MaxDispatchPayloadBytes)
    throw badRequest(`Payload exceeds maximum size; ${payload.length} > ${MaxDispatchPayloadBytes}`);
  return payload;
}
