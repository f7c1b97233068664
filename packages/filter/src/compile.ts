import type { CollectionNode, Expression, MatchNode, MatchOperator, SelectorNode, Span } from './ast.js';
import {
  type FilterDiagnostic,
  FilterEvaluationError,
  FilterEvaluationErrorCode,
  FilterSyntaxError,
  FilterSyntaxErrorCode,
  type ValueKind,
} from './errors.js';
import { goParseBool, goParseFloat, goParseInt, type GoParse } from './internal/go-strconv.js';
import { compileRegex, type CompiledRegex } from './internal/regex.js';
import { flatten, walk } from './internal/walk.js';
import { type CompileOptions, resolveLimits } from './options.js';
import { parseFilter, sourceOf } from './parse.js';
import { printSelector } from './print.js';
import { elementShape, type NullAs, type Shape, shapeOf } from './schema.js';
import { resolveTyped, type TypedSelector } from './typed.js';

/**
 * A compiled filter: `true` to keep the datum.
 * @since 0.1.0
 */
export type FilterPredicate = (datum: unknown) => boolean;

/** A value bound by `as`: an alias for a path, or a plain index/key. */
type Bound = { readonly alias: readonly string[] } | { readonly plain: number | string };
/** One collection level's bindings at run time. */
interface Frame {
  first: Bound | undefined;
  second: Bound | undefined;
}
type Env = readonly Frame[];
type Pred = (root: unknown, env: Env) => boolean;

/** Typed mode: what a `null` map field reads as (an empty map; `is nil` still sees it as nil). */
const NULL_MAP: Readonly<Record<string, unknown>> = Object.freeze({});
/** Typed mode: what a `null` list field reads as (an empty list; `is nil` still sees it as nil). */
const NULL_LIST: readonly unknown[] = Object.freeze([]);

/** Marks a missing last key under an object: the operator's default applies. */
const MISSING: unique symbol = Symbol('missing');
/** A Go int (array index bound by `as i, v`): compared with ParseInt, not ParseFloat. */
class IntValue {
  constructor(readonly n: number) {}
}

const hasOwn = {
  call: (o: object, key: string): boolean => Object.hasOwn(o, key),
};

function kindOf(v: unknown): ValueKind {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'object':
      if (Array.isArray(v)) return 'array';
      if (v instanceof IntValue) return 'integer';
      return 'object';
    default:
      return 'unsupported';
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof IntValue);
}

function article(kind: ValueKind): string {
  switch (kind) {
    case 'null':
      return 'null';
    case 'array':
    case 'integer':
    case 'object':
    case 'unsupported':
      return `an ${kind === 'unsupported' ? 'unsupported value' : kind}`;
    default:
      return `a ${kind}`;
  }
}

function pointer(path: readonly string[]): string {
  return '/' + path.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
}

function safePrint(path: readonly string[]): string {
  try {
    return printSelector(path);
  } catch {
    return pointer(path);
  }
}

/** Static facts about one clause, for its errors. */
interface Site {
  readonly selector: string;
  readonly span: Span;
  readonly source: string | undefined;
  /** Typed mode: the field holds Go integers (`==` parses the value with ParseInt). */
  readonly int?: boolean;
  /** Typed mode: the field is a list of Go integers. */
  readonly intItems?: boolean;
}

function fail(site: Site, code: FilterEvaluationErrorCode, kind: ValueKind, reason: string): never {
  throw new FilterEvaluationError({
    code,
    reason,
    selector: site.selector,
    valueKind: kind,
    span: site.span,
    source: site.source,
  });
}

interface ScopeName {
  readonly level: number;
  readonly slot: 'first' | 'second';
  /** Typed mode, element/value bindings: shapes along the binding's absolute path. */
  readonly chain?: readonly Shape[] | undefined;
}

interface Scope {
  readonly names: ReadonlyMap<string, ScopeName>;
  readonly level: number;
}

const EMPTY_SCOPE: Scope = { names: new Map(), level: 0 };

interface Context {
  readonly source: string | undefined;
  readonly unknownSet: boolean;
  readonly unknownValue: unknown;
  /** Typed mode: the schema of the items, and its shape. */
  readonly schema: { readonly root: unknown; readonly shape: Shape } | undefined;
}

