/**
 * What every generated filter is given besides its constants: how it ends (EXITS) and how it
 * compares a value with a numeric constant (BY_TYPE). Both are calls through a table, not branches:
 * V8 inlines the entry it has seen used and guards the others with a check, so a path a filter never
 * takes leaves no call in it (see RARE).
 * @internal
 * @packageDocumentation
 */
import type { Env, Pred } from './lookup.js';
import { ownObjectValue, ownValue } from './readers.js';

/**
 * What a fast path does with a value it cannot decide (a null on the way, a value of another type, a
 * key that is there but inherited): it gives up on the whole item, which the whole expression's
 * closure then answers from the root (lookups are pure). It is a flag and a jump, not a call: an
 * unreached call (or a property read or a comparison V8 has no feedback for) leaves a deoptimisation
 * exit in the predicate, and once the predicate is inlined into a caller's loop that exit kept the
 * loop from being peeled, so its invariant checks ran on every item: `Status == "running"` ran at
 * 0.7 of a plain closure's speed, 0.9 without it.
 */
export const RARE = '{ s = 1; break B; }';

const neither = (): undefined => undefined;
/**
 * `==` with a numeric constant, by the value's type: a number is compared with the number, a
 * string with the constant's text, anything else is undefined (the fast path gives up). A plain
 * object, not frozen and with a prototype: V8 reads those fastest.
 */
export const BY_TYPE: Readonly<Record<string, (v: unknown, n: number, s: string) => boolean | undefined>> = {
  number: (v, n) => v === n,
  string: (v, _n, s) => v === s,
  boolean: neither,
  object: neither,
  undefined: neither,
  function: neither,
  symbol: neither,
  bigint: neither,
};

/**
 * How a generated filter ends: with its answer, or with the whole expression's closure (see RARE).
 * Not frozen: V8 reads a frozen array's elements more slowly, and the filter ran at 0.4 of a plain
 * closure's speed instead of 0.9. Only generated code reads it.
 */
export const EXITS: readonly ((t: boolean, root: unknown, all: Pred, env: Env) => boolean)[] = [
  (t) => t,
  (_t, root, all, env) => all(root, env),
];

/**
 * `dst = o["segment"]`, kept only when it is an own property (readers.ts explains the test: after the
 * read, V8 folds it to constants for plain objects; OWN asks Object.hasOwn in the other cases). The
 * globals are written out, not passed in: a factory's parameters are not constants to the optimiser
 * once it has made two filters, and the test then cost 15% of a 20-clause filter's speed.
 *
 * The code is written as a short mark (`\u0001dst\u0002o\u0002"segment"`) that {@link expand}
 * writes out only when a factory is made: the factory cache finds a source by hashing it, and the
 * marks make a source a third as long (hashing was a quarter of the cost of generating a filter).
 */
export function load(dst: string, o: string, segment: string, orNothing = false): string {
  return `\u0001${dst}\u0002${o}\u0002${JSON.stringify(segment)}${orNothing ? '\u0005' : ''}`;
}

// oxlint-disable-next-line eslint/no-control-regex -- the marks are control characters on purpose: JSON.stringify escapes them, so no segment can contain one
const MARKS = /\u0001(\w+)\u0002(\w+)\u0002("(?:[^"\\]|\\.)*")(\u0005?)/g;

/** The source with its marks written out. */
function expand(source: string): string {
  return source.replace(MARKS, (_, dst: string, o: string, json: string, orNothing: string) => {
    const k = `[${json}]`;
    const inherits = `Object.getPrototypeOf(${o}) !== Object.prototype || Object.prototype${k} !== undefined`;
    // below the root, OWN_OBJECT also refuses a function (the value a type test used to send to `slow`)
    const own = o === 'r' ? 'OWN' : 'OWN_OBJECT';
    const nothing = orNothing === '' ? '' : ` if (${dst} === null) ${dst} = NS;`;
    return `${dst} = ${o}${k};${nothing} if (${dst} !== undefined && (${inherits})) ${dst} = ${own}(${o}, ${json}, ${dst});`;
  });
}

/**
 * What generated code reads from in place of a `null` below the root (`if (m === null) m = NS`):
 * every key reads as undefined, and its `length` fails the missing-key object test, so the item
 * goes to the whole expression's closure. A read from null that throws instead cost 10 to 25 µs an
 * item (V8 renders the expression into the TypeError's message); a test with an exit of its own
 * held `Meta.owner` at 0.72 of the plain closure, `?? NS` at 0.80, this at 0.85. An undefined value
 * there (a missing key, which the closures report as an error) still throws, once.
 */
const NOTHING: Readonly<Record<string, unknown>> = { length: 0 };

/** A closure made on its first call (the slow paths of most filters are never called). */
export function lazy(make: () => Pred): Pred {
  let p: Pred | undefined;
  return (root, env) => (p ??= make())(root, env);
}

/** Makes a generated filter from its constants. @internal */
export type Factory = (...args: unknown[]) => (datum: unknown) => boolean;

const EMPTY_ENV: Env = Object.freeze([]);

/**
 * The factory of a generated filter's code: its constants `k0`... are its parameters, `all` names
 * the whole expression's closure.
 *
 * The root is read without a check first (a check before the first read cost a tenth of the plain
 * closure's speed): a primitive root's reads find nothing of their own (ownValue) and take the
 * clauses' own paths, as the closures would; null and undefined throw at the first read. Whatever
 * the fast code gives up on (RARE) or throws on is answered by the whole expression's closure. The
 * exit is a call through EXITS, not a branch: V8 inlines the one exit it has seen taken and guards
 * the other with a check, so a filter that never gives up has no call in it.
 */
export function makeFactory(code: string, all: string, count: number): Factory {
  const source =
    `return function filter(r) { let t = false, v, m, n, w, s = 0; try { B: { ${expand(code)} } } catch (e) { s = 1; } ` +
    `return X[s](t, r, ${all}, E); };`;
  const names = Array.from({ length: count }, (_, i) => `k${i}`);
  // oxlint-disable-next-line typescript/no-implied-eval -- generated from JSON-quoted keys and constants passed as parameters only
  return new Function('E', 'X', 'Y', 'NS', 'HOP', 'OWN', 'OWN_OBJECT', ...names, source) as Factory;
}

/** A generated filter: its factory given the shared helpers and its constants. */
export function instantiate(factory: Factory, consts: readonly unknown[]): (datum: unknown) => boolean {
  return factory(
    EMPTY_ENV,
    EXITS,
    BY_TYPE,
    NOTHING,
    // oxlint-disable-next-line typescript/unbound-method -- called as HOP.call(object, key) in the generated code
    Object.prototype.hasOwnProperty,
    ownValue,
    ownObjectValue,
    ...consts,
  );
}
