/**
 * Typed mode: what a JSON Schema (as TypeBox emits it) says about the values a selector reaches.
 *
 * A schema is read lazily and memoised per schema object (a WeakMap), so compiling many filters
 * against one schema costs a few property reads per selector segment.
 */
import { goParseInt } from './internal/go-strconv.js';

/** What the schema allows at one position of a path (the union of every branch). */
export interface Shape {
  /** Some branch accepts anything (`{}`, `true`, an unresolved `$ref`, `not`...). */
  readonly any: boolean;
  /** Objects with declared `properties` (Go structs). */
  readonly structs: readonly ObjectBranch[];
  /** Objects without declared properties (Go maps: `patternProperties`, `additionalProperties`, open). */
  readonly maps: readonly ObjectBranch[];
  /** Item schemas of array branches (`undefined` when the items are not described). */
  readonly lists: readonly unknown[];
  /** Scalar types allowed: `string`, `number`, `integer`, `boolean`, `null`. */
  readonly scalars: ReadonlySet<string>;
}

interface ObjectBranch {
  readonly properties: Readonly<Record<string, unknown>> | undefined;
  /** Schemas of keys not in `properties`, each with its key pattern (`undefined`: every key). */
  readonly extra: readonly { readonly pattern: RegExp | undefined; readonly schema: unknown }[];
}

/** How a `null` at this position is read: as an empty map, an empty list, or as `null`. */
export type NullAs = 'map' | 'list' | undefined;

const ANY: Shape = { any: true, structs: [], maps: [], lists: [], scalars: new Set() };
const MAX_DEPTH = 64;
/** Shapes of schema objects, per root schema (a `$ref` resolves against its root). */
const memo = new WeakMap<object, WeakMap<object, Shape>>();

function memoFor(root: unknown): WeakMap<object, Shape> | undefined {
  if (typeof root !== 'object' || root === null) return undefined;
  let m = memo.get(root);
  if (m === undefined) memo.set(root, (m = new WeakMap()));
  return m;
}

/** The shape of one schema (`root` resolves `$ref`s into `$defs`/`definitions`). */
export function shapeOf(schema: unknown, root: unknown): Shape {
  return union([schema], root);
}

/** The shape of a union of schemas. */
export function union(schemas: readonly unknown[], root: unknown): Shape {
  const cache = schemas.length === 1 && typeof schemas[0] === 'object' ? memoFor(root) : undefined;
  if (cache !== undefined && schemas[0] !== null) {
    const hit = cache.get(schemas[0] as object);
    if (hit !== undefined) return hit;
  }
  const acc = {
    any: false,
    structs: [] as ObjectBranch[],
    maps: [] as ObjectBranch[],
    lists: [] as unknown[],
  };
  const scalars = new Set<string>();
  const stack: Array<[unknown, number]> = schemas.map((s) => [s, 0]);
  for (let item = stack.pop(); item !== undefined && !acc.any; item = stack.pop()) {
    const [s, depth] = item;
    if (typeof s !== 'object' || s === null || depth > MAX_DEPTH) {
      if (s !== false) acc.any = true; // `true`, junk, or too deep: anything goes
      continue;
    }
    const o = s as Record<string, unknown>;
    let branched = false;
    for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
      const list = o[k];
      if (Array.isArray(list)) {
        branched = true;
        for (const sub of list) stack.push([sub, depth + 1]);
      }
    }
    if (typeof o['$ref'] === 'string') {
      stack.push([resolveRef(o['$ref'], root), depth + 1]);
      continue;
    }
    const types = typeOf(o);
    if (types === undefined) {
      if (!branched) acc.any = true;
      continue;
    }
    for (const t of types) {
      if (t === 'object') {
        const branch = objectBranch(o);
        if (branch === undefined) acc.any = true;
        else (branch.properties === undefined ? acc.maps : acc.structs).push(branch);
      } else if (t === 'array') acc.lists.push(o['items']);
      else scalars.add(t);
    }
  }
  const shape: Shape = acc.any ? ANY : { ...acc, scalars };
  if (cache !== undefined && schemas[0] !== null) cache.set(schemas[0] as object, shape);
  return shape;
}

const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

/** The types a schema object declares, or `undefined` when it does not constrain the type. */
function typeOf(o: Record<string, unknown>): string[] | undefined {
  const t = o['type'];
  if (typeof t === 'string') return TYPES.has(t) ? [t] : undefined;
  if (Array.isArray(t) && t.every((x) => typeof x === 'string' && TYPES.has(x))) return t as string[];
  if (t !== undefined) return undefined;
  if ('properties' in o || 'patternProperties' in o || 'additionalProperties' in o) return ['object'];
  if ('items' in o) return ['array'];
  const c = 'const' in o ? [o['const']] : Array.isArray(o['enum']) ? (o['enum'] as unknown[]) : undefined;
  if (c === undefined || c.length === 0) return undefined;
  const kinds = new Set<string>();
  for (const v of c) {
    if (v === null) kinds.add('null');
    else if (typeof v === 'string' || typeof v === 'boolean') kinds.add(typeof v);
    else if (typeof v === 'number') kinds.add(Number.isInteger(v) ? 'integer' : 'number');
    else return undefined;
  }
  return [...kinds];
}

