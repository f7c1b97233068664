/**
 * A copy of a record keyed by names from input (a job's groups), with a `null` prototype like the
 * model's `nullRecord`, mapping each value through `map`. Written as a loop over the keys: a
 * record of thousands of keys is past the size where objects keep a fast shape, and a spread
 * (`{ ...record }`) or `Object.entries` copy of it costs several times more. Every key, `__proto__`
 * included, becomes an own key (assignment to a `null`-prototype object creates it).
 * @param record - The record to copy.
 * @param map - Maps each value (the value itself by default).
 * @returns The copy.
 */
export function copyRecord<V, W = V>(
  record: Readonly<Record<string, V>>,
  map: (value: V) => W = (value) => value as unknown as W,
): Record<string, W> {
  const out = Object.create(null) as Record<string, W>;
  for (const key of Object.keys(record)) out[key] = map(record[key] as V);
  return out;
}
