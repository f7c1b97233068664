/**
 * Request parameters of the secrets listener, validated in one place: each parameter is a TypeBox
 * schema (the JSON types it accepts, plus refinements for what a keyword cannot say: Go's boolean
 * spellings, durations, list items, CIDR blocks, ...), an endpoint's parameters one object schema,
 * checked by `validate()` of `@sked/model`. The service's real clients send JSON types or, from a
 * command line of `key=value` pairs, strings, so a parameter accepts a value of its type or the
 * string spelling of it (`"true"`, `"90"`, `"90s"`, `"a,b"`).
 *
 * A refused body is one 400 naming the first bad or unknown parameter, in the service's words (its
 * clients compare them): the schema decides, and the failing parameter's own definition words the
 * answer (`invalid value for "<name>": expected <what>, got <value>` for a value of another type,
 * else the message of the first refinement it fails).
 */
import { isIP } from 'node:net';

import {
  formatProblems,
  matches,
  MAX_TIMER_MS,
  parseGoBool,
  parseSecondsOrDuration,
  validate,
} from '@sked/model';
import Type, { type Static, type TSchema } from 'typebox';

import { badRequest } from '../http/errors.js';

/** A check a schema keyword cannot express, with the service's message for a value that fails it. */
export interface Rule<V> {
  /** Whether the value (already of the parameter's JSON type) passes. */
  readonly check: (value: V) => boolean;
  /** The whole 400 message for a value that does not. */
  readonly message: (value: V) => string;
}

/** One parameter: its wire form, its rules, and the value stored for a valid one. */
export interface Param<T> {
  /** The parameter's name (in messages). */
  readonly name: string;
  /** The JSON types accepted, without the rules. */
  readonly base: TSchema;
  /** The base with every rule as a TypeBox refinement: what `validate()` checks. */
  readonly schema: TSchema;
  /** The 400 message for a value the base refuses. */
  readonly invalid: (value: unknown) => string;
  /** The rules, in the order their messages win. */
  readonly rules: readonly Rule<never>[];
  /** The stored value of a valid one (`undefined`: as if not sent). */
  readonly decode: (value: unknown) => T | undefined;
}

/** `invalid value for "<name>": expected <what>, got <value>` (the value quoted, at most 80 characters). */
export function invalidValue(name: string, expected: string, value: unknown): string {
  const shown = JSON.stringify(value) ?? String(value);
  const quoted = shown.length > 80 ? `${shown.slice(0, 77)}...` : shown;
  return `invalid value for "${name}": expected ${expected}, got ${quoted}`;
}

/**
 * Defines a parameter.
 * @param name - Its name.
 * @param base - The JSON types it accepts.
 * @param expected - Words for a value of the right type (`a boolean`), for a value the base refuses.
 * @param rules - Refinements, in order.
 * @param decode - The stored value of a valid value.
 * @returns The parameter.
 */
export function param<S extends TSchema, T>(
  name: string,
  base: S,
  expected: string | ((value: unknown) => string),
  rules: readonly Rule<Static<S>>[],
  decode: (value: Static<S>) => T | undefined,
): Param<T> {
  let schema: TSchema = base;
  for (const rule of rules)
    schema = Type.Refine(schema, rule.check as (value: unknown) => boolean, rule.message);
  return {
    name,
    base,
    schema,
    invalid: typeof expected === 'string' ? (value) => invalidValue(name, expected, value) : expected,
    rules: rules as readonly Rule<never>[],
    decode: decode as (value: unknown) => T | undefined,
  };
}

/** The 400 message of a value the parameter refuses. */
function refusal(p: Param<unknown>, value: unknown): string {
  if (!matches(p.base, value)) return p.invalid(value);
  for (const rule of p.rules as readonly Rule<unknown>[]) if (!rule.check(value)) return rule.message(value);
  return p.invalid(value);
}

/**
 * Reads one value (a path or query parameter) with its parameter.
 * @param p - The parameter.
 * @param value - The raw value.
 * @returns The stored value.
 * @throws 400 with the parameter's message.
 */
export function readParam<T>(p: Param<T>, value: unknown): T | undefined {
  if (!validate(p.schema, value, { maxProblems: 1 }).ok) throw badRequest(refusal(p, value));
  return p.decode(value);
}

// ---------------------------------------------------------------------------------------------
// Parameter kinds

/** At most `max` characters: `"<name>" is longer than <max> characters`. */
export const longerThan = (name: string, max: number): Rule<string> => ({
  check: (value) => value.length <= max,
  message: () => `"${name}" is longer than ${max} characters`,
});

