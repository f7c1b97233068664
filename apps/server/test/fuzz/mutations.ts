/**
 * The hostile values the fuzzer puts into bodies, query strings and paths, and the splicing of
 * byte-level values (deep nesting, 1 MB strings, invalid UTF-8, numbers no double holds) into a
 * JSON text.
 *
 * @packageDocumentation
 */
import fc from 'fast-check';

/** How a malformed request differs from a valid one. */
export type Mutation =
  | 'wrong-type'
  | 'missing-property'
  | 'unknown-property'
  | 'deep-nesting'
  | 'huge-string'
  | 'invalid-utf8'
  | 'huge-integer'
  | 'not-json'
  | 'wrong-content-type'
  | 'hostile-query'
  | 'hostile-path'
  | 'wrong-method'
  | 'bad-upgrade';

/** Markers a mutation puts into a value; {@link spliceMarkers} turns them into raw bytes. */
export const MARKERS = {
  deep: '\u0001fuzz:deep\u0001',
  deepArray: '\u0001fuzz:deep-array\u0001',
  deepHcl: '\u0001fuzz:deep-hcl\u0001',
  huge: '\u0001fuzz:huge\u0001',
  badUtf8: '\u0001fuzz:bad-utf8\u0001',
  bigInteger: '\u0001fuzz:big-integer\u0001',
  bigExponent: '\u0001fuzz:big-exponent\u0001',
  unsafeInteger: '\u0001fuzz:unsafe-integer\u0001',
} as const;

/** Depth of the nested bodies (the 10,000). */
export const NESTING = 10_000;
/** Size of the long strings (1 MB). */
export const HUGE = 1024 * 1024;

const splices: ReadonlyArray<readonly [string, () => Buffer]> = [
  [MARKERS.deep, () => Buffer.from(`${'{"a":'.repeat(NESTING)}1${'}'.repeat(NESTING)}`)],
  [MARKERS.deepArray, () => Buffer.from(`${'['.repeat(NESTING)}${']'.repeat(NESTING)}`)],
  [
    MARKERS.deepHcl,
    () =>
      Buffer.from(
        JSON.stringify(`job "deep" {\n${'group "g" {\n'.repeat(NESTING)}${'}\n'.repeat(NESTING)}}\n`),
      ),
  ],
  [MARKERS.huge, () => Buffer.from(`"${'x'.repeat(HUGE)}"`)],
  [MARKERS.badUtf8, () => Buffer.from([0x22, 0x61, 0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0x62, 0x22])],
  [MARKERS.bigInteger, () => Buffer.from('123456789012345678901234567890123456789')],
  [MARKERS.bigExponent, () => Buffer.from('1e400')],
  [MARKERS.unsafeInteger, () => Buffer.from('9007199254740993')],
];

/**
 * Serializes a value to JSON bytes, replacing each marker string by its raw bytes.
 * @param value - The body value.
 * @returns The bytes to send.
 */
export function spliceMarkers(value: unknown): Buffer {
  let parts: (string | Buffer)[] = [JSON.stringify(value) ?? ''];
  for (const [marker, bytes] of splices) {
    const quoted = JSON.stringify(marker);
    parts = parts.flatMap((part) => {
      if (typeof part !== 'string' || !part.includes(quoted)) return [part];
      const pieces = part.split(quoted);
      return pieces.flatMap((piece, i) => (i === 0 ? [piece] : [bytes(), piece]));
    });
  }
  return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
}

/** Values of every JSON type, for `wrong-type`. */
export const anyTypeValue: fc.Arbitrary<unknown> = fc.constantFrom(
  1,
  -1,
  0.5,
  'text',
  '',
  true,
  false,
  null,
  [],
  [1, 'a'],
  {},
  { k: 'v' },
);

/** Names that are properties of every plain object, and other names that trip up key handling. */
export const hostileNames: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'a.b.c',
  'Unknown',
  '',
];

/** Values of query parameters no parser should trust. */
export const hostileQueryValues: readonly string[] = [
  '99999999999999999999999999',
  '18446744073709551616',
  '9007199254740993',
  '-1',
  '1e400',
  'NaN',
  'Infinity',
  '0x10',
  '1.5',
  '',
  '__proto__',
  'constructor',
  'a.b.c',
  '%00',
  '%ff%fe',
  '\u00ff\u00fe',
  '%zz',
  '*',
  '..%2F..',
  'x'.repeat(10_000),
  '%E2%80%AE',
  '[]',
  '{}',
  'true&true',
];

/** Path segments as sent (already escaped, or deliberately not). */
export const hostileSegments: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'a.b.c',
  'ns.with.dots',
  '.',
  '..',
  '%2e%2e',
  '%2F',
  'a%2Fb',
  '%00',
  '%ff',
  '%zz',
  '%',
  'x'.repeat(10_000),
  '%C3%BC',
  '%E2%80%AE',
  '*',
  '%20',
  // raw bytes that are not UTF-8 (sent as is: the request line is written as latin1)
  '\u00ff\u00fe',
  '99999999999999999999999999',
  '-1',
];

/** Content types other than JSON (and JSON with parameters). */
export const wrongContentTypes: readonly string[] = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'application/octet-stream',
  'application/json; charset=latin1',
  'application/json-patch+json',
  'json',
];

/** Bodies that are not one JSON value of the documented kind. */
export const notJsonBodies: readonly string[] = [
  '',
  '{',
  '[1]',
  'null',
  '"text"',
  '1e400',
  '{"a":1}{"b":2}',
  '\u0000',
  '{"a":1,}',
  "{'a':1}",
];

/** Every path into a value (keys and array indexes), root excluded, at most `limit` levels deep. */
export function pathsOf(value: unknown, limit = 6): (string | number)[][] {
  const out: (string | number)[][] = [];
  const walk = (node: unknown, prefix: (string | number)[]): void => {
    if (prefix.length >= limit || typeof node !== 'object' || node === null) return;
    const entries = Array.isArray(node) ? node.map((v, i) => [i, v] as const) : Object.entries(node);
    for (const [key, child] of entries) {
      const path = [...prefix, key];
      out.push(path);
      walk(child, path);
    }
  };
  walk(value, []);
  return out;
}

/** A copy of `value` with the node at `path` replaced (`remove` deletes it instead). */
export function replaceAt(
  value: unknown,
  path: readonly (string | number)[],
  replacement: unknown,
  remove = false,
): unknown {
  if (path.length === 0) return replacement;
  const copy: unknown = JSON.parse(JSON.stringify(value));
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (remove) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else {
    Object.defineProperty(node, last, {
      value: replacement,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}
