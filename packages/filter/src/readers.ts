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
 * reader a name gets: every reader is the same read.
 * @internal
 * @packageDocumentation
 */

/** Reads one own or inherited property (callers check own-ness where it matters, as before). */
export type Reader = (o: Record<string, unknown>, key: string) => unknown;

// Sixteen textually distinct copies of the same read, on purpose (see above): each literal is its
// own feedback site. Kept on four lines so that they read as the table they are.
// prettier-ignore
const READERS: readonly Reader[] = [
  (o, k) => o[k], (o, k) => o[k], (o, k) => o[k], (o, k) => o[k],
  (o, k) => o[k], (o, k) => o[k], (o, k) => o[k], (o, k) => o[k],
  (o, k) => o[k], (o, k) => o[k], (o, k) => o[k], (o, k) => o[k],
  (o, k) => o[k], (o, k) => o[k], (o, k) => o[k], (o, k) => o[k],
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
