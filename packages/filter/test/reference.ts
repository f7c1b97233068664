/**
 * A plain tree-walking evaluator written straight from FILTER.md, used as the oracle of the
 * differential property test. It is deliberately naive: recursion, no caching, no fast paths.
 */
import type { Expression, MatchNode } from '../src/ast.js';
import { goParseBool, goParseFloat, goParseInt } from '../src/internal/go-strconv.js';
import { RE2JS } from 're2js';

export class RefError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

type Bound = { alias: string[] } | { int: number } | { str: string };
type Scope = Map<string, Bound>[];

const MISSING = Symbol('missing');
class Int {
  constructor(readonly n: number) {}
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Int);
}

function lookup(datum: unknown, path: string[], unknown: { set: boolean; value: unknown }): unknown {
  let cur = datum;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
    if (Array.isArray(cur)) {
      const p = goParseInt(seg === '' ? '0' : seg);
      if (!p.ok) throw new RefError('invalid-index');
      if (p.value < 0n || p.value >= BigInt(cur.length)) throw new RefError('index-out-of-range');
      cur = cur[Number(p.value)] ?? null;
    } else if (isMap(cur)) {
      if (Object.hasOwn(cur, seg) && cur[seg] !== undefined) cur = cur[seg];
      else if (unknown.set) return unknown.value;
      else if (path.length >= 2 && i === path.length - 1) return MISSING;
      else throw new RefError('missing-key');
    } else {
      throw new RefError('not-a-container');
    }
  }
  return cur;
}

function resolve(
  datum: unknown,
  path: readonly string[],
  scope: Scope,
  unknown: { set: boolean; value: unknown },
): unknown {
  const [head, ...rest] = path;
  for (let i = scope.length - 1; i >= 0; i--) {
    const b = scope[i]!.get(head!);
    if (b === undefined) continue;
    if ('alias' in b) return lookup(datum, [...b.alias, ...rest], unknown);
    if (rest.length > 0) throw new RefError('bound-value-path');
    return 'int' in b ? new Int(b.int) : b.str;
  }
  return lookup(datum, [...path], unknown);
}

function eq(v: unknown, raw: string): boolean {
  if (typeof v === 'string') return v === raw;
  if (typeof v === 'number') {
    const p = goParseFloat(raw);
    if (!p.ok) throw new RefError('invalid-value');
    return v === p.value;
  }
  if (typeof v === 'boolean') {
    const p = goParseBool(raw);
    if (!p.ok) throw new RefError('invalid-value');
    return v === p.value;
  }
  if (v instanceof Int) {
    const p = goParseInt(raw);
    if (!p.ok) throw new RefError('invalid-value');
    return BigInt(v.n) === p.value;
  }
  throw new RefError('unsupported-kind');
}

function inside(v: unknown, raw: string): boolean {
  if (typeof v === 'string') return v.includes(raw);
  if (isMap(v)) return Object.hasOwn(v, raw) && v[raw] !== undefined;
  if (Array.isArray(v)) {
    for (const el of v) {
      if (el === null || el === undefined) throw new RefError('null-element');
      if (typeof el === 'object') throw new RefError('uncomparable-element');
      if (typeof el === 'string' && el === raw) return true;
      if (typeof el === 'number') {
        const p = goParseFloat(raw);
        if (!p.ok && p.reason === 'range') throw new RefError('invalid-value');
        if (p.ok && p.value === el) return true;
      }
      if (typeof el === 'boolean') {
        const p = goParseBool(raw);
        if (p.ok && p.value === el) return true;
      }
    }
    return false;
  }
  throw new RefError('unsupported-kind');
}

