/**
 * Property reads of the closure fallback, one place in the source per field name.
 *
 * V8 keeps the type feedback of a property read per place in the source, shared by every closure
 * made from that place. A closure literal that reads `root[key]` for every clause of a filter sees
 * several keys (`Status`, `Type`, `Namespace`), and a keyed read that has seen two names is
 * megamorphic: a hash-table lookup on every read, which made an and/or of three clauses run at a
 * quarter of the speed of the plain closure. Generated code has a place per clause; closures, where
 * `new Function` is forbidden, get theirs from this pool: each field name gets one reader, the
 * first {@link READER_COUNT} names one each in the order they are first compiled, later ones one by
 * hash. A read of `Status` then stays monomorphic however many other fields a process's filters read,
 * and the closure's call of its reader is inlined by the optimiser. Answers do not depend on which
 * reader a name gets: every reader is the same own-property read.
 * @internal
 * @packageDocumentation
 */

/**
 * Reads one OWN property, as a JSON object has: undefined when the key is absent or only inherited
 * (from a custom prototype, a class, or names such as `toString` and `constructor` that every object
 * inherits).
 */
export type Reader = (o: Record<string, unknown>, key: string) => unknown;
type Props = Record<string, unknown>;

/**
 * The own-property check of a read that found a value. A value read from an object whose prototype
 * is `Object.prototype` is its own unless `Object.prototype` has the key (`toString`, `__proto__`, or a
 * name added to it later); V8 folds both tests to constants after the read has checked the object's
 * shape, so the common case costs nothing (an `Object.hasOwn` on every read would cost more than the
 * read). Anything else (a custom or null prototype, an array, a class instance) asks `Object.hasOwn`.
 */
export function ownValue(o: object, key: string, v: unknown): unknown {
  // a primitive (generated code reads the root before knowing it is an object) owns nothing
  return (typeof o === 'object' || typeof o === 'function') && Object.hasOwn(o, key) && !Array.isArray(o)
    ? v
    : undefined;
}

/** {@link ownValue} for a value that must be an object: a function (or a primitive) owns nothing. */
export function ownObjectValue(o: object, key: string, v: unknown): unknown {
  return typeof o === 'object' && Object.hasOwn(o, key) && !Array.isArray(o) ? v : undefined;
}

// Sixteen textually distinct copies of the same read, on purpose (see above): each literal is its
// own feedback site. One line each, so that they read as the table they are.
// prettier-ignore
const READERS: readonly Reader[] = [
  (o, k) => { const v = o[k]; return v === undefined || (Object.getPrototypeOf(o) === Object.prototype && (Object.prototype as Props)[k] === undefined) ? v : ownValue(o, k, v); },
  (o, k) => { const v = o[k]; return v === undefined || (Object.getPrototypeOf(o) === Object.prototype && (Object.prototype as Props)[k] === undefined) ? v : ownValue(o, k, v); },
  (o, k) => { const v = o[k]; return v === undefined || (Object.getPrototypeOf(o) === Object.prototype && (Object.prototype as Props)[k] === undefined) ? v : ownValue(o, k, v); },
  (o, k) => { const v = o[k]; return v === undefined || (Object.getPrototypeOf(o) === Object.prototype && (Object.prototype as Props)[k] === undefined) ? v : ownValue(o, k, v); },
  (o, k) => { const v = o[k]; return v === undefined || (Object.getPrototypeOf(o) === Object.prototype && (Object.prototype as Props)[k] === undefined) ? v : ownValue(o, k, v); },
  (o, k) => { const v = o[k]; return v === undefined || (Object.getPrototypeOf(o) === Object.prototype && (Object.prototype as Props)[k] === undefined) ? v : ownValue(o, k, v); },
  (o, k) => { const v = o[k]; return v === undefined || (Object.getPrototypeOf(o) === Object.prototype && (Object.prototype as Props)[k] === undefined) ? v : ownValue(o, k, v); },
  (o, k) => { const v = o[k]; return v === undefined || (Object.getPrototypeOf(o) === Object.prototype && (Object.prototype as Props)[k] === undefined) ? v : ownValue(o, k, v); },
  (o, k) => { const v = o[k]; return v === undefined || (Object.getPrototypeOf(o) === Object.prototype && (Object.prototype as Props)[k] === undefined) ? v : ownValue(o, k, v); },
  (o, k) => { const v = o[k]; return v === undefined || (Object.getPrototypeOf(o) === Object.prototype && (Object.prototype as Props)[k] === undefined) ? v : ownValue(o, k, v); },
  (o, k) => { const v = o[k]; return v === undefined || (Object.getPrototypeOf(o) === Object.prototype && (Object.prototype as Props)[k] === undefined) ? v : ownValue(o, k, v); },
  (o, k) => { const v = o[k]; return v === undefined || (Object.getPrototypeOf(o) === Object.prototype && (Object.prototype as Props)[k] === undefined) ? v : ownValue(o, k, v); },
  (o, k) => { const v = o[k]; return v === undefined || (Object.getPrototypeOf(o) === Object.prototype && (Object.prototype as Props)[k] === undefined) ? v : ownValue(o, k, v); },
  (o, k) => { const v = o[k]; return v === undefined || (Object.getPrototypeOf(o) === Object.prototype && (Object.prototype as Props)[k] === undefined) ? v : ownValue(o, k, v); },
  (o, k) => { const v = o[k]; return v === undefined || (Object.getPrototypeOf(o) === Object.prototype && (Object.prototype as Props)[k] === undefined) ? v : ownValue(o, k, v); },
  (o, k) => { const v = o[k]; return v === undefined || (Object.getPrototypeOf(o) === Object.prototype && (Object.prototype as Props)[k] === undefined) ? v : ownValue(o, k, v); },
];

/** How many distinct read sites there are. */
export const READER_COUNT = READERS.length;

/** Names given a reader of their own, in the order first seen (at most READER_COUNT). */
const assigned = new Map<string, Reader>();

function hash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h >>> 0;
}

/** The reader of a field name (the same reader every time for the same name). */
export function readerFor(key: string): Reader {
  const known = assigned.get(key);
  if (known !== undefined) return known;
  if (assigned.size < READER_COUNT) {
    const reader = READERS[assigned.size] as Reader;
    assigned.set(key, reader);
    return reader;
  }
  return READERS[hash(key) % READER_COUNT] as Reader;
}
