import { timingSafeEqual } from 'node:crypto';

/**
 * Whether a parsed JSON value is an object (not null, not an array).
 * @param value - Any value.
 * @returns Whether it is a record of fields.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Compares two secrets in a time that does not depend on where they differ.
 * @param a - One secret.
 * @param b - The other.
 * @returns Whether they are equal.
 */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Extracts the secret from `X-Svc-Token` (or another token header) or `Authorization: Bearer <secret>`.
 * @param headers - Request headers (lower-case names, as node gives them).
 * @param tokenHeader - Lower-case name of the service's token header (`x-mesh-token` for the mesh service).
 * @returns The secret, or undefined when neither header carries one.
 */
export function secretFromHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  tokenHeader = 'x-svc-token',
): string | undefined {
  const first = (value: string | string[] | undefined): string | undefined =>
    Array.isArray(value) ? value[0] : value;
  const direct = first(headers[tokenHeader])?.trim();
  if (direct !== undefined && direct !== '') return direct;
  const authorization = first(headers['authorization'])?.trim();
  if (authorization === undefined) return undefined;
  const match = /^bearer\s+(.+)$/i.exec(authorization);
  return match?.[1]?.trim();
}