/** Typed mode: resolves a selector against the schema (throws `unknown-field`); undefined when untyped. */
function typedSelector(selector: SelectorNode, scope: Scope, ctx: Context): TypedSelector | undefined {
  if (ctx.schema === undefined) return undefined;
  const bound = scope.names.get(selector.path[0] as string);
  if (bound === undefined) return resolveTyped(selector, [ctx.schema.shape], 0, ctx.schema.root, ctx.source);
  // An index or key binding holds a plain value: nothing to check (selecting through it fails when run).
  if (bound.chain === undefined) return undefined;
  return resolveTyped(selector, bound.chain, 1, ctx.schema.root, ctx.source);
}

function nullRead(kind: NullAs, cur: unknown): unknown {
  return kind === 'map' ? NULL_MAP : kind === 'list' ? NULL_LIST : cur;
}

type Getter = (root: unknown, env: Env) => unknown;

/** Follows `path` from `root` (section 3 of the design: lookup, defaults, errors). */
function walkPath(
  root: unknown,
  path: readonly string[],
  ctx: Context,
  site: Site,
  typedNulls?: readonly NullAs[],
): unknown {
  let cur = root;
  const n = path.length;
  // Typed mode: `nulls[i]` says how a null after i segments reads (only when the path has the expected length).
  const nulls = typedNulls !== undefined && typedNulls.length === n + 1 ? typedNulls : undefined;
  for (let i = 0; i < n; i++) {
    const seg = path[i] as string;
    if (cur === null && nulls !== undefined) cur = nullRead(nulls[i], cur);
    if (Array.isArray(cur)) {
      const parsed = goParseInt(seg === '' ? '0' : seg);
      if (!parsed.ok) {
        fail(
          site,
          FilterEvaluationErrorCode.InvalidIndex,
          'array',
          `The selector ${site.selector} uses ${JSON.stringify(seg)} as an index into the array at ${pointer(path.slice(0, i))}, but it is not an integer.`,
        );
      }
      const idx = parsed.value;
      if (idx < 0n || idx >= BigInt(cur.length)) {
        fail(
          site,
          FilterEvaluationErrorCode.IndexOutOfRange,
          'array',
          `The selector ${site.selector} uses index ${idx} at ${pointer(path.slice(0, i))}, out of range for an array of length ${cur.length}.`,
        );
      }
      const next: unknown = cur[Number(idx)];
      cur = next === undefined ? null : next;
    } else if (isObject(cur)) {
      const next = cur[seg];
      if (next !== undefined && hasOwn.call(cur, seg)) {
        cur = next;
        continue;
      }
      if (ctx.unknownSet) return ctx.unknownValue;
      if (n >= 2 && i === n - 1) return MISSING;
      fail(
        site,
        FilterEvaluationErrorCode.MissingKey,
        'missing',
        `The selector ${site.selector} does not resolve: there is no key ${JSON.stringify(seg)} at ${pointer(path.slice(0, i)) === '/' ? 'the top level' : pointer(path.slice(0, i))}.`,
      );
    } else {
      const kind = kindOf(cur);
      fail(
        site,
        FilterEvaluationErrorCode.NotAContainer,
        kind,
        `The selector ${site.selector} goes through ${article(kind)} at ${i === 0 ? 'the top level' : pointer(path.slice(0, i))}, which has no fields or elements.`,
      );
    }
  }
  return cur === null && nulls !== undefined ? nullRead(nulls[n], cur) : cur;
}

