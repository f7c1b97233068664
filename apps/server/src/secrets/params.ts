/**
 * Decoders of request parameters. The secrets service's real clients send JSON types or, from a
 * command line of `key=value` pairs, strings; each decoder accepts a value of its type or the
 * string spelling of it (`"true"`, `"90"`, `"90s"`, `"a,b"`) and refuses anything else with a 400
 * that names the parameter and quotes the value.
 */
import { isIP } from 'node:net';

import { MAX_TIMER_MS, parseGoBool, parseSecondsOrDuration } from '@sked/model';

import { badRequest } from '../http/errors.js';

/** A 400 naming the parameter. */
function invalid(name: string, expected: string, value: unknown): Error {
  const shown = JSON.stringify(value) ?? String(value);
  const quoted = shown.length > 80 ? `${shown.slice(0, 77)}...` : shown;
  return badRequest(`invalid value for "${name}": expected ${expected}, got ${quoted}`);
}

/**
 * A boolean: `true`/`false`, or the strings Go's `strconv.ParseBool` accepts (`"1"`, `"t"`, `"TRUE"`, ...).
 * @param name - Parameter name (for the message).
 * @param value - The raw value.
 * @returns The boolean.
 * @throws 400 naming the parameter.
 */
export function decodeBool(name: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  const parsed = typeof value === 'string' ? parseGoBool(value) : undefined;
  if (parsed === undefined) throw invalid(name, 'a boolean', value);
  return parsed;
}

/**
 * A string.
 * @param name - Parameter name.
 * @param value - The raw value.
 * @param maxLength - Longest accepted length.
 * @returns The string.
 * @throws 400 naming the parameter.
 */
export function decodeString(name: string, value: unknown, maxLength = 65_536): string {
  if (typeof value !== 'string') throw invalid(name, 'a string', value);
  if (value.length > maxLength) throw badRequest(`"${name}" is longer than ${maxLength} characters`);
  return value;
}

/**
 * A non-negative integer (a JSON number or a string of digits).
 * @param name - Parameter name.
 * @param value - The raw value.
 * @returns The integer.
 * @throws 400 naming the parameter.
 */
export function decodeCount(name: string, value: unknown): number {
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
    throw invalid(name, 'a non-negative integer', value);
  }
  return n;
}

/** The longest a duration may be, and why (for the 400). */
export interface DurationLimit {
  /** Longest accepted, in seconds. */
  readonly seconds: number;
  /** What the limit is, for the message. */
  readonly reason: string;
}

/** Durations kept as numbers (token lifetimes): 100 years. */
export const STORED_DURATION: DurationLimit = { seconds: 100 * 365 * 86_400, reason: '100 years' };

/**
 * Durations a timer waits for (`request_timeout`): what a Node timer holds, 2^31-1 ms (a longer
 * delay fires at once), in whole seconds.
 */
export const TIMER_DURATION: DurationLimit = {
  seconds: Math.floor(MAX_TIMER_MS / 1000),
  reason: 'the longest a timer can wait, 2^31-1 ms',
};

const DURATION_EXPECTED = 'a duration (seconds, or a string such as "90s" or "1h")';

/** Seconds of a duration value (fractions dropped), or undefined when it is not one (no limit applied). */
function durationSeconds(value: unknown): number | undefined {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) return undefined;
  if (typeof value !== 'number' && typeof value !== 'string') return undefined;
  const parsed = parseSecondsOrDuration(value);
  return parsed.ok && parsed.ns >= 0 ? Math.floor(parsed.ns / 1e9 + 1e-9) : undefined;
}

/**
 * A duration in whole seconds, read as the secrets service reads it (`parseSecondsOrDuration` of
 * `@sked/model`): a non-negative integer of seconds, a string of digits, `"<n>d"` days, or a Go
 * duration string (`"90s"`, `"1h30m"`, `"1.5h"`, `"72h"`). Fractions of a second are dropped. The one helper of every duration parameter of the listener.
 * @param name - Parameter name.
 * @param value - The raw value.
 * @param limit - The longest accepted ({@link TIMER_DURATION} for what a timer waits for).
 * @returns Seconds.
 * @throws 400 naming the parameter, or naming it and the limit for a longer duration.
 */
