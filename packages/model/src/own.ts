/**
 * Records keyed by names that come from input (task, group, job, node, Meta keys, …). Such a name may
 * be one of JavaScript's own property names (`__proto__`, `constructor`, `toString`, `valueOf`,
 * `hasOwnProperty`): read through a plain object's `[name]` it finds `Object.prototype`'s member, and
 * written as `obj[name] = v` with `__proto__` it replaces the prototype instead of adding a key. These
 * helpers are the one idiom for both.
 *
 * @packageDocumentation
 */

/**
 * The value stored under `key` in `record` as an own property, or `undefined`: never a member of
 * `Object.prototype` (`ownValue({}, 'toString')` is `undefined`).
 *
 * @param record - The record to read (`null` and `undefined` read as empty).
 * @param key - The key, as it came from input.
 * @returns The own value, or `undefined` when the record has no own property `key`.
 * @example
 * ```ts
 * import { ownValue } from '@sked/model';
 *
 * ownValue({ web: 1 }, 'web'); // 1
 * ownValue({ web: 1 }, 'constructor'); // undefined
 * ```
 * @since 0.2.0
 */
export function ownValue<V>(
  record: Readonly<Record<string, V>> | null | undefined,
  key: string,
): V | undefined {
  return record !== null && record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * A new record with a `null` prototype, filled from `entries` in order: any key, `__proto__`
 * included, becomes an own, enumerable key; reads of absent keys give `undefined`; `JSON.stringify`
 * prints the keys in insertion order as for a plain object. Assigning `record[name] = v` to it later
 * is safe for every name.
 *
 * @param entries - Key-value pairs; a later pair replaces an earlier one of the same key.
 * @returns The record.
 * @example
 * ```ts
 * import { nullRecord } from '@sked/model';
 *
 * const byName = nullRecord<number>([['__proto__', 1]]);
 * byName['toString']; // undefined
 * JSON.stringify(byName); // '{"__proto__":1}'
 * ```
 * @since 0.2.0
 */
export function nullRecord<V>(entries: Iterable<readonly [string, V]> = []): Record<string, V> {
  const out = Object.create(null) as Record<string, V>;
  for (const [key, value] of entries) out[key] = value;
  return out;
}

/**
 * Stores `value` under `key` as an own, enumerable, writable property of `record`, whatever its
 * prototype: unlike `record[key] = value`, a `key` of `__proto__` adds a key to a plain object (one
 * that came from `JSON.parse` or `structuredClone`) instead of replacing its prototype.
 *
 * @param record - The record to write.
 * @param key - The key, as it came from input.
 * @param value - The value.
 * @returns `value`.
 * @example
 * ```ts
 * import { setOwn } from '@sked/model';
 *
 * const record: Record<string, number> = {};
 * setOwn(record, '__proto__', 1);
 * Object.keys(record); // ['__proto__']
 * ```
 * @since 0.2.0
 */
export function setOwn<V>(record: Record<string, V>, key: string, value: V): V {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  return value;
}
