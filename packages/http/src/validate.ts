/**
 * The one argument validator of the sked clients: every check takes `(value, parameter)` and
 * throws an {@link InvalidRequestError} naming the parameter, with the value quoted by {@link quote}.
 */
import { formatWait, parseWait } from '@sked/query';

import { InvalidRequestError } from './invalid-request.js';

/**
 * Quotes a value for an error message: JSON for strings (cut at 80 characters), the value of a
 * number, boolean, bigint, `null` or `undefined`, and a type name for the rest.
 * @param value - Anything.
 * @returns The text to put in a message.
 * @since 0.2.0
 */
export function quote(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  return `a value of type ${Array.isArray(value) ? 'array' : typeof value}`;
}

/**
 * Whether a value is a JSON object (not `null`, not an array).
 * @since 0.2.0
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refuse(message: string, parameter: string, value: unknown): never {
  throw new InvalidRequestError(message, parameter, value);
}

/**
 * Checks a string (possibly empty).
 * @since 0.2.0
 */
export function requireString(value: unknown, parameter: string): string {
  if (typeof value !== 'string')
    refuse(`${parameter} must be a string, but got ${quote(value)}.`, parameter, value);
  return value;
}

/**
 * Checks a non-empty string.
 * @since 0.2.0
 */
export function requireNonEmpty(value: unknown, parameter: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    refuse(`${parameter} must be a non-empty string, but got ${quote(value)}.`, parameter, value);
  }
  return value;
}

/**
 * Checks a safe integer of at least `min` (and at most `max` when given).
 * @since 0.2.0
 */
export function requireInteger(value: unknown, parameter: string, min = 0, max?: number): number {
  if (
    typeof value !== 'number' ||
    !Number.isSafeInteger(value) ||
    value < min ||
    (max !== undefined && value > max)
  ) {
    const range = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
    refuse(`${parameter} must be an integer ${range}, but got ${quote(value)}.`, parameter, value);
  }
  return value;
}

/**
 * Checks a boolean.
 * @since 0.2.0
 */
export function requireBoolean(value: unknown, parameter: string): boolean {
  if (typeof value !== 'boolean') {
    refuse(`${parameter} must be true or false, but got ${quote(value)}.`, parameter, value);
  }
  return value;
}

/**
 * Checks a plain object (a JSON body).
 * @since 0.2.0
 */
export function requireObject(value: unknown, parameter: string): Record<string, unknown> {
  if (!isObject(value)) refuse(`${parameter} must be an object, but got ${quote(value)}.`, parameter, value);
  return value;
}

/**
 * Checks a map of string to string.
 * @since 0.2.0
 */
export function requireStringMap(value: unknown, parameter: string): Record<string, string> {
  const map = isObject(value)
    ? value
    : refuse(
        `${parameter} must be an object mapping strings to strings, but got ${quote(value)}.`,
        parameter,
        value,
      );
  for (const key of Object.keys(map)) {
    const entry = map[key];
    if (typeof entry !== 'string') {
      refuse(
        `${parameter}[${JSON.stringify(key)}] must be a string, but got ${quote(entry)}.`,
        parameter,
        value,
      );
    }
  }
  return map as Record<string, string>;
}

/**
 * Checks the `wait` of a blocking query and turns it into the duration the services read: a
 * duration string (`"30s"`, `"5m"`, `"1h30m"`) or a non-negative number of milliseconds.
 * @since 0.2.0
 */
export function requireWait(value: unknown, parameter = 'wait'): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) {
      refuse(
        `${parameter} must be a duration string or a non-negative number of milliseconds, but got ${quote(value)}.`,
        parameter,
        value,
      );
    }
    return formatWait(value);
  }
  if (typeof value !== 'string' || !parseWait(value).ok) {
    refuse(
      `Invalid wait time ${quote(value)}: use a duration such as "30s", "5m" or "1h30m", or milliseconds.`,
      parameter,
      value,
    );
  }
  return value;
}