function compileGetter(
  selector: SelectorNode,
  scope: Scope,
  ctx: Context,
  site: Site,
  typed?: TypedSelector,
): Getter {
  const path = selector.path;
  const head = path[0] as string;
  const bound = scope.names.get(head);
  const nulls = typed?.nulls;
  if (bound !== undefined) {
    const rest = path.slice(1);
    const { level, slot } = bound;
    return (root, env) => {
      const b = (env[level] as Frame)[slot] as Bound;
      if ('alias' in b)
        return walkPath(root, rest.length === 0 ? b.alias : [...b.alias, ...rest], ctx, site, nulls);
      if (rest.length > 0) {
        fail(
          site,
          FilterEvaluationErrorCode.BoundValuePath,
          typeof b.plain === 'number' ? 'integer' : 'string',
          `The selector ${site.selector} goes through "${head}", which holds ${typeof b.plain === 'number' ? 'an integer index' : 'a string key'}, not a path.`,
        );
      }
      return typeof b.plain === 'number' ? new IntValue(b.plain) : b.plain;
    };
  }
  if (nulls !== undefined) return (root) => walkPath(root, path, ctx, site, nulls);
  if (path.length === 1 && !ctx.unknownSet) {
    const inherited = head in Object.prototype;
    return (root) => {
      if (typeof root === 'object' && root !== null && !Array.isArray(root)) {
        const v = (root as Record<string, unknown>)[head];
        if (v !== undefined && (!inherited || hasOwn.call(root, head))) return v;
      }
      return walkPath(root, path, ctx, site);
    };
  }
  if (path.length === 2 && !ctx.unknownSet) {
    const second = path[1] as string;
    const inherited = head in Object.prototype || second in Object.prototype;
    return (root) => {
      if (!inherited && typeof root === 'object' && root !== null && !Array.isArray(root)) {
        const mid = (root as Record<string, unknown>)[head];
        if (typeof mid === 'object' && mid !== null && !Array.isArray(mid)) {
          const v = (mid as Record<string, unknown>)[second];
          if (v !== undefined) return v;
        }
      }
      return walkPath(root, path, ctx, site);
    };
  }
  return (root) => walkPath(root, path, ctx, site);
}

/** Lazily parsed forms of a raw value (the reference converts on every evaluation; results are pure). */
class RawValue {
  private f: GoParse<number> | undefined;
  private b: GoParse<boolean> | undefined;
  private i: GoParse<bigint> | undefined;
  private r: CompiledRegex | undefined;
  constructor(readonly raw: string) {}
  float(): GoParse<number> {
    return (this.f ??= goParseFloat(this.raw));
  }
  bool(): GoParse<boolean> {
    return (this.b ??= goParseBool(this.raw));
  }
  int(): GoParse<bigint> {
    return (this.i ??= goParseInt(this.raw));
  }
  regex(): CompiledRegex {
    return (this.r ??= compileRegex(this.raw));
  }
}

function oneLine(text: string): string {
  return text.replaceAll('\r', '\\r').replaceAll('\n', '\\n');
}

function invalidValue(site: Site, raw: string, kind: ValueKind, why: string): never {
  fail(
    site,
    FilterEvaluationErrorCode.InvalidValue,
    kind,
    `The value ${JSON.stringify(raw)} cannot be compared with ${site.selector}, which is ${article(kind)}: ${why}.`,
  );
}

function equalTo(v: unknown, value: RawValue, site: Site): boolean {
  if (typeof v === 'string') return v === value.raw;
  if (typeof v === 'number' && site.int === true) return intEqual(v, value, site);
  if (typeof v === 'number') {
    const f = value.float();
    if (!f.ok)
      invalidValue(
        site,
        value.raw,
        'number',
        f.reason === 'range' ? 'it is out of the float64 range' : 'it is not a number',
      );
    return v === f.value;
  }
  if (typeof v === 'boolean') {
    const b = value.bool();
    if (!b.ok)
      invalidValue(
        site,
        value.raw,
        'boolean',
        'it is not one of 1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False',
      );
    return v === b.value;
  }
  if (v instanceof IntValue) {
    const i = value.int();
    if (!i.ok)
      invalidValue(
        site,
        value.raw,
        'integer',
        i.reason === 'range' ? 'it is out of the int64 range' : 'it is not an integer',
      );
    return BigInt(v.n) === i.value;
  }
  const kind = kindOf(v);
  return fail(
    site,
    FilterEvaluationErrorCode.UnsupportedKind,
    kind,
    `The selector ${site.selector} is ${article(kind)}; "==" and "!=" compare only strings, numbers and booleans.`,
  );
}

/** Typed mode: a Go integer field compared with ParseInt (`50.0` is an error, `0x32` is 50). */
function intEqual(v: number, value: RawValue, site: Site): boolean {
  const i = value.int();
  if (!i.ok)
    invalidValue(
      site,
      value.raw,
      'integer',
      i.reason === 'range' ? 'it is out of the int64 range' : 'it is not an integer',
    );
  return Number.isInteger(v) && BigInt(v) === i.value;
}

