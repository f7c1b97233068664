/** The identifiers of the scheduling service: IDs in paths, allocation IDs and their prefixes. */
import { quote, requireString } from '@sked/http';

import { InvalidRequestError } from '../errors.js';

/** A full allocation ID: a UUID (the service compares it in lower case). */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const hexPrefixPattern = /^[0-9a-f-]*$/i;

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
