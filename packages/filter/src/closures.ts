/**
 * Closure compiling: turns the AST into closures (the path used when code generation is not
 * allowed, and the slow path of generated code for unusual data).
 * @internal
 * @packageDocumentation
 */
import type { CollectionNode, Expression, MatchNode } from './ast.js';
import { FilterEvaluationErrorCode } from './errors.js';
import { goParseFloat, goParseInt } from './internal/go-strconv.js';
import { flatten } from './internal/walk.js';
import {
  type AliasBound,
  compileAbsolutePath,
  compileGetter,
  compilePeek,
  type Context,
  type Env,
  type Frame,
  peekable,
  type Pred,
  type Scope,
  typedSelector,
} from './lookup.js';
import { readerFor } from './readers.js';
import { elementShape } from './schema.js';
import type { TypedSelector } from './typed.js';
import {
  article,
  fail,
  hasOwn,
  isObject,
  kindOf,
  genericMatch,
  intern,
  MISSING,
  NEGATED,
  RawValue,
  safePrint,
  type Site,
} from './values.js';

/**
 * The number a numeric field must equal for `==`/`!=`, when the value converts (else the slow path
 * reports the error): ParseFloat, or in typed mode for an integer field ParseInt.
 */
export function numericConstant(
  node: MatchNode,
  typed: TypedSelector | undefined,
): { ok: boolean; value: number } {
  if (node.operator !== 'equal' && node.operator !== 'not-equal') return { ok: false, value: Number.NaN };
  const raw = node.value?.raw ?? '';
  if (typed?.int === true) {
    const i = goParseInt(raw);
    const n = i.ok ? Number(i.value) : Number.NaN;
    return Number.isSafeInteger(n) ? { ok: true, value: n } : { ok: false, value: Number.NaN };
  }
  const f = goParseFloat(raw);
  return f.ok ? { ok: true, value: f.value } : { ok: false, value: Number.NaN };
}

export function siteOf(
  node: MatchNode | CollectionNode,
  ctx: Context,
  typed: TypedSelector | undefined,
): Site {
  const site: Site = { selector: safePrint(node.selector.path), span: node.span, source: ctx.source };
  return typed === undefined ? site : { ...site, int: typed.int, intItems: typed.intItems };
}

export function compileMatch(node: MatchNode, scope: Scope, ctx: Context): Pred {
  const typed = typedSelector(node.selector, scope, ctx);
  const number = numericConstant(node, typed);
  const site = siteOf(node, ctx, typed);
  const get = compileGetter(node.selector, scope, ctx, site, typed);
  const value = new RawValue(node.value?.raw ?? '');
  const raw = value.raw;
  const generic = genericMatch(node.operator, get, value, site);
  const peek = compilePeek(node.selector, scope, ctx);
  // Fast paths for the common cases, the common case first; anything unusual falls back to the
  // generic closure, which resolves again from the root (lookups are pure, so the answer is the same).
  const k = intern(raw);
  const numOk = number.ok;
  const num = number.value;
  const eq = node.operator === 'equal';
  if (peek === undefined) {
    if (!eq && node.operator !== 'not-equal') return generic;
    // A bound or deep selector: the getter reads, the common kinds are decided here.
    return (root, env) => {
      const v = get(root, env);
      if (v === k) return eq;
      if (typeof v === 'string') return !eq;
      if (typeof v === 'number' && numOk) return (v === num) === eq;
      if (v === MISSING) return !eq;
      return generic(root, env);
    };
  }
  switch (node.operator) {
    case 'equal':
    case 'not-equal': {
      const path = node.selector.path;
      const head = path[0] as string;
      if (path.length === 1) {
        // The read inlined (no peek call): one closure call per clause, a read site per field name.
        const read = readerFor(head);
        return (root, env) => {
          if (typeof root === 'object' && root !== null && !Array.isArray(root)) {
            const v = read(root as Record<string, unknown>, head);
            if (v === k) return eq;
            if (typeof v === 'string') return !eq;
            if (typeof v === 'number' && numOk) return (v === num) === eq;
          }
          return generic(root, env);
        };
      }
      return (root, env) => {
        const v = peek(root);
        if (v === k) return eq;
        if (typeof v === 'string') return !eq;
        if (typeof v === 'number' && numOk) return (v === num) === eq;
        if (v === MISSING) return !eq;
        return generic(root, env);
      };
    }
    case 'in':
    case 'not-in': {
      const positive = node.operator === 'in';
      return (root, env) => {
        const v = peek(root);
        if (Array.isArray(v)) {
          let i = 0;
          for (; i < v.length; i++) {
            const el: unknown = v[i];
            if (el === k) return positive;
            if (typeof el !== 'string') break;
          }
          if (i === v.length) return !positive;
        } else if (typeof v === 'string') return v.includes(raw) === positive;
        else if (v === MISSING) return !positive;
        return generic(root, env);
      };
    }
    default:
      return generic;
  }
}

