/**
 * Copying helpers of canonicalization: defaults filled from input, lists, maps and free-form records
 * copied so the output shares no object with the input.
 *
 * @packageDocumentation
 */

/** Copies `defaults`, replacing each key the input gives a value for; unknown input keys are dropped. */
export function fill<T extends object>(defaults: Readonly<T>, input: Partial<T> | undefined): T {
  const out = { ...defaults } as T;
  if (input === undefined) return out;
  for (const key of Object.keys(defaults) as (keyof T)[]) {
    // Own keys only: the defaults' keys are fixed names, but the input may be any object.
    const value = Object.hasOwn(input, key) ? input[key] : undefined;
    if (value !== undefined && value !== null) out[key] = value as T[keyof T];
  }
  return out;
}

export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

export function mapList<I, O>(list: readonly I[] | null | undefined, map: (item: I) => O): O[] | null {
  return list === undefined || list === null ? null : list.map((item) => map(item));
}

export function copyList<T>(list: readonly T[] | null | undefined): T[] | null {
  return list === undefined || list === null ? null : [...list];
}

export function copyMap(
  map: Readonly<Record<string, string>> | null | undefined,
): Record<string, string> | null {
  // Object.fromEntries defines own properties, so a "__proto__" key stays a plain key.
  return map === undefined || map === null ? null : Object.fromEntries(Object.entries(map));
}

export function cloneRecord(record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, cloneValue(value)]));
}

function cloneValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneValue);
  if (value !== null && typeof value === 'object') return cloneRecord(value as Record<string, unknown>);
  return value;
}
