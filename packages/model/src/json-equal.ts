/**
 * Equality of two values as the services read them: the deep equality every comparison of stored
 * objects uses (a job's task groups, a deployment, a volume's claims, a node's drain strategy).
 *
 * @packageDocumentation
 */

/**
 * Whether two JSON values are equal as the service decodes them: objects by their own keys whatever
 * their order, arrays item by item in order, primitives by value. A key that is absent, `undefined`
 * or `null` reads the same (the service decodes all three to its zero value, a nil pointer, map or
 * list); an empty list or object is not `null` (`[]` is a list, `null` none).
 *
 * @remarks
 * `JSON.stringify(a) === JSON.stringify(b)` is not this equality: it depends on the order keys were
 * written in, so the same object read back from the data dir, or written by another client, would
 * differ. Only own enumerable keys count; values that JSON cannot carry (functions, symbols) are
 * compared by identity. Cycles are not supported (JSON has none).
 *
 * @param a - A value.
 * @param b - Another value.
 * @returns Whether they are equal.
 * @example
 * ```ts
 * jsonEqual({ Cpu: 100, MemoryMB: 256 }, { MemoryMB: 256, Cpu: 100 }); // true
 * jsonEqual({ Meta: null }, {}); // true
 * jsonEqual([1, 2], [2, 1]); // false
 * ```
 * @since 0.3.0
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || a === undefined) return b === null || b === undefined;
  if (b === null || b === undefined) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as readonly unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], other[i])) return false;
    return true;
  }
  return sameRecords(a as Readonly<Record<string, unknown>>, b as Readonly<Record<string, unknown>>);
}

function sameRecords(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  let present = 0;
  for (const key of Object.keys(a)) {
    const value = a[key];
    const other = Object.hasOwn(b, key) ? b[key] : undefined;
    if (!jsonEqual(value, other)) return false;
    if (value !== null && value !== undefined) present++;
  }
  // Every key of b with a value was matched by one of a's, unless b has more of them.
  let presentInB = 0;
  for (const key of Object.keys(b)) {
    const value = b[key];
    if (value !== null && value !== undefined) presentInB++;
  }
  return present === presentInB;
}
