/**
 * Closure compiling: turns the AST into closures (the path used when code generation is not
 * allowed, and the slow path of generated code for unusual data).
 * @internal
 * @packageDocumentation
 */
import type { CollectionNode, Expression, MatchNode, MatchOperator } from './ast.js';
import { FilterEvaluationErrorCode } from './errors.js';
import { goParseFloat, goParseInt } from './internal/go-strconv.js';
import { flatten } from './internal/walk.js';
import { canGenerate, generateMatch, generateSkeleton } from './codegen.js';
import {
  type Bound,
  compileAbsolutePath,
  compileGetter,
  compilePeek,
  type Context,
  type Frame,
  type Getter,
  peekable,
  type Pred,
  type Scope,
  typedSelector,
} from './lookup.js';
import { elementShape } from './schema.js';
import type { TypedSelector } from './typed.js';
import {
  article,
  contains,
  equalTo,
  fail,
  isEmpty,
  isNil,
  isObject,
  kindOf,
  matches,
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
  if (peekable(node.selector, scope, ctx) && canGenerate()) {
    // The generic closure is only needed for unusual data: build it on first use (compiles faster).
    let slow: Pred | undefined;
    const lazy: Pred = (root, env) => (slow ??= compileGenericMatch(node, scope, ctx, typed))(root, env);
    const generated = generateMatch(node, lazy, number);
    if (generated !== undefined) return generated;
  }
  const site = siteOf(node, ctx, typed);
  const get = compileGetter(node.selector, scope, ctx, site, typed);
  const value = new RawValue(node.value?.raw ?? '');
  const raw = value.raw;
  const generic = genericMatch(node.operator, get, value, site);
  const peek = compilePeek(node.selector, scope, ctx);
  if (peek === undefined) return generic;
  // Fast paths for the common cases; anything unusual falls back to the generic closure, which
  // resolves again from the root (lookups are pure, so the answer is the same).
  const floatOk = number.ok;
  const floatValue = number.value;
  switch (node.operator) {
    case 'equal':
      return (root, env) => {
        const v = peek(root);
        if (typeof v === 'string') return v === raw;
        if (typeof v === 'number' && floatOk) return v === floatValue;
        return generic(root, env);
      };
    case 'not-equal':
      return (root, env) => {
        const v = peek(root);
        if (typeof v === 'string') return v !== raw;
        if (typeof v === 'number' && floatOk) return v !== floatValue;
        return generic(root, env);
      };
    case 'in':
    case 'not-in': {
      const positive = node.operator === 'in';
      return (root, env) => {
        const v = peek(root);
        if (typeof v === 'string') return v.includes(raw) === positive;
        if (Array.isArray(v)) {
          let i = 0;
          for (; i < v.length; i++) {
            const el: unknown = v[i];
            if (typeof el !== 'string') break;
            if (el === raw) return positive;
          }
          if (i === v.length) return !positive;
        }
        return generic(root, env);
      };
    }
    default:
      return generic;
  }
}

export function compileGenericMatch(
  node: MatchNode,
  scope: Scope,
  ctx: Context,
  typed: TypedSelector | undefined,
): Pred {
  const site = siteOf(node, ctx, typed);
  return genericMatch(
    node.operator,
    compileGetter(node.selector, scope, ctx, site, typed),
    new RawValue(node.value?.raw ?? ''),
    site,
  );
}