/** A boolean: `true`/`false`, or what Go's `strconv.ParseBool` reads (`"1"`, `"t"`, `"TRUE"`, ...). */
export function boolParam(name: string): Param<boolean> {
  const goBool: Rule<boolean | string> = {
    check: (value) => typeof value === 'boolean' || parseGoBool(value) !== undefined,
    message: (value) => invalidValue(name, 'a boolean', value),
  };
  return param(name, Type.Union([Type.Boolean(), Type.String()]), 'a boolean', [goBool], (value) =>
    typeof value === 'boolean' ? value : parseGoBool(value) === true,
  );
}

/** A string of at most `maxLength` characters (plus the rules given). */
export function stringParam(
  name: string,
  maxLength = 65_536,
  rules: readonly Rule<string>[] = [],
): Param<string> {
  return param(name, Type.String(), 'a string', [longerThan(name, maxLength), ...rules], (value) => value);
}

/** A non-negative integer: a JSON number or a string of digits. */
export function countParam(name: string): Param<number> {
  const base = Type.Union([
    Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    Type.String({ pattern: '^\\d{1,15}$' }),
  ]);
  return param(name, base, 'a non-negative integer', [], (value) => Number(value));
}

/** One of a fixed set of strings. */
export function enumParam<T extends string>(name: string, allowed: readonly T[]): Param<T> {
  const base = Type.Union(allowed.map((value) => Type.Literal(value)));
  const expected = `one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`;
  return param(name, base, expected, [], (value) => value as T);
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

/** Seconds of a duration value (fractions dropped), or undefined when it is not one. */
export function durationSeconds(value: number | string): number | undefined {
  const parsed = parseSecondsOrDuration(value);
  return parsed.ok && parsed.ns >= 0 ? Math.floor(parsed.ns / 1e9 + 1e-9) : undefined;
}

/**
 * A duration in whole seconds, read as the secrets service reads it (`parseSecondsOrDuration` of
 * `@sked/model`): a non-negative integer of seconds, a string of digits, `"<n>d"` days, or a Go
 * duration string (`"90s"`, `"1h30m"`, `"1.5h"`, `"72h"`); fractions of a second are dropped; at most
 * `limit` ({@link TIMER_DURATION} for what a timer waits for).
 */
export function durationParam(
  name: string,
  limit: DurationLimit = STORED_DURATION,
  rules: readonly Rule<number | string>[] = [],
): Param<number> {
  const base = Type.Union([Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), Type.String()]);
  const isDuration: Rule<number | string> = {
    check: (value) => durationSeconds(value) !== undefined,
    message: (value) => invalidValue(name, DURATION_EXPECTED, value),
  };
  const withinLimit: Rule<number | string> = {
    check: (value) => (durationSeconds(value) ?? 0) <= limit.seconds,
    message: (value) =>
      `invalid value for "${name}": at most ${limit.seconds} seconds (${limit.reason}), got ${JSON.stringify(value)}`,
  };
  return param(name, base, DURATION_EXPECTED, [isDuration, withinLimit, ...rules], (value) =>
    durationSeconds(value),
  );
}

const MAX_ITEMS = 10_000;
const MAX_ITEM_LENGTH = 1024;

/** The raw items of a list value (before trimming), or none for `null`. */
function rawItems(value: readonly string[] | string | null): readonly string[] {
  return value === null ? [] : typeof value === 'string' ? value.split(',') : value;
}

/** Items trimmed, empty ones dropped, duplicates removed (the first kept). */
function listItems(value: readonly string[] | string | null): string[] {
  const out: string[] = [];
  for (const raw of rawItems(value)) {
    const item = raw.trim();
    if (item !== '' && !out.includes(item)) out.push(item);
  }
  return out;
}

/** The message of the first item a list refuses, or undefined. */
function itemProblem(name: string, items: readonly string[]): string | undefined {
  for (const item of items) {
    if (item.length > MAX_ITEM_LENGTH)
      return `an item of "${name}" is longer than ${MAX_ITEM_LENGTH} characters`;
    if (/\p{Cc}/u.test(item)) return invalidValue(name, 'names without control characters', item);
  }
  return undefined;
}

type ListValue = readonly string[] | string | null;

/**
 * A list of strings: a JSON array of strings or one comma-separated string; JSON `null` counts as not
 * sent (the service treats `null` as absent for its list fields). Items are trimmed, empty ones dropped,
 * duplicates removed (the first kept); each at most 1024 characters without control characters.
 */
