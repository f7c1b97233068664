import type {
  Binding,
  CollectionNode,
  Expression,
  MatchNode,
  MatchOperator,
  SelectorNode,
  Span,
  ValueNode,
} from './ast.js';
import { IDENTIFIER } from './internal/lexicon.js';
import { printSelector } from './print.js';

const NO_SPAN: Span = { start: 0, end: 0 };

/**
 * Depth countdown used by {@link FilterPath} (`FilterPathDepths[6]` is 5, and so on).
 * @since 0.1.0
 */
export type FilterPathDepths = [never, 0, 1, 2, 3, 4, 5, 6];

/**
 * Dotted paths of a type, as accepted by the builder: `Status`, `Meta.owner` (any key of a record),
 * `Datacenters.0`, `TaskGroups.0.Name`. Depth-limited to 6 segments.
 * @since 0.1.0
 */
export type FilterPath<T, D extends number = 6> = [D] extends [never]
  ? never
  : T extends readonly (infer E)[]
    ? `${number}` | `${number}.${FilterPath<NonNullable<E>, FilterPathDepths[D]>}`
    : T extends object
      ? {
          [K in keyof T & string]: K | `${K}.${FilterPath<NonNullable<T[K]>, FilterPathDepths[D]>}`;
        }[keyof T & string]
      : never;

/**
 * The type found at a dotted path of `T` (`unknown` when it cannot be followed).
 * @since 0.1.0
 */
export type FilterPathValue<T, P extends string> = P extends `${infer H}.${infer R}`
  ? T extends readonly (infer E)[]
    ? FilterPathValue<NonNullable<E>, R>
    : H extends keyof T
      ? FilterPathValue<NonNullable<T[H]>, R>
      : unknown
  : T extends readonly (infer E)[]
    ? E
    : P extends keyof T
      ? T[P]
      : unknown;

/** Element type of an array, value type of a record. @since 0.1.0 */
export type FilterElement<C> = C extends readonly (infer E)[]
  ? E
  : C extends Record<string, infer V>
    ? V
    : unknown;

/**
 * A selector accepted by the builder: a dotted path (checked against `T` unless `T` is `unknown`),
 * or an array of raw segments for keys that contain dots (not checked).
 * @since 0.1.0
 */
export type FilterSelector<T> = (unknown extends T ? string : FilterPath<T>) | readonly string[];

/** A value in the builder: kept as its text, as every filter value is. @since 0.1.0 */
export type FilterValue = string | number | boolean;

/**
 * Builds filter ASTs from code; quoting and escaping are always right because the text is made by
 * {@link printFilter}. Every method returns an {@link Expression} usable with {@link compileFilter}
 * and {@link printFilter}.
 * @since 0.1.0
 */
export interface FilterBuilder<T = unknown> {
  /** `selector == value` */
  eq(selector: FilterSelector<T>, value: FilterValue): MatchNode;
  /** `selector != value` */
  ne(selector: FilterSelector<T>, value: FilterValue): MatchNode;
  /** `value in selector` (substring, element or key membership). */
  contains(selector: FilterSelector<T>, value: FilterValue): MatchNode;
  /** `value not in selector` */
  notContains(selector: FilterSelector<T>, value: FilterValue): MatchNode;
  /** `selector matches pattern` (RE2 syntax, unanchored). */
  matches(selector: FilterSelector<T>, pattern: string): MatchNode;
  /** `selector not matches pattern` */
  notMatches(selector: FilterSelector<T>, pattern: string): MatchNode;
  /** `selector is empty` */
  isEmpty(selector: FilterSelector<T>): MatchNode;
  /** `selector is not empty` */
  isNotEmpty(selector: FilterSelector<T>): MatchNode;
  /** `selector is nil` */
  isNil(selector: FilterSelector<T>): MatchNode;
  /** `selector is not nil` */
  isNotNil(selector: FilterSelector<T>): MatchNode;
  /** `a and b and ...` (at least one operand). */
  and(first: Expression, ...rest: Expression[]): Expression;
  /** `a or b or ...` (at least one operand). */
  or(first: Expression, ...rest: Expression[]): Expression;
  /** `not e` */
  not(operand: Expression): Expression;
  /** `any selector as name { body }` */
  any: FilterQuantifier<T>;
  /** `all selector as name { body }` */
  all: FilterQuantifier<T>;
}

