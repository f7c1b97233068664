/**
 * Code generation (where `new Function` is allowed): the whole expression becomes ONE function, as
 * close to a hand-written closure as the language allows. Each clause reads its field directly and
 * decides on the common case (`v === "running"` first, the type check only when that fails); on any
 * other value it gives up (RARE, runtime.ts) and the whole expression's closure answers or throws
 * exactly as the reference does. Lookups are pure, so evaluating again from the root gives the same
 * answer. A clause with no fast path (a long path, a typed `unknownValue`) calls its own closure.
 * @internal
 * @packageDocumentation
 */
import type { CollectionNode, Expression, MatchNode, MatchOperator } from './ast.js';
import { bindingScope, compileCollection, compileExpr, compileMatch, numericConstant } from './closures.js';
import { cachedFactory } from './codegen.js';
import { compileRegex } from './internal/regex.js';
import { flatten } from './internal/walk.js';
import { type Context, EMPTY_SCOPE, type Scope, typedSelector } from './lookup.js';
import { type Factory, lazy, load, makeFactory, RARE } from './runtime.js';
import type { Step } from './shapes.js';
import { intern, MISSING_DEFAULT, NEGATED } from './values.js';

/** Most clauses generated into one function (larger filters use closures). */
const MAX_CLAUSES = 256;
/** Deepest `any`/`all` nesting generated inline (deeper ones run their generic closure). */
const MAX_LOOPS = 3;
/** An `or` of this many `==` (or an `and` of `!=`) on one field becomes one `Set` lookup. */
const SET_MIN = 6;

/** Segments read with `o["name"]` (an index, a digit string, goes through the generic lookup). */
const SAFE_SEGMENT = /^[A-Za-z_$]/;

interface Local {
  /** `value`: an element or map value (an alias); `key`: a map key (a string); `index`: an array index. */
  readonly kind: 'value' | 'key' | 'index';
  readonly name: string;
}

interface Gen {
  readonly ctx: Context;
  readonly consts: unknown[];
  /** How each constant is made from the literals (shapes.ts); undefined once one is not. */
  steps: Step[] | undefined;
  clauses: number;
  labels: number;
}

/** Where generated code stands: the closure scope (for typed checks) and the loop locals. */
interface At {
  readonly scope: Scope;
  readonly locals: ReadonlyMap<string, Local>;
  readonly loops: number;
  /** Inside `any`/`all`: the statement that hands the outermost collection to its generic closure. */
  readonly bail: string | undefined;
}

class GiveUp extends Error {}

/** A constant of the generated code; `step` says how to make it again from other literals. */
function konst(g: Gen, value: unknown, step?: Step): string {
  g.consts.push(value);
  if (step === undefined) g.steps = undefined;
  else g.steps?.push(step);
  return `k${g.consts.length - 1}`;
}

/** Where the value of a clause was written (a literal token starts there), -1 for none. */
const literalAt = (node: MatchNode): number => node.value?.span.start ?? -1;

/**
 * The statement that answers a clause with no fast path (inside `any`/`all`: the one that hands the
 * loop to its closure).
 */
function slowMatch(g: Gen, at: At, node: MatchNode): string {
  if (at.bail !== undefined) return at.bail;
  return `t = ${konst(
    g,
    lazy(() => compileMatch(node, EMPTY_SCOPE, g.ctx)),
  )}(r, E);`;
}

/**
 * Code that reads a selector into `v` and runs `then` on it, or `slow`; `miss` (if set) runs on a
 * missing last key under an object. Undefined when the selector has no fast read.
 */