function contains(v: unknown, value: RawValue, site: Site): boolean {
  if (typeof v === 'string') return v.includes(value.raw);
  if (Array.isArray(v)) {
    const raw = value.raw;
    for (let i = 0; i < v.length; i++) {
      const el: unknown = v[i];
      if (typeof el === 'string') {
        if (el === raw) return true;
      } else if (typeof el === 'number' && site.intItems === true) {
        if (intEqual(el, value, site)) return true;
      } else if (typeof el === 'number') {
        const f = value.float();
        if (f.ok) {
          if (el === f.value) return true;
        } else if (f.reason === 'range') {
          invalidValue(site, raw, 'number', `it is out of the float64 range (element ${i})`);
        }
      } else if (typeof el === 'boolean') {
        const b = value.bool();
        if (b.ok && el === b.value) return true;
      } else {
        const kind = kindOf(el);
        fail(
          site,
          kind === 'null'
            ? FilterEvaluationErrorCode.NullElement
            : FilterEvaluationErrorCode.UncomparableElement,
          kind,
          `The array ${site.selector} has ${article(kind)} element at index ${i}, which "in" cannot compare.`,
        );
      }
    }
    return false;
  }
  if (isObject(v)) return v[value.raw] !== undefined && hasOwn.call(v, value.raw);
  const kind = kindOf(v);
  return fail(
    site,
    FilterEvaluationErrorCode.UnsupportedKind,
    kind,
    `The selector ${site.selector} is ${article(kind)}; "in" and "contains" work on strings, arrays and objects.`,
  );
}

function isEmpty(v: unknown, site: Site): boolean {
  if (typeof v === 'string' || Array.isArray(v)) return v.length === 0;
  if (isObject(v)) {
    for (const k in v) if (hasOwn.call(v, k) && v[k] !== undefined) return false;
    return true;
  }
  const kind = kindOf(v);
  return fail(
    site,
    FilterEvaluationErrorCode.UnsupportedKind,
    kind,
    `The selector ${site.selector} is ${article(kind)}; "is empty" works on strings, arrays and objects.`,
  );
}

function isNil(v: unknown, site: Site): boolean {
  if (v === null || v === undefined || v === NULL_MAP || v === NULL_LIST) return true;
  if (typeof v === 'object' && !(v instanceof IntValue)) return false;
  const kind = kindOf(v);
  return fail(
    site,
    FilterEvaluationErrorCode.UnsupportedKind,
    kind,
    `The selector ${site.selector} is ${article(kind)}; "is nil" works on null, arrays and objects.`,
  );
}

function matches(v: unknown, value: RawValue, site: Site): boolean {
  if (typeof v !== 'string') {
    const kind = kindOf(v);
    fail(
      site,
      FilterEvaluationErrorCode.UnsupportedKind,
      kind,
      `The selector ${site.selector} is ${article(kind)}; "matches" works on strings only.`,
    );
  }
  const re = value.regex();
  if (!re.ok) {
    fail(
      site,
      FilterEvaluationErrorCode.InvalidRegex,
      'string',
      `The regular expression ${JSON.stringify(value.raw)} is invalid: ${oneLine(re.reason)}.`,
    );
  }
  return re.test(v);
}

const NEGATED: Readonly<Record<MatchOperator, MatchOperator>> = {
  equal: 'not-equal',
  'not-equal': 'equal',
  in: 'not-in',
  'not-in': 'in',
  matches: 'not-matches',
  'not-matches': 'matches',
  'is-empty': 'is-not-empty',
  'is-not-empty': 'is-empty',
  'is-nil': 'is-not-nil',
  'is-not-nil': 'is-nil',
};

/**
 * The number a numeric field must equal for `==`/`!=`, when the value converts (else the slow path
 * reports the error): ParseFloat, or in typed mode for an integer field ParseInt.
 */
