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