function read(
  at: At,
  path: readonly string[],
  then: string,
  slow: string,
  miss: string | undefined,
): string | undefined {
  const head = path[0] as string;
  const local = at.locals.get(head);
  let base: string;
  let rest: readonly string[];
  if (local !== undefined) {
    if (local.kind !== 'value')
      return path.length === 1 && local.kind === 'key'
        ? `v = ${local.name}; ${then} else { ${slow} }`
        : undefined;
    base = local.name;
    rest = path.slice(1);
  } else if (at.scope.names.has(head)) {
    return undefined; // bound by a collection that is not generated inline
  } else {
    base = 'r';
    rest = path;
  }
  if (rest.length > 2 || !rest.every((s) => SAFE_SEGMENT.test(s))) return undefined;
  if (rest.length === 0) return `v = ${base}; ${then} else { ${slow} }`;
  // Below the root a value may be anything. It is read without a test that gives up on its own (one
  // cost 15% of the plain closure's speed, even `!== undefined` alone): null reads as NOTHING
  // (runtime.ts), whose keys are undefined and which fails the missing-key test, so the item goes to
  // the whole expression's closure (undefined throws, and the catch does the same); any other value
  // is read, and what it does not own reads as undefined (OWN_OBJECT), which `then` never decides
  // on. The object test is made only where a key is missing.
  // A missing key under an object reached in two or more segments takes the operator's default:
  // tested after `then`, which never decides on undefined (`Meta.owner` 0.77 tested first, 0.81 after).
  const canMiss = miss !== undefined && (rest.length === 2 || base !== 'r');
  // The object test of a missing key is written without calls or type tests (see RARE; a `typeof`
  // cost a tenth of the plain closure's speed): `z` says the value is a plain object (no `length`,
  // so no array, string or function; Object.prototype's `valueOf`, so no number, boolean or other
  // primitive). It is read with the key, where V8 folds both reads away for the shapes it has seen;
  // a map with a `length` or `valueOf` key of its own gives up to the closure.
  // (`z` is a constant of its own block: one variable for every read measured 0.75 for `any` and
  // `Meta.owner` together, a block's own about 0.85 for both.)
  const missing = canMiss ? ` else if (v === undefined && z) { ${miss} }` : '';
  const size = (o: string): string =>
    canMiss ? ` { const z = ${o}.length === undefined && ${o}.valueOf === Object.prototype.valueOf;` : '';
  const close = canMiss ? ' }' : '';
  // a bound value (an element, a map's value) may be null, never undefined: read from `n`
  const from = base === 'r' ? 'r' : 'n';
  const bound = base === 'r' ? '' : `n = ${base}; if (n === null) n = NS; `;
  if (rest.length === 1) {
    return `${bound}${load('v', from, rest[0] as string)}${size(from)} ${then}${missing} else { ${slow} }${close}`;
  }
  const mid = load('m', from, rest[0] as string, true);
  return `${bound}${mid} ${load('v', 'm', rest[1] as string)}${size('m')} ${then}${missing} else { ${slow} }${close}`;
}

/** `if (...) {...} else if (...) {...}` deciding the operator on `v`; the caller appends the else. */
function decide(
  g: Gen,
  node: MatchNode,
  number: { ok: boolean; value: number },
  inLoop: boolean,
): string | undefined {
  const raw = node.value?.raw ?? '';
  const K = konst(g, intern(raw), { make: 'intern', at: [literalAt(node)], value: raw });
  switch (node.operator) {
    case 'equal':
    case 'not-equal': {
      const eq = node.operator === 'equal';
      const str = `if (v === ${K}) t = ${eq}; else if (typeof v === 'string') t = ${!eq};`;
      if (!number.ok) return str;
      // A number and its text: at the top the comparison goes through BY_TYPE, so that the one of
      // the two a field never holds is no unreached comparison (see RARE; `Priority != 50` 0.66 of
      // the plain closure inline, 0.8 to 0.96 through the table); inside `any`/`all` the table cost
      // more than it saved (`s.Failed != 0` about 0.95 inline, 0.77 through it).
      const N = konst(g, number.value, { make: 'number', at: [literalAt(node)], value: number.value });
      if (inLoop) return `if (v === ${N}) t = ${eq}; else if (typeof v === 'number') t = ${!eq}; else ${str}`;
      return `if ((w = Y[typeof v](v, ${N}, ${K})) !== undefined) t = ${eq ? 'w' : '!w'};`;
    }
    case 'in':
    case 'not-in': {
      const yes = node.operator === 'in';
      return (
        `if (Array.isArray(v)) { let f = 0; for (let i = 0; i < v.length; i++) { const el = v[i]; if (el === ${K}) { f = 1; break; } if (typeof el !== 'string') { f = 2; break; } } ` +
        `if (f !== 2) t = f === ${yes ? 1 : 0}; else { SLOW } } ` +
        `else if (typeof v === 'string') t = ${yes ? '' : '!'}v.includes(${K});`
      );
    }
    case 'matches':
    case 'not-matches': {
      const re = compileRegex(raw);
      if (!re.ok) return undefined; // reported by the generic closure when reached
      return `if (typeof v === 'string') t = ${node.operator === 'matches' ? '' : '!'}${konst(g, re.test, { make: 'regex', at: [literalAt(node)], value: raw })}(v);`;
    }
    case 'is-empty':
    case 'is-not-empty':
      return `if (typeof v === 'string' || Array.isArray(v)) t = v.length ${node.operator === 'is-empty' ? '===' : '!=='} 0;`;
    case 'is-nil':
    case 'is-not-nil':
      return `if (v === null) t = ${node.operator === 'is-nil'}; else if (typeof v === 'object' && v !== undefined) t = ${node.operator !== 'is-nil'};`;
  }
}

