import { InvalidRequestError } from '../errors.js';

/** A full allocation ID: a UUID (the service compares it in lower case). */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const hexPrefixPattern = /^[0-9a-f-]*$/i;

/** Quotes a value for an error message: JSON for strings, a type name for the rest. */
export function quote(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  return `a value of type ${Array.isArray(value) ? 'array' : typeof value}`;
}

/**
 * Checks an identifier that goes into a URL path: a non-empty string that is not `.` or `..`
 * (URL parsers resolve those as path segments, so the request would reach another endpoint).
 */
export function requireId(value: unknown, parameter: string, what: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new InvalidRequestError(
      `${what} must be a non-empty string, but got ${quote(value)}.`,
      parameter,
      value,
    );
  }
  if (value === '.' || value === '..') {
    throw new InvalidRequestError(
      `${what} ${quote(value)} cannot be addressed in a URL path, because URLs resolve "." and ".." as relative segments.`,
      parameter,
      value,
    );
  }
  return value;
}

/** Checks a full allocation ID (the service rejects the 8-character short form). */
export function requireAllocId(value: unknown, parameter = 'allocId'): string {
  requireId(value, parameter, 'Allocation ID');
  const id = value as string;
  if (!uuidPattern.test(id)) {
    const hint =
      hexPrefixPattern.test(id) && id.length < 36
        ? ` To resolve a short ID, list allocations with { prefix: ${quote(id)} } and use the full ID.`
        : '';
    throw new InvalidRequestError(
      `Allocation ID ${quote(id)} is not a full allocation ID (a 36-character UUID); the service does not accept short or partial IDs in paths.${hint}`,
      parameter,
      value,
    );
  }
  return id;
}

/**
 * Checks an ID prefix of a UUID-keyed list: lowercase hexadecimal characters and hyphens, with an
 * even number of hexadecimal characters (the service decodes the prefix to bytes).
 */
export function requireHexPrefix(value: unknown, parameter: string): string {
  const text = requireString(value, parameter);
  if (!hexPrefixPattern.test(text) || text.length > 36) {
    throw new InvalidRequestError(
      `${parameter} ${quote(text)} is not a UUID prefix: it may hold only the characters 0-9, a-f and "-", at most 36 of them.`,
      parameter,
      value,
    );
  }
  if (text.replaceAll('-', '').length % 2 !== 0) {
    throw new InvalidRequestError(
      `${parameter} ${quote(text)} has an odd number of hexadecimal characters; hex prefixes must have an even number of characters (0-9a-f) because the service decodes them to bytes.`,
      parameter,
      value,
    );
  }
  return text;
}

/** Checks a string parameter (possibly empty). */
export function requireString(value: unknown, parameter: string): string {
  if (typeof value !== 'string') {
    throw new InvalidRequestError(
      `${parameter} must be a string, but got ${quote(value)}.`,
      parameter,
      value,
    );
  }
  return value;
}

/** Checks a non-empty string parameter. */
export function requireNonEmpty(value: unknown, parameter: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new InvalidRequestError(
      `${parameter} must be a non-empty string, but got ${quote(value)}.`,
      parameter,
      value,
    );
  }
  return value;
}

/** Checks a safe integer of at least `min` (and at most `max` when given). */
export function requireInteger(value: unknown, parameter: string, min = 0, max?: number): number {
  if (
    typeof value !== 'number' ||
    !Number.isSafeInteger(value) ||
    value < min ||
    (max !== undefined && value > max)
  ) {
    const range = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new InvalidRequestError(
      `${parameter} must be an integer ${range}, but got ${quote(value)}.`,
      parameter,
      value,
    );
  }
  return value;
}

/** Checks a boolean parameter. */
export function requireBoolean(value: unknown, parameter: string): boolean {
  if (typeof value !== 'boolean') {
    throw new InvalidRequestError(
      `${parameter} must be true or false, but got ${quote(value)}.`,
      parameter,
      value,
    );
  }
  return value;
}

/** Checks a map of string to string. */
export function requireStringMap(value: unknown, parameter: string): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidRequestError(
      `${parameter} must be an object mapping strings to strings, but got ${quote(value)}.`,
      parameter,
      value,
    );
  }
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry !== 'string') {
      throw new InvalidRequestError(
        `${parameter}[${JSON.stringify(key)}] must be a string, but got ${quote(entry)}.`,
        parameter,
        value,
      );
    }
  }
  return value as Record<string, string>;
}

/** Checks that a value is a plain object (a JSON body such as a job). */
export function requireObject(value: unknown, parameter: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidRequestError(
      `${parameter} must be an object, but got ${quote(value)}.`,
      parameter,
      value,
    );
  }
  return value as Record<string, unknown>;
}