/**
 * `Field == a or Field == b ...` (or `!=` joined by `and`) on one directly readable selector, as one
 * Set lookup for strings; anything else goes to the chain's own closures.
 */
function compileSetChain(parts: readonly MatchNode[], kind: 'and' | 'or', scope: Scope, ctx: Context): Pred {
  const chain = parts.map((p) => compileMatch(p, scope, ctx));
  const peek = compilePeek((parts[0] as MatchNode).selector, scope, ctx) as (root: unknown) => unknown;
  // not interned: a Set lookup hashes the value and compares content only on a hash match
  const set = new Set(parts.map((p) => p.value?.raw ?? ''));
  const hit = kind === 'or';
  const n = chain.length;
  const slow: Pred = (root, env) => {
    for (let i = 0; i < n; i++) if ((chain[i] as Pred)(root, env) === hit) return hit;
    return !hit;
  };
  return (root, env) => {
    const v = peek(root);
    if (set.has(v as string)) return hit;
    if (typeof v === 'string' || v === MISSING) return !hit;
    return slow(root, env);
  };
}

/** Compiles the operands of an and/or chain, grouping runs of `==` (or) / `!=` (and) on one field. */
function compileParts(parts: readonly Expression[], kind: 'and' | 'or', scope: Scope, ctx: Context): Pred[] {
  const op = kind === 'or' ? 'equal' : 'not-equal';
  const out: Pred[] = [];
  for (let i = 0; i < parts.length;) {
    const p = parts[i] as Expression;
    let j = i + 1;
    if (p.kind === 'match' && p.operator === op && peekable(p.selector, scope, ctx)) {
      const key = p.selector.path.join('\u0000');
      while (j < parts.length) {
        const q = parts[j] as Expression;
        if (q.kind !== 'match' || q.operator !== op || q.selector.path.join('\u0000') !== key) break;
        j++;
      }
    }
    if (j - i >= SET_MIN) out.push(compileSetChain(parts.slice(i, j) as MatchNode[], kind, scope, ctx));
    else {
      j = i + 1;
      out.push(compileExpr(p, scope, ctx));
    }
    i = j;
  }
  return out;
}

/** A run of this many `==` joined by `or` (or `!=` by `and`) on one field becomes one Set lookup. */
const SET_MIN = 4;

/** The scope of a collection's body: its binding names (with typed mode's element chain). */
export function bindingScope(
  node: CollectionNode,
  scope: Scope,
  ctx: Context,
  typed: TypedSelector | undefined,
): { inner: Scope; firstName: string | null; secondName: string | null; duplicate: boolean } {
  const level = scope.level;
  const names = new Map(scope.names);
  const b = node.binding;
  const firstName = b.form === 'single' ? b.name : b.index;
  const secondName = b.form === 'single' ? null : b.value;
  const duplicate = firstName !== null && firstName === secondName;
  // Typed mode: element and value bindings continue the collection's chain with the element shape.
  const chain =
    typed === undefined || ctx.schema === undefined
      ? undefined
      : [...typed.chain, elementShape(typed.leaf, ctx.schema.root)];
  // `as x` binds the element of an array but the key of an object.
  const aliasFirst =
    b.form === 'single' && typed !== undefined && (typed.leaf.any || typed.leaf.lists.length > 0);
  if (firstName !== null)
    names.set(firstName, { level, slot: 'first', chain: aliasFirst ? chain : undefined });
  if (secondName !== null && !duplicate) names.set(secondName, { level, slot: 'second', chain });
  return { inner: { names, level: level + 1 }, firstName, secondName, duplicate };
}