export function decodeDuration(name: string, value: unknown, limit: DurationLimit = STORED_DURATION): number {
  const seconds = durationSeconds(value);
  if (seconds === undefined) throw invalid(name, DURATION_EXPECTED, value);
  if (seconds > limit.seconds) {
    throw badRequest(
      `invalid value for "${name}": at most ${limit.seconds} seconds (${limit.reason}), got ${JSON.stringify(value)}`,
    );
  }
  return seconds;
}

/**
 * A list of strings: a JSON array of strings or one comma-separated string. Items are trimmed;
 * empty items are dropped; duplicates are removed (first one kept).
 * @param name - Parameter name.
 * @param value - The raw value.
 * @returns The items.
 * @throws 400 naming the parameter.
 */
export function decodeList(name: string, value: unknown): string[] {
  let items: string[];
  if (typeof value === 'string') items = value.split(',');
  else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) items = value as string[];
  else throw invalid(name, 'a list of strings or a comma-separated string', value);
  if (items.length > 10_000) throw badRequest(`"${name}" has more than 10000 items`);
  const out: string[] = [];
  for (const raw of items) {
    const item = raw.trim();
    if (item === '' || out.includes(item)) continue;
    if (item.length > 1024) throw badRequest(`an item of "${name}" is longer than 1024 characters`);
    if (/[\p{Cc}]/u.test(item)) throw invalid(name, 'names without control characters', item);
    out.push(item);
  }
  return out;
}

/**
 * Drops the comma-list parameters sent as JSON `null`: the real service treats `null` as absent for
 * its list fields (policies, groups, `token_policies`, `token_bound_cidrs`), so a write behaves as if
 * they were not sent.
 * @param params - The body's parameters.
 * @param lists - Names of the list parameters of the endpoint.
 * @returns The parameters without the `null` lists (a new null-prototype record).
 */
export function withoutNullLists(
  params: Record<string, unknown>,
  lists: readonly string[],
): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(params)) {
    if (value === null && lists.includes(name)) continue;
    out[name] = value;
  }
  return out;
}

/**
 * One of a fixed set of strings.
 * @param name - Parameter name.
 * @param value - The raw value.
 * @param allowed - The accepted values.
 * @returns The value.
 * @throws 400 naming the parameter and the accepted values.
 */
export function decodeEnum<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw invalid(name, `one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`, value);
}

/**
 * A list of CIDR blocks (a bare IP address counts as a /32 or /128).
 * @param name - Parameter name.
 * @param value - The raw value (list or comma-separated string).
 * @returns The blocks as given.
 * @throws 400 naming the parameter and the bad block.
 */
export function decodeCidrs(name: string, value: unknown): string[] {
  const items = decodeList(name, value);
  for (const item of items) {
    const [address = '', bits, ...rest] = item.split('/');
    const family = isIP(address);
    const max = family === 6 ? 128 : 32;
    const ok =
      family !== 0 &&
      rest.length === 0 &&
      (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max));
    if (!ok) throw invalid(name, 'CIDR blocks such as "10.0.0.0/8"', item);
  }
  return items;
}

/**
 * The request body as an object of parameters; refuses a non-object and names unknown parameters.
 * @param body - The parsed JSON body (undefined when empty).
 * @param known - The parameters the endpoint accepts.
 * @returns The body as a record.
 * @throws 400 for a body that is not an object, or for unknown parameters.
 */
export function bodyParameters(body: unknown, known: readonly string[]): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('the request body must be a JSON object of parameters');
  }
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    const list = unknown.slice(0, 10).map((k) => JSON.stringify(k.length > 60 ? `${k.slice(0, 57)}...` : k));
    throw badRequest(
      `unknown parameter${unknown.length > 1 ? 's' : ''} ${list.join(', ')}; this endpoint accepts ${known.join(', ')}`,
    );
  }
  return record;
}
