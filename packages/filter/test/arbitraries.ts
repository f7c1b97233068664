/**
 * fast-check arbitraries for filter ASTs and JSON data (package-private).
 */
import fc from 'fast-check';
import type { Binding, Expression, MatchNode, MatchOperator, SelectorNode, ValueNode } from '../src/ast.js';

const NO_SPAN = { start: 0, end: 0 };

/** Field names shared by the AST and data arbitraries, so that lookups often succeed. */
export const fieldNames = [
  'a',
  'b',
  'Meta',
  'Tags',
  'in',
  'not',
  'x',
  'i',
  'v',
  'a/b',
  'with space',
  '0',
  '',
] as const;

/** Raw values that exercise every coercion rule. */
export const rawValues = [
  '',
  'a',
  'abc',
  'x',
  '1',
  '0',
  '-1',
  '50',
  '50.0',
  '5e1',
  '0x1',
  '1e999',
  'NaN',
  'true',
  'false',
  'T',
  'yes',
  '^a',
  'a$',
  '(',
  'b.*',
  'with space',
  '"quoted"',
  'back`tick',
  '/a/b',
  'é',
] as const;

const operators: readonly MatchOperator[] = [
  'equal',
  'not-equal',
  'in',
  'not-in',
  'matches',
  'not-matches',
  'is-empty',
  'is-not-empty',
  'is-nil',
  'is-not-nil',
];

const identifierLike = /^[a-zA-Z][a-zA-Z0-9_/]*$/;

/** Selector paths the printer can express. */
export const selectorArb: fc.Arbitrary<SelectorNode> = fc
  .tuple(
    fc.constantFrom('a', 'b', 'Meta', 'Tags', 'in', 'not', 'x', 'i', 'v', 'a/b', 'any'),
    fc.array(fc.constantFrom(...fieldNames), { maxLength: 2 }),
  )
  .map(([first, rest]) => ({ kind: 'selector' as const, path: [first, ...rest], span: NO_SPAN }))
  .filter((s) => identifierLike.test(s.path[0]!) || s.path.every((p) => /^[\p{L}\p{N}\-_.~:|/]+$/u.test(p)));

/** Any value text (including arbitrary Unicode without lone surrogates). */
export const valueArb: fc.Arbitrary<ValueNode> = fc
  .oneof(fc.constantFrom(...rawValues), fc.string({ unit: 'binary', maxLength: 6 }))
  .map((raw) => ({ kind: 'value' as const, raw, span: NO_SPAN }));

export const matchArb: fc.Arbitrary<MatchNode> = fc
  .tuple(fc.constantFrom(...operators), selectorArb, valueArb)
  .map(([operator, selector, value]) => ({
    kind: 'match' as const,
    operator,
    selector,
    value: operator.startsWith('is-') ? null : value,
    span: NO_SPAN,
  }));

const bindingArb: fc.Arbitrary<Binding> = fc.oneof(
  fc.constantFrom('x', 'i', 'v', 'a').map((name) => ({ form: 'single' as const, name })),
  fc
    .tuple(fc.constantFrom('i', 'x', null), fc.constantFrom('v', 'x', null))
    .filter(([i, v]) => i !== null || v !== null)
    .map(([index, value]) => ({ form: 'pair' as const, index, value })),
);

/** Canonical ASTs: no `not` directly around a `not` (the parser simplifies `not not`). */
export const expressionArb: fc.Arbitrary<Expression> = fc.letrec<{ expr: Expression; nonNot: Expression }>(
  (tie) => ({
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      tie('nonNot'),
      tie('nonNot').map((operand): Expression => ({ kind: 'not', operand, span: NO_SPAN })),
    ),
    nonNot: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      matchArb,
      fc
        .tuple(fc.constantFrom('and' as const, 'or' as const), tie('expr'), tie('expr'))
        .map(([kind, left, right]): Expression => ({ kind, left, right, span: NO_SPAN })),
      fc
        .tuple(fc.constantFrom('any' as const, 'all' as const), selectorArb, bindingArb, tie('expr'))
        .map(([quantifier, selector, binding, body]): Expression => ({
          kind: 'collection',
          quantifier,
          selector,
          binding,
          body,
          span: NO_SPAN,
        })),
    ),
  }),
).expr;

/** JSON data whose keys overlap the selectors above. */
export const jsonArb: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...rawValues),
    fc.constantFrom(0, 1, -1, 50, 0.5, Number.MAX_VALUE),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...fieldNames, ...rawValues), tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** A JSON object at the top level (the usual datum). */
export const datumArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.constantFrom(...fieldNames), jsonArb, { maxKeys: 8 }) },
  { weight: 1, arbitrary: jsonArb },
);

/** Removes spans (and nothing else) for structural comparison. */
export function stripSpans(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripSpans);
  if (typeof node === 'object' && node !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) if (k !== 'span') out[k] = stripSpans(v);
    return out;
  }
  return node;
}

/** The expression with every clause replaced by `f(clause)` (collections keep their selectors). */
export function mapMatches(node: Expression, f: (match: MatchNode) => MatchNode): Expression {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { ...node, left: mapMatches(node.left, f), right: mapMatches(node.right, f) };
    case 'not':
      return { ...node, operand: mapMatches(node.operand, f) };
    case 'collection':
      return { ...node, body: mapMatches(node.body, f) };
    case 'match':
      return f(node);
  }
}