/** An object branch, or `undefined` when it accepts any object (no properties, nothing else said). */
function objectBranch(o: Record<string, unknown>): ObjectBranch | undefined {
  const props = o['properties'];
  const properties =
    typeof props === 'object' && props !== null ? (props as Record<string, unknown>) : undefined;
  const extra: { pattern: RegExp | undefined; schema: unknown }[] = [];
  const patterns = o['patternProperties'];
  if (typeof patterns === 'object' && patterns !== null) {
    for (const [p, schema] of Object.entries(patterns)) extra.push({ pattern: toRegExp(p), schema });
  }
  const additional = o['additionalProperties'];
  if (additional !== undefined && additional !== false)
    extra.push({ pattern: undefined, schema: additional });
  // No properties and no rule for other keys: an open object, `{ type: "object" }`.
  if (properties === undefined && extra.length === 0 && additional !== false) return undefined;
  return { properties, extra };
}

function toRegExp(pattern: string): RegExp | undefined {
  if (pattern === '^.*$' || pattern === '.*' || pattern === '') return undefined;
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

function resolveRef(ref: string, root: unknown): unknown {
  const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (m === null || typeof root !== 'object' || root === null) return true;
  const defs = (root as Record<string, unknown>)[m[1] as string];
  if (typeof defs !== 'object' || defs === null) return true;
  const name = (m[2] as string).replaceAll('~1', '/').replaceAll('~0', '~');
  return Object.hasOwn(defs, name) ? (defs as Record<string, unknown>)[name] : true;
}

/** The shape one path segment further, or `undefined` when no branch allows the segment. */
export function childShape(shape: Shape, segment: string, root: unknown): Shape | undefined {
  if (shape.any) return ANY;
  const found: unknown[] = [];
  for (const branch of [...shape.structs, ...shape.maps]) {
    if (branch.properties !== undefined && Object.hasOwn(branch.properties, segment)) {
      found.push(branch.properties[segment]);
      continue;
    }
    for (const e of branch.extra)
      if (e.pattern === undefined || e.pattern.test(segment)) found.push(e.schema);
  }
  if (shape.lists.length > 0 && goParseInt(segment === '' ? '0' : segment).ok) {
    for (const items of shape.lists) found.push(items === undefined ? true : items);
  }
  return found.length === 0 ? undefined : union(found, root);
}

/** The shape of the values `any`/`all` binds (array elements, or object values). */
export function elementShape(shape: Shape, root: unknown): Shape {
  if (shape.any) return ANY;
  const found: unknown[] = shape.lists.map((items) => (items === undefined ? true : items));
  for (const branch of [...shape.structs, ...shape.maps]) {
    if (branch.properties !== undefined) found.push(...Object.values(branch.properties));
    for (const e of branch.extra) found.push(e.schema);
  }
  return found.length === 0 ? ANY : union(found, root);
}

/** Whether a `null` here reads as an empty map or list (every non-null branch is one or the other). */
export function nullAs(shape: Shape): NullAs {
  if (shape.any || shape.structs.length > 0) return undefined;
  for (const s of shape.scalars) if (s !== 'null') return undefined;
  if (shape.maps.length > 0 && shape.lists.length === 0) return 'map';
  if (shape.lists.length > 0 && shape.maps.length === 0) return 'list';
  return undefined;
}

/** Whether numbers here are Go integers (every numeric branch is `integer`). */
export function isIntegerShape(shape: Shape): boolean {
  return !shape.any && shape.scalars.has('integer') && !shape.scalars.has('number');
}

/** The declared property names here (for "did you mean"). */
export function propertyNames(shape: Shape): string[] {
  const names = new Set<string>();
  for (const b of shape.structs)
    if (b.properties !== undefined) for (const k of Object.keys(b.properties)) names.add(k);
  return [...names];
}

/** A short description of what the schema allows here (for errors). */
export function describeShape(shape: Shape): string {
  const parts: string[] = [];
  if (shape.structs.length > 0) parts.push('an object');
  if (shape.maps.length > 0) parts.push('a map');
  if (shape.lists.length > 0) parts.push('an array');
  for (const s of shape.scalars)
    parts.push(s === 'null' ? 'null' : s === 'integer' ? 'an integer' : `a ${s}`);
  if (parts.length === 0) return 'nothing';
  return parts.length === 1
    ? (parts[0] as string)
    : `${parts.slice(0, -1).join(', ')} or ${parts.at(-1) as string}`;
}

/** The closest name to `word` (edit distance, case-insensitive first), if close enough to suggest. */
export function closest(word: string, names: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of names) {
    if (name.toLowerCase() === lower) return name;
    const d = distance(lower, name.toLowerCase(), bestDistance);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** Levenshtein distance with adjacent transpositions, stopping early past `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, (prev2[j - 2] as number) + 1);
      cur.push(d);
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length] as number;
}
