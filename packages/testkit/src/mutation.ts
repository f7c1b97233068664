/**
 * Invalid mutations of valid values: replace one scalar field by a value of a type its schema refuses,
 * so a test can check the rejection names that field's path.
 *
 * @packageDocumentation
 */
import type { TSchema } from '@sked/model';

/** JSON types a schema position accepts. */
type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'object' | 'array';

/**
 * A scalar field of a value, with the JSON types its schema accepts there.
 */
export interface SchemaLeaf {
  /** JSON Pointer of the field. */
  readonly path: string;
  /** JSON types the schema accepts at the path (after resolving `X | null` and other unions). */
  readonly accepts: readonly string[];
}

/**
 * A mutated copy of a value and the path of the field made invalid.
 */
export interface Mutation {
  /** JSON Pointer of the field that was replaced. */
  readonly path: string;
  /** The replacement, of a type the schema refuses at `path`. */
  readonly replacement: unknown;
  /** A deep copy of the original value with the field replaced. */
  readonly value: unknown;
}

/**
 * Lists the scalar fields (strings, numbers, booleans, enumerated values) of `value`, following `schema`
 * through objects, records, arrays and unions. Free-form (`unknown`) and recursive (`$ref`) parts are skipped.
 *
 * @param schema - A `@sked/model` schema `value` matches.
 * @param value - A valid value.
 * @returns The leaves in document order.
 */
export function schemaLeaves(schema: TSchema, value: unknown): SchemaLeaf[] {
  const out: SchemaLeaf[] = [];
  walk(schema as SchemaNode, value, '', out);
  return out;
}

/**
 * Every single-field invalid mutation of `value`: one per leaf of {@link schemaLeaves}.
 *
 * @param schema - A `@sked/model` schema `value` matches.
 * @param value - A valid value (JSON data).
 * @returns The mutations.
 */
export function invalidMutations(schema: TSchema, value: unknown): Mutation[] {
  return schemaLeaves(schema, value).map((leaf) => {
    const replacement = refusedValue(leaf.accepts);
    return { path: leaf.path, replacement, value: replaceAt(value, leaf.path, replacement) };
  });
}

/**
 * One invalid mutation: the leaf number `pick` (modulo the number of leaves) of {@link schemaLeaves}.
 *
 * @param schema - A `@sked/model` schema `value` matches.
 * @param value - A valid value (JSON data).
 * @param pick - Any non-negative integer (for example from `fc.nat()`).
 * @returns The mutation, or `undefined` when the value has no scalar field.
 */
export function invalidMutation(schema: TSchema, value: unknown, pick: number): Mutation | undefined {
  const leaves = schemaLeaves(schema, value);
  const leaf = leaves[pick % Math.max(1, leaves.length)];
  if (leaf === undefined) return undefined;
  const replacement = refusedValue(leaf.accepts);
  return { path: leaf.path, replacement, value: replaceAt(value, leaf.path, replacement) };
}

/**
 * Returns a deep copy of `value` with the field at `pointer` replaced.
 *
 * @param value - JSON data.
 * @param pointer - JSON Pointer of an existing field.
 * @param replacement - The new field value.
 * @returns The copy.
 */
export function replaceAt(value: unknown, pointer: string, replacement: unknown): unknown {
  const segments = pointer === '' ? [] : pointer.slice(1).split('/').map(unescape);
  const copy = JSON.parse(JSON.stringify(value)) as unknown;
  if (segments.length === 0) return replacement;
  let current = copy as Record<string, unknown>;
  for (const segment of segments.slice(0, -1)) current = current[segment] as Record<string, unknown>;
  const last = segments.at(-1) ?? '';
  // defineProperty, so that a "__proto__" key stays a plain key.
  Object.defineProperty(current, last, {
    value: replacement,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

interface SchemaNode {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly patternProperties?: Readonly<Record<string, SchemaNode>>;
  readonly items?: SchemaNode;
  readonly anyOf?: readonly SchemaNode[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly $ref?: string;
  readonly $defs?: unknown;
}

function jsonType(value: unknown): JsonType | undefined {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'object':
      return 'object';
    default:
      return undefined;
  }
}

function schemaTypes(node: SchemaNode): string[] {
  if (node.type !== undefined) return typeof node.type === 'string' ? [node.type] : [...node.type];
  const literals = node.enum ?? (node.const === undefined ? undefined : [node.const]);
  if (literals !== undefined) return [...new Set(literals.map((item) => jsonType(item) ?? 'string'))];
  if (node.anyOf !== undefined) return node.anyOf.flatMap(schemaTypes);
  return [];
}

function accepts(types: readonly string[], type: JsonType): boolean {
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

function walk(node: SchemaNode, value: unknown, path: string, out: SchemaLeaf[]): void {
  if (node.$ref !== undefined || node.$defs !== undefined) return;
  const type = jsonType(value);
  if (type === undefined || type === 'null') return;
  if (node.anyOf !== undefined) {
    const branch = node.anyOf.find((candidate) => accepts(schemaTypes(candidate), type));
    if (branch === undefined) return;
    if (type === 'object' || type === 'array') walk(branch, value, path, out);
    else out.push({ path, accepts: schemaTypes(node) });
    return;
  }
  const types = schemaTypes(node);
  if (types.length === 0) return; // free-form (unknown)
  if (type === 'object' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child =
        node.properties !== undefined && Object.hasOwn(node.properties, key)
          ? node.properties[key]
          : node.patternProperties === undefined
            ? undefined
            : Object.values(node.patternProperties)[0];
      if (child !== undefined) walk(child, record[key], `${path}/${escape(key)}`, out);
    }
    return;
  }
  if (Array.isArray(value)) {
    if (node.items === undefined) return;
    const items = node.items;
    value.forEach((item: unknown, index) => walk(items, item, `${path}/${index}`, out));
    return;
  }
  out.push({ path, accepts: types });
}

function refusedValue(types: readonly string[]): unknown {
  const candidates: readonly [JsonType, unknown][] = [
    ['string', 'not-a-valid-value'],
    ['integer', 12345],
    ['boolean', true],
    ['object', {}],
  ];
  for (const [type, candidate] of candidates) {
    if (!accepts(types, type) && !(type === 'object' && types.length === 0)) return candidate;
  }
  return [];
}

function escape(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

function unescape(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}
