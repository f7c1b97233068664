/**
 * Schema arbitraries for the typed-mode property tests: a JSON Schema inferred from a datum (the
 * way TypeBox would describe it), and the datum as the untyped engine must see it to agree.
 */
import fc from 'fast-check';
import { childShape, nullAs, shapeOf } from '../src/schema.js';
import { datumArb } from './arbitraries.js';

/** How each choice of the inference is made: `nullsAsCollections` lets a null be a nullable map or list. */
interface Choices {
  readonly next: () => number;
  readonly nullsAsCollections: boolean;
}

const NULLABLE_MAP = { anyOf: [{ type: 'object', patternProperties: { '^.*$': {} } }, { type: 'null' }] };
const NULLABLE_LIST = { anyOf: [{ type: 'array', items: {} }, { type: 'null' }] };

/** A schema that `value` satisfies: objects as closed or open structs or as maps, numbers as `number`. */
export function inferSchema(value: unknown, choices: Choices): unknown {
  if (value === null) {
    if (!choices.nullsAsCollections) return { type: 'null' };
    const r = choices.next() % 3;
    return r === 0 ? { type: 'null' } : r === 1 ? NULLABLE_MAP : NULLABLE_LIST;
  }
  if (typeof value === 'string') return { type: 'string' };
  if (typeof value === 'number') return { type: 'number' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (Array.isArray(value)) {
    const items = value.map((v) => inferSchema(v, choices));
    return { type: 'array', items: items.length === 0 ? {} : { anyOf: items } };
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const shape = choices.next() % 4;
  if (shape === 0) {
    const values = entries.map(([, v]) => inferSchema(v, choices));
    return { type: 'object', patternProperties: { '^.*$': values.length === 0 ? {} : { anyOf: values } } };
  }
  const properties = Object.fromEntries(entries.map(([k, v]) => [k, inferSchema(v, choices)]));
  // Open structs (unknown keys allowed) half of the time, so that selectors of absent keys compile.
  return shape === 1
    ? { type: 'object', properties }
    : { type: 'object', properties, additionalProperties: {} };
}

/** `value` with every null that the schema reads as a collection replaced by `{}` or `[]`. */
export function substituteNulls(value: unknown, schema: unknown, root: unknown = schema): unknown {
  return substitute(value, shapeOf(schema, root), root);
}

function substitute(value: unknown, shape: ReturnType<typeof shapeOf>, root: unknown): unknown {
  if (value === null) {
    const as = nullAs(shape);
    return as === 'map' ? {} : as === 'list' ? [] : null;
  }
  if (Array.isArray(value)) {
    return value.map((v, i) => {
      const s = childShape(shape, String(i), root);
      return s === undefined ? v : substitute(v, s, root);
    });
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const s = childShape(shape, k, root);
      out[k] = s === undefined ? v : substitute(v, s, root);
    }
    return out;
  }
  return value;
}

/** A datum with a schema it satisfies. */
export const typedDatumArb = (
  nullsAsCollections: boolean,
): fc.Arbitrary<{ datum: unknown; schema: unknown }> =>
  fc.tuple(datumArb, fc.array(fc.nat(), { minLength: 1, maxLength: 16 })).map(([datum, seeds]) => {
    let i = 0;
    const next = (): number => seeds[i++ % seeds.length] as number;
    return { datum, schema: inferSchema(datum, { next, nullsAsCollections }) };
  });