function emitMatch(g: Gen, at: At, node: MatchNode): string {
  g.clauses++;
  const typed = typedSelector(node.selector, at.scope, g.ctx); // throws unknown-field
  if (g.ctx.unknownSet) return slowMatch(g, at, node);
  const decided = decide(g, node, numericConstant(node, typed), at.loops > 0);
  if (decided === undefined) return slowMatch(g, at, node);
  const then = decided.replaceAll('SLOW', RARE);
  const code = read(at, node.selector.path, then, RARE, `t = ${MISSING_DEFAULT[node.operator]};`);
  return code ?? slowMatch(g, at, node);
}

/** What answers a run of clauses on one field that has no fast read: the run's closure. */
function slowRun(g: Gen, at: At, group: readonly MatchNode[], kind: 'and' | 'or'): string {
  if (at.bail !== undefined) return at.bail;
  const node = group.reduceRight<Expression | undefined>(
    (right, left) => (right === undefined ? left : { kind, left, right, span: left.span }),
    undefined,
  ) as Expression;
  return `t = ${konst(
    g,
    lazy(() => compileExpr(node, EMPTY_SCOPE, g.ctx)),
  )}(r, E);`;
}

/**
 * `Field == a or Field == b or ...` (or `!=` joined by `and`) on one selector: the field read once
 * and its type tested once. A long run is one Set lookup; a short one, whose values are all strings
 * (not numbers in the field's kind), compares with each interned value in turn.
 */
function emitRun(g: Gen, at: At, group: readonly MatchNode[], kind: 'and' | 'or'): string | undefined {
  const typed = group.map((m) => typedSelector(m.selector, at.scope, g.ctx)); // throws unknown-field
  const hit = kind === 'or';
  let test: string;
  if (group.length >= SET_MIN) {
    // not interned: a Set lookup hashes the value and compares content only on a hash match
    const raws = group.map((m) => m.value?.raw ?? '');
    test = `${konst(g, new Set(raws), { make: 'set', at: group.map(literalAt), value: raws })}.has(v)`;
  } else {
    if (group.some((m, i) => numericConstant(m, typed[i]).ok)) return undefined;
    test = group
      .map((m) => {
        const raw = m.value?.raw ?? '';
        return `v === ${konst(g, intern(raw), { make: 'intern', at: [literalAt(m)], value: raw })}`;
      })
      .join(' || ');
  }
  g.clauses += group.length;
  const then = `if (${test}) t = ${hit}; else if (typeof v === 'string') t = ${!hit};`;
  return (
    read(at, (group[0] as MatchNode).selector.path, then, RARE, `t = ${!hit};`) ?? slowRun(g, at, group, kind)
  );
}

function sameField(a: Expression, b: MatchNode): boolean {
  return (
    a.kind === 'match' &&
    a.operator === b.operator &&
    a.selector.path.length === b.selector.path.length &&
    a.selector.path.every((s, i) => s === b.selector.path[i])
  );
}

function emitChain(g: Gen, at: At, node: Expression, kind: 'and' | 'or'): string {
  const parts = flatten(node, kind);
  const label = `L${g.labels++}`;
  const stop = kind === 'and' ? `if (!t) break ${label};` : `if (t) break ${label};`;
  const op: MatchOperator = kind === 'or' ? 'equal' : 'not-equal';
  const out: string[] = [];
  for (let i = 0; i < parts.length;) {
    const p = parts[i] as Expression;
    let j = i + 1;
    if (p.kind === 'match' && p.operator === op && !g.ctx.unknownSet) {
      while (j < parts.length && sameField(parts[j] as Expression, p)) j++;
    }
    const run = j - i >= 2 ? emitRun(g, at, parts.slice(i, j) as MatchNode[], kind) : undefined;
    if (run === undefined) j = i + 1;
    out.push(run ?? emit(g, at, p));
    i = j;
    if (i < parts.length) out.push(stop);
  }
  return `${label}: { ${out.join(' ')} }`;
}