export function compileCollection(node: CollectionNode, scope: Scope, ctx: Context): Pred {
  const typed = typedSelector(node.selector, scope, ctx);
  const site = siteOf(node, ctx, typed);
  const get = compileGetter(node.selector, scope, ctx, site, typed);
  const absolute = compileAbsolutePath(node.selector, scope);
  const level = scope.level;
  const { inner, firstName, duplicate } = bindingScope(node, scope, ctx, typed);
  const b = node.binding;
  const body = compileExpr(node.body, inner, ctx);
  const single = b.form === 'single';
  const isAny = node.quantifier === 'any';
  const word = node.quantifier;
  /**
   * What one evaluation binds: the frame of this level, the environment the body sees, and the two
   * bounds (elements and values are aliases for their path, indexes and keys plain values), updated
   * for each element. A collection reached through unknownValue or a bound value has no path: its
   * aliases fall back to their own key.
   */
  const newState = (): Bindings => {
    const frame: Frame = { first: undefined, second: undefined };
    const inner: Frame[] = [];
    inner[level] = frame;
    return { frame, inner, alias: { base: undefined, key: 0, value: undefined }, plain: { plain: 0 } };
  };
  // One state per compiled collection, reused by every evaluation, so that the loop allocates
  // nothing; an evaluation that starts while another runs (possible only through a getter in the
  // data) gets its own.
  const shared = newState();
  let busy = false;
  const iterate = (root: unknown, env: Env, coll: unknown, state: Bindings): boolean => {
    const { frame, inner, alias, plain } = state;
    for (let i = 0; i < level; i++) inner[i] = env[i] as Frame;
    alias.base = absolute(env);
    if (Array.isArray(coll)) {
      if (single) frame.first = alias;
      else {
        frame.first = plain;
        frame.second = alias;
      }
      const n = coll.length;
      if (n > 0 && duplicate) duplicateBinding(site, 'array', firstName);
      for (let i = 0; i < n; i++) {
        const value: unknown = coll[i];
        alias.key = i;
        alias.value = value === undefined ? null : value;
        plain.plain = i;
        if (body(root, inner) === isAny) return isAny;
      }
      return !isAny;
    }
    frame.first = plain;
    if (!single) frame.second = alias;
    const map = coll as Record<string, unknown>;
    let seen = false;
    for (const key in map) {
      if (!hasOwn.call(map, key)) continue;
      const value = map[key];
      if (value === undefined) continue;
      if (!seen && duplicate) duplicateBinding(site, 'object', firstName);
      seen = true;
      alias.key = key;
      alias.value = value;
      plain.plain = key;
      if (body(root, inner) === isAny) return isAny;
    }
    return !isAny;
  };
  return (root, env) => {
    const coll = get(root, env);
    if (coll === MISSING) return !isAny;
    if (!Array.isArray(coll) && !isObject(coll)) {
      const kind = kindOf(coll);
      fail(
        site,
        FilterEvaluationErrorCode.NotACollection,
        kind,
        `The selector ${site.selector} is ${article(kind)}, not an array or an object, so "${word}" cannot iterate over it.`,
      );
    }
    if (busy) return iterate(root, env, coll, newState());
    busy = true;
    try {
      return iterate(root, env, coll, shared);
    } finally {
      busy = false;
    }
  };
}

/** The bindings of one collection evaluation (see compileCollection). */
interface Bindings {
  readonly frame: Frame;
  readonly inner: Frame[];
  readonly alias: AliasBound;
  readonly plain: { plain: number | string };
}

function duplicateBinding(site: Site, kind: 'array' | 'object', name: string | null): never {
  return fail(
    site,
    FilterEvaluationErrorCode.DuplicateBinding,
    kind,
    `"${String(name)}" cannot be used as the name of both the index and the value.`,
  );
}

export function compileClosures(node: Expression, scope: Scope, ctx: Context): Pred {
  switch (node.kind) {
    case 'or': {
      const parts = compileParts(flatten(node, 'or'), 'or', scope, ctx);
      if (parts.length === 2) {
        const [a, b] = parts as [Pred, Pred];
        return (root, env) => a(root, env) || b(root, env);
      }
      const n = parts.length;
      return (root, env) => {
        for (let i = 0; i < n; i++) if ((parts[i] as Pred)(root, env)) return true;
        return false;
      };
    }
    case 'and': {
      const parts = compileParts(flatten(node, 'and'), 'and', scope, ctx);
      if (parts.length === 2) {
        const [a, b] = parts as [Pred, Pred];
        return (root, env) => a(root, env) && b(root, env);
      }
      if (parts.length === 3) {
        const [a, b, c] = parts as [Pred, Pred, Pred];
        return (root, env) => a(root, env) && b(root, env) && c(root, env);
      }
      const n = parts.length;
      return (root, env) => {
        for (let i = 0; i < n; i++) if (!(parts[i] as Pred)(root, env)) return false;
        return true;
      };
    }
    case 'not': {
      if (node.operand.kind === 'match') {
        // The missing-key defaults of each operator and its negation are complementary, and errors
        // are the same, so `not x == v` is compiled as `x != v` (one closure less).
        const m = node.operand;
        return compileMatch({ ...m, operator: NEGATED[m.operator] }, scope, ctx);
      }
      const p = compileExpr(node.operand, scope, ctx);
      return (root, env) => !p(root, env);
    }
    case 'match':
      return compileMatch(node, scope, ctx);
    case 'collection':
      return compileCollection(node, scope, ctx);
  }
}

export function compileExpr(node: Expression, scope: Scope, ctx: Context): Pred {
  if (node.kind === 'match') return compileMatch(node, scope, ctx);
  return compileClosures(node, scope, ctx);
}