function numericConstant(node: MatchNode, typed: TypedSelector | undefined): { ok: boolean; value: number } {
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

function siteOf(node: MatchNode | CollectionNode, ctx: Context, typed: TypedSelector | undefined): Site {
  const site: Site = { selector: safePrint(node.selector.path), span: node.span, source: ctx.source };
  return typed === undefined ? site : { ...site, int: typed.int, intItems: typed.intItems };
}

function compileMatch(node: MatchNode, scope: Scope, ctx: Context): Pred {
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

function compileGenericMatch(
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

/** Names that plain objects inherit (a read of them needs an own-property check). */
const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Whether a selector can be read directly (one or two segments, unbound, no inherited names). */
function peekable(selector: SelectorNode, scope: Scope, ctx: Context): boolean {
  const path = selector.path;
  if (path.length > 2 || ctx.unknownSet || scope.names.has(path[0] as string)) return false;
  for (const seg of path) if (PROTOTYPE_NAMES.has(seg)) return false;
  return true;
}

/** A quick read of a one- or two-segment unbound selector on plain objects; undefined means "use the full lookup". */
function compilePeek(
  selector: SelectorNode,
  scope: Scope,
  ctx: Context,
): ((root: unknown) => unknown) | undefined {
  const path = selector.path;
  if (!peekable(selector, scope, ctx)) return undefined;
  if (path.length === 1) {
    const head = path[0] as string;
    return (root) =>
      typeof root === 'object' && root !== null && !Array.isArray(root)
        ? (root as Record<string, unknown>)[head]
        : undefined;
  }
  if (path.length === 2) {
    const head = path[0] as string;
    const second = path[1] as string;
    return (root) => {
      if (typeof root !== 'object' || root === null || Array.isArray(root)) return undefined;
      const mid = (root as Record<string, unknown>)[head];
      return typeof mid === 'object' && mid !== null && !Array.isArray(mid)
        ? (mid as Record<string, unknown>)[second]
        : undefined;
    };
  }
  return undefined;
}

function genericMatch(operator: MatchOperator, get: Getter, value: RawValue, site: Site): Pred {
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

/** The absolute path a selector denotes, given the aliases in scope (for bindings). */
function compileAbsolutePath(
  selector: SelectorNode,
  scope: Scope,
): (env: Env) => readonly string[] | undefined {
  const path = selector.path;
  const bound = scope.names.get(path[0] as string);
  if (bound === undefined) return () => path;
  const rest = path.slice(1);
  return (env) => {
    const b = (env[bound.level] as Frame)[bound.slot] as Bound;
    return 'alias' in b ? [...b.alias, ...rest] : undefined;
  };
}

function compileCollection(node: CollectionNode, scope: Scope, ctx: Context): Pred {
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

function compileClosures(node: Expression, scope: Scope, ctx: Context): Pred {
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

// ---- Code generation (optional) ----
//
// Closures built from one function literal share V8's type feedback, so a filter's clauses make
// each other's call sites and property loads polymorphic. When the environment allows
// `new Function` (not under a strict Content-Security-Policy), each boolean skeleton and each
// simple clause gets its own generated function, cached by shape, so property loads and calls stay
// monomorphic as in a hand-written closure. Without `new Function`, the closures above are used;
// answers are identical either way (the generated code only covers the fast paths and calls the
// generic closure for everything else).

let codegenAvailable: boolean | undefined;
function canGenerate(): boolean {
  if (codegenAvailable === undefined) {
    try {
      // oxlint-disable-next-line typescript/no-implied-eval -- deliberate: feature detection of code generation
      codegenAvailable = (new Function('return 1') as () => number)() === 1;
    } catch {
      codegenAvailable = false;
    }
  }
  return codegenAvailable;
}

/**
 * Forces code generation on or off (`undefined` detects again). For tests of both paths.
 * @internal
 */
export function setCodegen(enabled: boolean | undefined): void {
  codegenAvailable = enabled;
}

const FACTORY_CACHE_LIMIT = 512;
type MatchFactory = (
  raw: string,
  floatOk: boolean,
  floatValue: number,
  generic: Pred,
  re: () => ((input: string) => boolean) | undefined,
) => Pred;
type SkeletonFactory = (...parts: Pred[]) => Pred;
const matchFactories = new Map<string, MatchFactory>();
const skeletonFactories = new Map<string, SkeletonFactory>();

function cached<F>(cache: Map<string, F>, key: string, make: () => F): F | undefined {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  if (cache.size >= FACTORY_CACHE_LIMIT) return undefined;
  const made = make();
  cache.set(key, made);
  return made;
}

const MATCH_BODIES: Partial<Record<MatchOperator, string>> = {
  equal:
    "if (typeof v === 'string') return v === raw; if (typeof v === 'number' && floatOk) return v === floatValue;",
  'not-equal':
    "if (typeof v === 'string') return v !== raw; if (typeof v === 'number' && floatOk) return v !== floatValue;",
  in: "if (typeof v === 'string') return v.includes(raw); if (Array.isArray(v)) { let i = 0; for (; i < v.length; i++) { const el = v[i]; if (typeof el !== 'string') break; if (el === raw) return true; } if (i === v.length) return false; }",
  matches: "if (typeof v === 'string') { const t = re(); if (t !== undefined) return t(v); }",
  'not-matches': "if (typeof v === 'string') { const t = re(); if (t !== undefined) return !t(v); }",
  'not-in':
    "if (typeof v === 'string') return !v.includes(raw); if (Array.isArray(v)) { let i = 0; for (; i < v.length; i++) { const el = v[i]; if (typeof el !== 'string') break; if (el === raw) return false; } if (i === v.length) return true; }",
};

/** A generated fast path for a one- or two-segment selector, or undefined. */
function generateMatch(
  node: MatchNode,
  generic: Pred,
  number: { readonly ok: boolean; readonly value: number },
): Pred | undefined {
  const body = MATCH_BODIES[node.operator];
  const path = node.selector.path;
  if (body === undefined) return undefined;
  const key =
    path.length === 1
      ? `${node.operator}|${path[0] as string}`
      : `${node.operator}|${path[0] as string}\u0000${path[1] as string}`;
  const factory = cached(matchFactories, key, () => {
    const isObj = (x: string): string => `typeof ${x} === 'object' && ${x} !== null && !Array.isArray(${x})`;
    const read =
      path.length === 1
        ? `const v = root[${JSON.stringify(path[0])}];`
        : `const m = root[${JSON.stringify(path[0])}]; if (!(${isObj('m')})) return generic(root, env); const v = m[${JSON.stringify(path[1])}];`;
    // oxlint-disable-next-line typescript/no-implied-eval -- generated from JSON-quoted keys only; see above
    return new Function(
      'raw',
      'floatOk',
      'floatValue',
      'generic',
      're',
      `return function match(root, env) { if (${isObj('root')}) { ${read} ${body} } return generic(root, env); };`,
    ) as MatchFactory;
  });
  if (factory === undefined) return undefined;
  const raw = node.value?.raw ?? '';
  // The regex is compiled when first needed; an invalid one goes to the generic path, which reports it.
  let compiled: CompiledRegex | undefined;
  const re = (): ((input: string) => boolean) | undefined => {
    compiled ??= compileRegex(raw);
    return compiled.ok ? compiled.test : undefined;
  };
  return factory(raw, number.ok, number.value, generic, re);
}

const MAX_SKELETON_LEAVES = 64;

/** Generates one function for the and/or/not structure above the clauses, or undefined. */
function generateSkeleton(node: Expression, scope: Scope, ctx: Context): Pred | undefined {
  if (!canGenerate() || (node.kind !== 'and' && node.kind !== 'or' && node.kind !== 'not')) return undefined;
  const leaves: Expression[] = [];
  const text = (n: Expression): string | undefined => {
    switch (n.kind) {
      case 'and':
      case 'or': {
        const parts = flatten(n, n.kind).map(text);
        if (parts.some((p) => p === undefined)) return undefined;
        return `(${parts.join(n.kind === 'and' ? ' && ' : ' || ')})`;
      }
      case 'not': {
        if (n.operand.kind === 'match') {
          leaves.push({ ...n.operand, operator: NEGATED[n.operand.operator] });
          return `p${leaves.length - 1}(r, e)`;
        }
        const inner = text(n.operand);
        return inner === undefined ? undefined : `!${inner}`;
      }
      default:
        if (leaves.length >= MAX_SKELETON_LEAVES) return undefined;
        leaves.push(n);
        return `p${leaves.length - 1}(r, e)`;
    }
  };
  const expr = text(node);
  if (expr === undefined || leaves.length > MAX_SKELETON_LEAVES) return undefined;
  const names = leaves.map((_, i) => `p${i}`);
  const factory = cached(
    skeletonFactories,
    expr,
    // oxlint-disable-next-line typescript/no-implied-eval -- generated from p0..pN names and && || ! only
    () => new Function(...names, `return function filter(r, e) { return ${expr}; };`) as SkeletonFactory,
  );
  if (factory === undefined) return undefined;
  return factory(...leaves.map((leaf) => compileExpr(leaf, scope, ctx)));
}

function compileExpr(node: Expression, scope: Scope, ctx: Context): Pred {
  if (node.kind === 'match') return compileMatch(node, scope, ctx);
  return generateSkeleton(node, scope, ctx) ?? compileClosures(node, scope, ctx);
}

function limitError(
  source: string,
  code: FilterSyntaxErrorCode,
  message: string,
  span: Span,
): FilterSyntaxError {
  const diag: FilterDiagnostic = {
    kind: 'limit',
    code,
    message,
    offset: span.start,
    length: span.end - span.start,
    line: 1,
    column: span.start + 1,
    expected: [],
  };
  return new FilterSyntaxError(source, [diag]);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object')
    return `an object with kind ${JSON.stringify((value as { kind?: unknown }).kind) ?? 'undefined'}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return `${typeof value} ${value}`;
  return typeof value;
}

function children(node: Expression): unknown[] {
  switch (node.kind) {
    case 'and':
    case 'or':
      return [node.left, node.right];
    case 'not':
      return [node.operand];
    case 'collection':
      return [node.body];
    default:
      return [];
  }
}

/** Checks an AST that did not come from parseFilter against the limits (iteratively). */
function checkAst(ast: Expression, options: CompileOptions | undefined): void {
  const limits = resolveLimits(options);
  const maxNodeDepth = 3 * limits.maxDepth + 3;
  let clauses = 0;
  let problem: FilterSyntaxError | undefined;
  const kinds = new Set(['and', 'or', 'not', 'match', 'collection']);
  if (typeof ast !== 'object' || ast === null || !kinds.has((ast as { kind?: unknown }).kind as string)) {
    throw new TypeError(`compileFilter needs filter text or an expression AST but got ${describe(ast)}.`);
  }
  walk(ast, (node, depth) => {
    if (problem !== undefined) return;
    for (const child of children(node)) {
      if (
        typeof child !== 'object' ||
        child === null ||
        !kinds.has((child as { kind?: unknown }).kind as string)
      ) {
        throw new TypeError(
          `The expression AST has an invalid node under a "${node.kind}" node: ${describe(child)}.`,
        );
      }
    }
    if ((node.kind === 'match' || node.kind === 'collection') && !Array.isArray(node.selector?.path)) {
      throw new TypeError(`The expression AST has a "${node.kind}" node without a selector path.`);
    }
    if (depth > maxNodeDepth) {
      problem = limitError(
        '',
        FilterSyntaxErrorCode.TooDeep,
        `The expression nests more than ${maxNodeDepth} operators deep, the limit for ASTs (3 × maxDepth + 3).`,
        node.span,
      );
    } else if (node.kind === 'match' || node.kind === 'collection') {
      clauses++;
      if (clauses > limits.maxClauses) {
        problem = limitError(
          '',
          FilterSyntaxErrorCode.TooManyClauses,
          `The expression has more than ${limits.maxClauses} clauses, the limit.`,
          node.span,
        );
      }
      if (
        options?.strictRegex === true &&
        node.kind === 'match' &&
        node.value !== null &&
        (node.operator === 'matches' || node.operator === 'not-matches')
      ) {
        const r = compileRegex(node.value.raw);
        if (!r.ok) {
          problem = limitError(
            '',
            FilterSyntaxErrorCode.InvalidRegex,
            `The regular expression ${JSON.stringify(node.value.raw)} is invalid: ${r.reason}.`,
            node.value.span,
          );
        }
      }
    }
  });
  if (problem !== undefined) throw problem;
}

/**
 * Compiles a filter into a reusable predicate.
 *
 * Parsing and all static checks happen here; the predicate only evaluates. It answers exactly as
 * the reference (go-bexpr v0.1.16 on JSON data) does, and throws a {@link FilterEvaluationError}
 * where the reference returns an error (for example a missing top-level key). The predicate is
 * pure and can be shared; regular expressions are compiled the first time their clause is reached.
 *
 * @param textOrAst - Filter text, or an AST from {@link parseFilter} or the builder.
 * @param options - Limits, `strictRegex` and `unknownValue`.
 * @returns `(datum) => boolean`.
 * @throws {@link FilterSyntaxError} when the text does not parse or exceeds a limit (never
 *   anything else for text); a TypeError when given something that is neither text nor an AST.
 * @example
 * ```ts
 * const keep = compileFilter('Status == "running" and Meta.owner == "team-a"');
 * keep({ Status: 'running', Meta: { owner: 'team-a' } }); // true
 * ```
 * @since 0.1.0
 */
export function compileFilter(textOrAst: string | Expression, options?: CompileOptions): FilterPredicate {
  let ast: Expression;
  let source: string | undefined;
  if (typeof textOrAst === 'string') {
    const result = parseFilter(textOrAst, options);
    if (!result.ok) throw new FilterSyntaxError(textOrAst, result.diagnostics);
    ast = result.ast;
    source = textOrAst;
  } else {
    ast = textOrAst;
    source = sourceOf(ast);
    if (source === undefined || options?.strictRegex === true) checkAst(ast, options);
  }
  const unknownSet = options !== undefined && 'unknownValue' in options && options.unknownValue !== undefined;
  const schema = options?.schema;
  if (
    schema !== undefined &&
    (typeof schema !== 'object' || schema === null) &&
    typeof schema !== 'boolean'
  ) {
    throw new TypeError(`The schema option needs a JSON Schema object but got ${describe(schema)}.`);
  }
  const ctx: Context = {
    source,
    unknownSet,
    unknownValue: unknownSet ? options.unknownValue : undefined,
    schema: schema === undefined ? undefined : { root: schema, shape: shapeOf(schema, schema) },
  };
  const pred = compileExpr(ast, EMPTY_SCOPE, ctx);
  const env: Env = [];
  return (datum) => pred(datum, env);
}

/**
 * Evaluates a filter against one datum.
 *
 * @param textOrAst - Filter text or AST.
 * @param datum - JSON-like data (objects, arrays, strings, numbers, booleans, null).
 * @param options - As for {@link compileFilter}.
 * @returns Whether the datum passes.
 * @throws {@link FilterSyntaxError} for invalid text; {@link FilterEvaluationError} where evaluation fails.
 * @example
 * ```ts
 * evaluateFilter('"dc1" in Datacenters', { Datacenters: ['dc1', 'dc2'] }); // true
 * ```
 * @since 0.1.0
 */
export function evaluateFilter(
  textOrAst: string | Expression,
  datum: unknown,
  options?: CompileOptions,
): boolean {
  return compileFilter(textOrAst, options)(datum);
}

/**
 * Keeps the items a filter accepts, in order. The first evaluation error aborts the whole call,
 * as the reference server's paginator does. An empty text (`""`) keeps everything, like
 * go-bexpr's `CreateFilter("")`; whitespace-only text is a syntax error.
 *
 * @param textOrAst - Filter text or AST.
 * @param items - Any iterable of JSON-like items.
 * @param options - As for {@link compileFilter}.
 * @returns A new array.
 * @throws {@link FilterSyntaxError} for invalid text; {@link FilterEvaluationError} from the first failing
 *   item; a TypeError when `items` is not iterable.
 * @example
 * ```ts
 * filterItems('Priority != 50', [{ Priority: 50 }, { Priority: 70 }]); // [{ Priority: 70 }]
 * ```
 * @since 0.1.0
 */
export function filterItems<T>(
  textOrAst: string | Expression,
  items: Iterable<T>,
  options?: CompileOptions,
): T[] {
  if (typeof (items as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] !== 'function') {
    throw new TypeError(`filterItems needs an iterable of items but got ${describe(items)}.`);
  }
  if (textOrAst === '') return [...items];
  const keep = compileFilter(textOrAst, options);
  const out: T[] = [];
  for (const item of items) if (keep(item)) out.push(item);
  return out;
}
