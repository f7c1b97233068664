/** The names, lists and mount paths of the LDAP auth method. */
import { InvalidRequestError } from '../errors.js';

/**
 * Checks the name of a group, a user or a login username.
 * @param value - The value.
 * @param parameter - What the caller called it.
 * @returns The name.
 * @throws {@link InvalidRequestError} for a non-string, empty, too long or control-character name.
 * @internal
 */
export function requireName(value: unknown, parameter: string): string {
  if (typeof value !== 'string') {
    throw new InvalidRequestError(`${parameter} must be a string, not ${typeof value}.`, parameter);
  }
  if (value.trim() === '') throw new InvalidRequestError(`${parameter} must not be empty.`, parameter);
  if (value.length > 1024) {
    throw new InvalidRequestError(`${parameter} is longer than 1024 characters.`, parameter);
  }
  if (/\p{Cc}/u.test(value)) {
    throw new InvalidRequestError(
      `${parameter} ${JSON.stringify(value)} contains control characters.`,
      parameter,
    );
  }
  return value;
}

/**
 * Checks a list of names given as an array or a comma-separated string, and joins it.
 * @param value - Array of strings, comma-separated string, or undefined.
 * @param parameter - What the caller called it.
 * @returns The comma-separated string the service takes, or undefined.
 * @throws {@link InvalidRequestError} for any other type or an item with a comma or control character.
 * @internal
 */
export function joinList(value: unknown, parameter: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    if (/\p{Cc}/u.test(value))
      throw new InvalidRequestError(`${parameter} contains control characters.`, parameter);
    return value;
  }
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw new InvalidRequestError(
      `${parameter} must be an array of strings or a comma-separated string.`,
      parameter,
    );
  }
  for (const item of value as string[]) {
    if (item.includes(',') || /\p{Cc}/u.test(item)) {
      throw new InvalidRequestError(
        `${parameter} item ${JSON.stringify(item)} must not contain a comma or control characters.`,
        parameter,
      );
    }
  }
  return (value as string[]).join(',');
}

/**
 * The mount path (`auth/<name>`) of a mount name.
 * @param value - `ldap`, `auth/ldap`, `teams/ldap`.
 * @returns `auth/<name>`.
 * @throws {@link InvalidRequestError} for anything that is not a path of safe segments.
 * @internal
 */
export function mountPath(value: unknown): string {
  if (typeof value !== 'string') throw new InvalidRequestError('mount must be a string.', 'mount');
  const name = value.replace(/^\/+|\/+$/g, '').replace(/^auth\//, '');
  if (
    !/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/.test(name) ||
    name.split('/').some((s) => s === '.' || s === '..')
  ) {
    throw new InvalidRequestError(
      `mount ${JSON.stringify(value)} must be a path of letters, digits, "-", "_", "." and "/".`,
      'mount',
    );
  }
  return `auth/${name}`;
}
