/** Building blocks of the arbitraries: names, times, indexes, meta and small combinators. */
import fc from 'fast-check';

const SECOND = 1_000_000_000;

/** A JSON value as it comes back from the wire: `-0` is written as `0`, so it is never generated. */
export function jsonValueArbitrary(): fc.Arbitrary<fc.JsonValue> {
  return fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as fc.JsonValue);
}

/** A name: lower-case letter, then letters, digits and hyphens. */
export function nameArbitrary(): fc.Arbitrary<string> {
  return fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/);
}

/**
 * The names every plain object inherits from `Object.prototype` (and `__proto__`, its accessor):
 * a record keyed by names from input that reads or writes them as `obj[name]` breaks on these.
 */
export const PROTOTYPE_NAMES: readonly string[] = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
];

/**
 * A name as a user may give it for a job, group, task, node, Meta key...: usually a plain
 * {@link nameArbitrary} name, often (one draw in three) one of {@link PROTOTYPE_NAMES}, so that
 * property tests keep code that keys records by names honest.
 */
export function inputNameArbitrary(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: nameArbitrary() },
    { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) },
  );
}

/** A duration in nanoseconds, whole seconds up to one day. */
export function nanosecondsArbitrary(): fc.Arbitrary<number> {
  return fc.integer({ min: 0, max: 86_400 }).map((seconds) => seconds * SECOND);
}

/** A Unix time in nanoseconds between 2020 and 2030. */
export function unixNanosecondsArbitrary(): fc.Arbitrary<number> {
  return fc
    .tuple(fc.integer({ min: 1_577_836_800, max: 1_893_456_000 }), fc.integer({ min: 0, max: 999 }))
    .map(([seconds, millis]) => seconds * SECOND + millis * 1_000_000);
}

/** An ISO 8601 timestamp between 2020 and 2030. */
export function isoTimeArbitrary(): fc.Arbitrary<string> {
  return fc
    .integer({ min: 1_577_836_800, max: 1_893_456_000 })
    .map((seconds) => new Date(seconds * 1000).toISOString());
}

/** A Raft index. */
export function indexArbitrary(): fc.Arbitrary<number> {
  return fc.integer({ min: 1, max: 1_000_000 });
}

/** A `Meta`-style map: keys like `owner`, `team`, `env` (or a {@link PROTOTYPE_NAMES} name), values short strings. */
export function metaArbitrary(): fc.Arbitrary<Record<string, string>> {
  return fc.dictionary(
    fc.oneof(fc.constantFrom('owner', 'team', 'env', 'version', 'cost-center'), inputNameArbitrary()),
    fc.string({ maxLength: 12 }),
    { maxKeys: 4 },
  );
}

export function nullable<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.option(arbitrary, { nil: null, freq: 3 });
}

export function values<T extends Record<string, string>>(constants: T): fc.Arbitrary<T[keyof T]> {
  return fc.constantFrom(...(Object.values(constants) as T[keyof T][]));
}
