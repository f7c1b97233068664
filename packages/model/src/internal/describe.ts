/**
 * Words for values and expectations in problem messages: `the string "x"`, `an integer`, `one of ...`.
 *
 * @packageDocumentation
 */
import type { TSchema } from 'typebox';
import { parsePointer } from './pointer.js';

/**
 * Schemas may carry `'x-expected'`: the words used for "expected ..." when the value does not match
 * (for example `base64-encoded text`), instead of a pattern only a programmer reads.
 */
export function customExpectation(schema: TSchema, schemaPath: string): string | undefined {
  const node = schemaAt(schema, schemaPath);
  const expected = node?.['x-expected'];
  return typeof expected === 'string' ? expected : undefined;
}

/** The schema node at a schema path (`#/properties/a`), or undefined. */
export function schemaAt(schema: TSchema, schemaPath: string): Record<string, unknown> | undefined {
  if (!schemaPath.startsWith('#')) return undefined;
  let node: unknown = schema;
  for (const segment of parsePointer(schemaPath.slice(1))) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node === null || typeof node !== 'object' ? undefined : (node as Record<string, unknown>);
}

export function typeName(type: unknown): string {
  if (Array.isArray(type)) return joinAlternatives(type.map(typeName));
  switch (type) {
    case 'integer':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    case 'null':
      return 'null';
    default:
      return `a value of type ${String(type)}`;
  }
}

export function joinAlternatives(items: readonly string[]): string {
  const unique = [...new Set(items)];
  if (unique.length <= 1) return unique[0] ?? 'a valid value';
  return `${unique.slice(0, -1).join(', ')} or ${unique.at(-1) ?? ''}`;
}

export function literal(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(truncate(value, 60));
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value) ?? 'undefined';
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * Describes a value in a few words for a message: `the string "x"`, `the number 1.5`, `an array of 3 items`.
 *
 * @internal
 */
export function describe(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return 'nothing';
    case 'string':
      return value.length > 60
        ? `the string ${JSON.stringify(value.slice(0, 60))}… (${value.length} characters)`
        : `the string ${JSON.stringify(value)}`;
    case 'number':
      return `the number ${String(value)}`;
    case 'boolean':
      return `the boolean ${String(value)}`;
    case 'bigint':
      return `the big integer ${String(value)}`;
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return `an array of ${value.length} ${value.length === 1 ? 'item' : 'items'}`;
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}
