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

/** A `Meta`-style map: keys like `owner`, `team`, `env`, values short strings. */
export function metaArbitrary(): fc.Arbitrary<Record<string, string>> {
  return fc.dictionary(
    fc.oneof(fc.constantFrom('owner', 'team', 'env', 'version', 'cost-center'), nameArbitrary()),
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