/**
 * The builder's `any` and `all`: `body` gets a builder for the element type whose selectors start
 * at the element.
 * @since 0.1.0
 */
export type FilterQuantifier<T> = <P extends FilterSelector<T>>(
  selector: P,
  name: string,
  body: (
    element: FilterBuilder<P extends string ? FilterElement<FilterPathValue<T, P>> : unknown>,
  ) => Expression,
) => CollectionNode;

function toPath(selector: string | readonly string[], prefix: readonly string[]): SelectorNode {
  const segments = typeof selector === 'string' ? selector.split('.') : [...selector];
  const path = [...prefix, ...segments];
  printSelector(path); // throws a RangeError when the language cannot express it
  return { kind: 'selector', path, span: NO_SPAN };
}

function toValue(value: FilterValue): ValueNode {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new RangeError(`The number ${value} cannot be written in a filter.`);
  }
  return { kind: 'value', raw: String(value), span: NO_SPAN };
}

function chain(kind: 'and' | 'or', operands: readonly Expression[]): Expression {
  let result = operands[operands.length - 1] as Expression;
  for (let i = operands.length - 2; i >= 0; i--) {
    result = { kind, left: operands[i] as Expression, right: result, span: NO_SPAN };
  }
  return result;
}

function make<T>(prefix: readonly string[]): FilterBuilder<T> {
  const match = (
    operator: MatchOperator,
    selector: string | readonly string[],
    value: FilterValue | null,
  ): MatchNode => ({
    kind: 'match',
    operator,
    selector: toPath(selector, prefix),
    value: value === null ? null : toValue(value),
    span: NO_SPAN,
  });
  const collection = (
    quantifier: 'any' | 'all',
    selector: string | readonly string[],
    name: string,
    body: (b: FilterBuilder<never>) => Expression,
  ): CollectionNode => {
    if (!IDENTIFIER.test(name)) {
      throw new RangeError(
        `The binding name ${JSON.stringify(name)} is not an identifier ([a-zA-Z][a-zA-Z0-9_/]*).`,
      );
    }
    const binding: Binding = { form: 'single', name };
    return {
      kind: 'collection',
      quantifier,
      selector: toPath(selector, prefix),
      binding,
      body: body(make<never>([name])),
      span: NO_SPAN,
    };
  };
  return {
    eq: (s, v) => match('equal', s, v),
    ne: (s, v) => match('not-equal', s, v),
    contains: (s, v) => match('in', s, v),
    notContains: (s, v) => match('not-in', s, v),
    matches: (s, p) => match('matches', s, p),
    notMatches: (s, p) => match('not-matches', s, p),
    isEmpty: (s) => match('is-empty', s, null),
    isNotEmpty: (s) => match('is-not-empty', s, null),
    isNil: (s) => match('is-nil', s, null),
    isNotNil: (s) => match('is-not-nil', s, null),
    and: (first, ...rest) => chain('and', [first, ...rest]),
    or: (first, ...rest) => chain('or', [first, ...rest]),
    not: (operand) => ({ kind: 'not', operand, span: NO_SPAN }),
    any: (s, name, body) =>
      collection('any', s, name, body as unknown as (b: FilterBuilder<never>) => Expression),
    all: (s, name, body) =>
      collection('all', s, name, body as unknown as (b: FilterBuilder<never>) => Expression),
  };
}

/**
 * Creates a typed filter builder. With a type argument, dotted selectors are checked against it at
 * compile time; without one, any string is accepted. Selectors the language cannot express throw a
 * RangeError at once.
 *
 * @typeParam T - The type of the items filtered (for example `Job`).
 * @returns A {@link FilterBuilder}.
 * @example
 * ```ts
 * const f = filterBuilder<{ Status: string; Meta: Record<string, string>; Datacenters: string[] }>();
 * const expr = f.and(f.eq('Status', 'running'), f.contains('Datacenters', 'dc1'), f.eq('Meta.owner', 'team "a"'));
 * printFilter(expr); // 'Status == "running" and "dc1" in Datacenters and Meta.owner == "team \\x22a\\x22"'
 * ```
 * @since 0.1.0
 */
export function filterBuilder<T = unknown>(): FilterBuilder<T> {
  return make<T>([]);
}

/**
 * An untyped builder instance, for quick use: `filter.eq('Status', 'running')`.
 * @since 0.1.0
 */
export const filter: FilterBuilder = filterBuilder();