function emitCollection(g: Gen, at: At, node: CollectionNode): string {
  g.clauses++;
  const typed = typedSelector(node.selector, at.scope, g.ctx);
  const { inner, firstName, secondName, duplicate } = bindingScope(node, at.scope, g.ctx, typed);
  const label = `L${g.labels++}`;
  const outermost = at.bail === undefined;
  const slow =
    at.bail ??
    `{ t = ${konst(
      g,
      lazy(() => compileCollection(node, EMPTY_SCOPE, g.ctx)),
    )}(r, E); break ${label}; }`;
  if (duplicate || at.loops >= MAX_LOOPS || g.ctx.unknownSet) {
    compileExpr(node.body, inner, g.ctx); // checks the body's selectors against the schema
    return outermost ? `${label}: ${slow}` : slow;
  }
  const n = at.loops;
  const isAny = node.quantifier === 'any';
  const stop = isAny ? `if (t) break ${label};` : `if (!t) break ${label};`;
  const body = (locals: Map<string, Local>): string =>
    emit(g, { scope: inner, locals, loops: n + 1, bail: slow }, node.body);
  const withLocals = (pairs: [string | null, Local][]): Map<string, Local> => {
    const locals = new Map(at.locals);
    for (const [name] of pairs) if (name !== null) locals.delete(name);
    for (const [name, local] of pairs) if (name !== null) locals.set(name, local);
    return locals;
  };
  const x = `x${n}`;
  const i = `i${n}`;
  const k = `q${n}`;
  const single = node.binding.form === 'single';
  const arrayLocals = withLocals(
    single
      ? [[firstName, { kind: 'value', name: x }]]
      : [
          [firstName, { kind: 'index', name: i }],
          [secondName, { kind: 'value', name: x }],
        ],
  );
  const mapLocals = withLocals(
    single
      ? [[firstName, { kind: 'key', name: k }]]
      : [
          [firstName, { kind: 'key', name: k }],
          [secondName, { kind: 'value', name: x }],
        ],
  );
  const c = `c${n}`;
  const loops =
    `if (Array.isArray(${c})) { for (let ${i} = 0; ${i} < ${c}.length; ${i}++) { let ${x} = ${c}[${i}]; if (${x} === undefined) ${x} = null; ${body(arrayLocals)} ${stop} } t = ${!isAny}; } ` +
    `else if (typeof ${c} === 'object' && ${c} !== null) { for (const ${k} in ${c}) { if (!HOP.call(${c}, ${k})) continue; const ${x} = ${c}[${k}]; if (${x} === undefined) continue; ${body(mapLocals)} ${stop} } t = ${!isAny}; } ` +
    `else ${RARE}`;
  const then = `if (v !== undefined) { const ${c} = v; ${loops} }`;
  const got = read(at, node.selector.path, then, RARE, `t = ${!isAny};`);
  return `${label}: { ${got ?? slow} }`;
}

function emit(g: Gen, at: At, node: Expression): string {
  if (g.clauses > MAX_CLAUSES) throw new GiveUp();
  switch (node.kind) {
    case 'and':
    case 'or':
      return emitChain(g, at, node, node.kind);
    case 'not':
      if (node.operand.kind === 'match') {
        return emitMatch(g, at, { ...node.operand, operator: NEGATED[node.operand.operator] });
      }
      return `${emit(g, at, node.operand)} t = !t;`;
    case 'match':
      return emitMatch(g, at, node);
    case 'collection':
      return emitCollection(g, at, node);
  }
}

/**
 * The whole filter as one generated function: its factory and constants (runtime.ts `instantiate`
 * makes the filter), with how to make the constants from other literals (`steps`, undefined when
 * one of them is not made from the literals alone). Undefined when the filter is too large (then
 * closures are used).
 * @throws FilterSyntaxError in typed mode for a selector the schema does not allow.
 */
export function generateShaped(
  ast: Expression,
  ctx: Context,
): { factory: Factory; consts: unknown[]; steps: readonly Step[] | undefined } | undefined {
  const g: Gen = { ctx, consts: [], steps: [], clauses: 0, labels: 0 };
  let code: string;
  try {
    code = emit(g, { scope: EMPTY_SCOPE, locals: new Map(), loops: 0, bail: undefined }, ast);
  } catch (e) {
    if (e instanceof GiveUp) return undefined;
    throw e;
  }
  const all = konst(
    g,
    lazy(() => compileExpr(ast, EMPTY_SCOPE, ctx)),
    { make: 'all', at: [], value: undefined },
  );
  // The factory is found by its code and the name of the whole expression's closure (the rest of
  // the source is the same for every filter): the shorter the key, the cheaper its hash.
  const factory = cachedFactory<Factory>(`${all} ${code}`, () => makeFactory(code, all, g.consts.length));
  return { factory, consts: g.consts, steps: g.steps };
}
