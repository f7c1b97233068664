/**
 * Code generation (optional): small generated functions for the fast paths of clauses and for the
 * and/or/not skeleton above them.
 * @internal
 * @packageDocumentation
 */
import type { Expression, MatchNode, MatchOperator } from './ast.js';
import { compileRegex, type CompiledRegex } from './internal/regex.js';
import { flatten } from './internal/walk.js';
import type { Pred } from './lookup.js';
import { NEGATED } from './values.js';

// ---- Code generation (optional) ----
//
// Closures built from one function literal share V8's type feedback, so a filter's clauses make
// each other's call sites and property loads polymorphic. When the environment allows
// `new Function` (not under a strict Content-Security-Policy), each boolean skeleton and each
// simple clause gets its own generated function, cached by shape, so property loads and calls stay
// monomorphic as in a hand-written closure. Without `new Function`, the closures above are used;
// answers are identical either way (the generated code only covers the fast paths and calls the
// generic closure for everything else).

export let codegenAvailable: boolean | undefined;
export function canGenerate(): boolean {
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

export const FACTORY_CACHE_LIMIT = 512;
export type MatchFactory = (
  raw: string,
  floatOk: boolean,
  floatValue: number,
  generic: Pred,
  re: () => ((input: string) => boolean) | undefined,
) => Pred;
export type SkeletonFactory = (...parts: Pred[]) => Pred;
export const matchFactories = new Map<string, MatchFactory>();
export const skeletonFactories = new Map<string, SkeletonFactory>();

export function cached<F>(cache: Map<string, F>, key: string, make: () => F): F | undefined {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  if (cache.size >= FACTORY_CACHE_LIMIT) return undefined;
  const made = make();
  cache.set(key, made);
  return made;
}

export const MATCH_BODIES: Partial<Record<MatchOperator, string>> = {
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
export function generateMatch(
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

export const MAX_SKELETON_LEAVES = 64;

/**
 * Generates one function for the and/or/not structure above the clauses, or undefined.
 * @param compileLeaf - Compiles each clause (a match or a collection) below the skeleton.
 */
export function generateSkeleton(
  node: Expression,
  compileLeaf: (leaf: Expression) => Pred,
): Pred | undefined {
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
  return factory(...leaves.map(compileLeaf));
}