function match(
  node: MatchNode,
  datum: unknown,
  scope: Scope,
  unknown: { set: boolean; value: unknown },
): boolean {
  const v = resolve(datum, node.selector.path, scope, unknown);
  const raw = node.value?.raw ?? '';
  const op = node.operator;
  if (v === MISSING) {
    return ['not-equal', 'not-in', 'not-matches', 'is-empty', 'is-nil'].includes(op);
  }
  switch (op) {
    case 'equal':
      return eq(v, raw);
    case 'not-equal':
      return !eq(v, raw);
    case 'in':
      return inside(v, raw);
    case 'not-in':
      return !inside(v, raw);
    case 'is-empty':
    case 'is-not-empty': {
      let empty: boolean;
      if (typeof v === 'string' || Array.isArray(v)) empty = v.length === 0;
      else if (isMap(v)) empty = Object.keys(v).filter((k) => v[k] !== undefined).length === 0;
      else throw new RefError('unsupported-kind');
      return op === 'is-empty' ? empty : !empty;
    }
    case 'is-nil':
    case 'is-not-nil': {
      let nil: boolean;
      if (v === null) nil = true;
      else if (Array.isArray(v) || isMap(v)) nil = false;
      else throw new RefError('unsupported-kind');
      return op === 'is-nil' ? nil : !nil;
    }
    case 'matches':
    case 'not-matches': {
      if (typeof v !== 'string') throw new RefError('unsupported-kind');
      let re: RE2JS;
      try {
        re = RE2JS.compile(raw);
      } catch {
        throw new RefError('invalid-regex');
      }
      const m = re.matcher(v).find();
      return op === 'matches' ? m : !m;
    }
  }
}

/** Evaluates per FILTER.md; throws RefError where the language says evaluation fails. */
export function referenceEvaluate(
  node: Expression,
  datum: unknown,
  options: { unknownValue?: unknown } = {},
  scope: Scope = [],
): boolean {
  const unknown = { set: options.unknownValue !== undefined, value: options.unknownValue };
  switch (node.kind) {
    case 'or':
      return (
        referenceEvaluate(node.left, datum, options, scope) ||
        referenceEvaluate(node.right, datum, options, scope)
      );
    case 'and':
      return (
        referenceEvaluate(node.left, datum, options, scope) &&
        referenceEvaluate(node.right, datum, options, scope)
      );
    case 'not':
      return !referenceEvaluate(node.operand, datum, options, scope);
    case 'match':
      return match(node, datum, scope, unknown);
    case 'collection': {
      const coll = resolve(datum, node.selector.path, scope, unknown);
      const isAny = node.quantifier === 'any';
      if (coll === MISSING) return !isAny;
      if (!Array.isArray(coll) && !isMap(coll)) throw new RefError('not-a-collection');
      // The absolute path of the collection, for aliases.
      const [head, ...rest] = node.selector.path;
      let base: string[] = [...node.selector.path];
      for (let i = scope.length - 1; i >= 0; i--) {
        const b = scope[i]!.get(head!);
        if (b !== undefined) {
          if ('alias' in b) base = [...b.alias, ...rest];
          break;
        }
      }
      const entries: [string | number, string][] = Array.isArray(coll)
        ? coll.map((_, i) => [i, String(i)])
        : Object.keys(coll)
            .filter((k) => coll[k] !== undefined)
            .map((k) => [k, k]);
      if (entries.length === 0) return !isAny;
      const b = node.binding;
      if (b.form === 'pair' && b.index !== null && b.index === b.value)
        throw new RefError('duplicate-binding');
      for (const [key, seg] of entries) {
        const frame = new Map<string, Bound>();
        const alias: Bound = { alias: [...base, seg] };
        const plain: Bound = typeof key === 'number' ? { int: key } : { str: key };
        if (b.form === 'single') frame.set(b.name, Array.isArray(coll) ? alias : { str: seg });
        else {
          if (b.index !== null) frame.set(b.index, plain);
          if (b.value !== null) frame.set(b.value, alias);
        }
        const r = referenceEvaluate(node.body, datum, options, [...scope, frame]);
        if (isAny && r) return true;
        if (!isAny && !r) return false;
      }
      return !isAny;
    }
  }
}