export function listParam(name: string, rules: readonly Rule<ListValue>[] = []): Param<string[]> {
  const base = Type.Union([Type.Null(), Type.Array(Type.String()), Type.String()]);
  const count: Rule<ListValue> = {
    check: (value) => rawItems(value).length <= MAX_ITEMS,
    message: () => `"${name}" has more than ${MAX_ITEMS} items`,
  };
  const items: Rule<ListValue> = {
    check: (value) => itemProblem(name, listItems(value)) === undefined,
    message: (value) => itemProblem(name, listItems(value)) ?? '',
  };
  return param(
    name,
    base,
    'a list of strings or a comma-separated string',
    [count, items, ...rules],
    (value) => (value === null ? undefined : listItems(value)),
  );
}

/** Whether a text is a CIDR block (a bare IP address counts as a /32 or /128). */
function isCidr(item: string): boolean {
  const [address = '', bits, ...rest] = item.split('/');
  const family = isIP(address);
  const max = family === 6 ? 128 : 32;
  return (
    family !== 0 &&
    rest.length === 0 &&
    (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max))
  );
}

/** A list of CIDR blocks (a bare IP address counts as a /32 or /128). */
export function cidrsParam(name: string): Param<string[]> {
  return listParam(name, [
    {
      check: (value) => listItems(value).every(isCidr),
      message: (value) =>
        invalidValue(
          name,
          'CIDR blocks such as "10.0.0.0/8"',
          listItems(value).find((item) => !isCidr(item)),
        ),
    },
  ]);
}

// ---------------------------------------------------------------------------------------------
// An endpoint's parameters

/** How an endpoint words a body that is not an object, and unknown parameters. */
export interface ParamsWording {
  /** The 400 for a body that is not a JSON object. */
  readonly notAnObject: string;
  /** The 400 for unknown parameters (names in body order). */
  readonly unknown: (names: readonly string[]) => string;
}

/** The parameters of one endpoint, as one object schema. */
export interface ParamSet {
  /** Parameter names, in definition order. */
  readonly names: readonly string[];
  /** The object schema `validate()` checks a body against (every parameter optional, no others). */
  readonly schema: TSchema;
  readonly byName: ReadonlyMap<string, Param<unknown>>;
  readonly wording: ParamsWording;
}

/** `unknown parameter(s) "a", "b"; this endpoint accepts x, y` (at most 10 names quoted). */
function unknownParameters(known: readonly string[]): (names: readonly string[]) => string {
  return (names) => {
    const list = names.slice(0, 10).map((k) => JSON.stringify(k.length > 60 ? `${k.slice(0, 57)}...` : k));
    return `unknown parameter${names.length > 1 ? 's' : ''} ${list.join(', ')}; this endpoint accepts ${known.join(', ')}`;
  };
}

/**
 * The parameters of an endpoint.
 * @param params - Its parameters.
 * @param wording - How it words a body that is not an object and unknown parameters (default: as the
 * configuration and record writes do).
 * @returns The set, for {@link readParams}.
 */
export function paramSet(params: readonly Param<unknown>[], wording?: ParamsWording): ParamSet {
  const names = params.map((p) => p.name);
  return {
    names,
    schema: Type.Object(Object.fromEntries(params.map((p) => [p.name, Type.Optional(p.schema)])), {
      additionalProperties: false,
    }),
    byName: new Map(params.map((p) => [p.name, p])),
    wording: wording ?? {
      notAnObject: 'the request body must be a JSON object of parameters',
      unknown: unknownParameters(names),
    },
  };
}

/**
 * Validates a request body against an endpoint's parameters and returns the values to store.
 * @param set - The endpoint's parameters.
 * @param body - The parsed JSON body (`undefined` or `null` when empty: no parameters).
 * @returns The decoded values of the parameters sent, by name (a `null` list is left out).
 * @throws 400 for a body that is not an object, for unknown parameters, or naming the first bad one.
 */
export function readParams(set: ParamSet, body: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (body === undefined || body === null) return out;
  const result = validate(set.schema, body);
  if (!result.ok) throw badRequest(refusalOf(set, body, result.problems));
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    const decoded = set.byName.get(name)?.decode(value);
    if (decoded !== undefined) out.set(name, decoded);
  }
  return out;
}

function refusalOf(set: ParamSet, body: unknown, problems: Parameters<typeof formatProblems>[0]): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return set.wording.notAnObject;
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).filter((name) => !set.byName.has(name));
  if (unknown.length > 0) return set.wording.unknown(unknown);
  for (const [name, value] of Object.entries(record)) {
    const p = set.byName.get(name);
    if (p !== undefined && problems.some((problem) => problem.path.split('/')[1] === name))
      return refusal(p, value);
  }
  return formatProblems(problems); // not reached: every problem is at a parameter
}