export function genericMatch(operator: MatchOperator, get: Getter, value: RawValue, site: Site): Pred {
  const raw = value.raw;
  switch (operator) {
    case 'equal':
      return (root, env) => {
        const v = get(root, env);
        if (typeof v === 'string') return v === raw;
        return v === MISSING ? false : equalTo(v, value, site);
      };
    case 'not-equal':
      return (root, env) => {
        const v = get(root, env);
        if (typeof v === 'string') return v !== raw;
        return v === MISSING ? true : !equalTo(v, value, site);
      };
    case 'in':
      return (root, env) => {
        const v = get(root, env);
        return v === MISSING ? false : contains(v, value, site);
      };
    case 'not-in':
      return (root, env) => {
        const v = get(root, env);
        return v === MISSING ? true : !contains(v, value, site);
      };
    case 'matches':
      return (root, env) => {
        const v = get(root, env);
        return v === MISSING ? false : matches(v, value, site);
      };
    case 'not-matches':
      return (root, env) => {
        const v = get(root, env);
        return v === MISSING ? true : !matches(v, value, site);
      };
    case 'is-empty':
      return (root, env) => {
        const v = get(root, env);
        return v === MISSING ? true : isEmpty(v, site);
      };
    case 'is-not-empty':
      return (root, env) => {
        const v = get(root, env);
        return v === MISSING ? false : !isEmpty(v, site);
      };
    case 'is-nil':
      return (root, env) => {
        const v = get(root, env);
        return v === MISSING ? true : isNil(v, site);
      };
    case 'is-not-nil':
      return (root, env) => {
        const v = get(root, env);
        return v === MISSING ? false : !isNil(v, site);
      };
  }
}

export function compileCollection(node: CollectionNode, scope: Scope, ctx: Context): Pred {
  const typed = typedSelector(node.selector, scope, ctx);
  const site = siteOf(node, ctx, typed);
  const get = compileGetter(node.selector, scope, ctx, site, typed);
  const absolute = compileAbsolutePath(node.selector, scope);
  const level = scope.level;
  const names = new Map(scope.names);
  const b = node.binding;
  let firstName: string | null;
  let secondName: string | null;
  if (b.form === 'single') {
    firstName = b.name;
    secondName = null;
  } else {
    firstName = b.index;
    secondName = b.value;
  }
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
  const body = compileExpr(node.body, { names, level: level + 1 }, ctx);
  const single = b.form === 'single';
  const isAny = node.quantifier === 'any';
  const word = node.quantifier;
  return (root, env) => {
    const coll = get(root, env);
    if (coll === MISSING) return !isAny;
    const isArray = Array.isArray(coll);
    if (!isArray && !isObject(coll)) {
      const kind = kindOf(coll);
      fail(
        site,
        FilterEvaluationErrorCode.NotACollection,
        kind,
        `The selector ${site.selector} is ${article(kind)}, not an array or an object, so "${word}" cannot iterate over it.`,
      );
    }
    const keys: readonly (string | number)[] = isArray
      ? Array.from({ length: coll.length }, (_, i) => i)
      : Object.keys(coll).filter((k) => (coll as Record<string, unknown>)[k] !== undefined);
    if (keys.length === 0) return !isAny;
    if (duplicate) {
      fail(
        site,
        FilterEvaluationErrorCode.DuplicateBinding,
        isArray ? 'array' : 'object',
        `"${firstName}" cannot be used as the name of both the index and the value.`,
      );
    }
    const base = absolute(env);
    const frame: Frame = { first: undefined, second: undefined };
    const inner: Frame[] = env.slice(0, level);
    inner[level] = frame;
    for (const key of keys) {
      const seg = String(key);
      // Elements and values are aliases for their path; indexes and keys are plain values.
      // A collection reached through unknownValue or a bound value has no path: fall back to its own.
      const alias: Bound = { alias: base === undefined ? [seg] : [...base, seg] };
      if (single) frame.first = isArray ? alias : { plain: seg };
      else {
        frame.first = isArray ? { plain: key as number } : { plain: seg };
        frame.second = alias;
      }
      const r = body(root, inner);
      if (isAny ? r : !r) return isAny;
    }
    return !isAny;
  };
}

export function compileClosures(node: Expression, scope: Scope, ctx: Context): Pred {
  switch (node.kind) {
    case 'or': {
      const parts = flatten(node, 'or').map((n) => compileExpr(n, scope, ctx));
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
      const parts = flatten(node, 'and').map((n) => compileExpr(n, scope, ctx));
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
  return generateSkeleton(node, (leaf) => compileExpr(leaf, scope, ctx)) ?? compileClosures(node, scope, ctx);
}
