/**
 * What every generated filter is given besides its constants: how it ends (EXITS) and how it
 * compares a value with a numeric constant (BY_TYPE). Both are calls through a table, not branches:
 * V8 inlines the entry it has seen used and guards the others with a check, so a path a filter never
 * takes leaves no call in it (see RARE).
 * @internal
 * @packageDocumentation
 */
import type { Env, Pred } from './lookup.js';

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
