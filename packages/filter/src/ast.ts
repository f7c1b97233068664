/**
 * A half-open range of UTF-16 code-unit offsets into the filter text: `text.slice(start, end)`.
 * Nodes made by the builder have `{ start: 0, end: 0 }`.
 * @since 0.1.0
 */
export interface Span {
  /** Offset of the first code unit (0-based). */
  readonly start: number;
  /** Offset just past the last code unit. */
  readonly end: number;
}

/**
 * A path into the datum. Both `Meta["a b"].x` and the JSON Pointer form `"/Meta/a b"` produce one;
 * the written form is not kept (printing picks a canonical form).
 * @since 0.1.0
 */
export interface SelectorNode {
  /** Discriminant. */
  readonly kind: 'selector';
  /** Path segments, already unescaped (`Datacenters.0` gives `["Datacenters", "0"]`). */
  readonly path: readonly string[];
  /** Where the selector was written. */
  readonly span: Span;
}

/**
 * A value as written: always kept as its raw text; its type is decided at evaluation time by the
 * kind of the field it is compared with (`Priority == 50` and `Priority == "50"` are the same).
 * @since 0.1.0
 */
export interface ValueNode {
  /** Discriminant. */
  readonly kind: 'value';
  /** The raw text after unquoting (a bare word `a.b` gives `"a.b"`, `"/a/b"` gives `"a/b"`). */
  readonly raw: string;
  /** Where the value was written. */
  readonly span: Span;
}

/**
 * The operators of a match expression. `x contains v` is `in` and `x not contains v` is `not-in`,
 * exactly as in the reference.
 * @since 0.1.0
 */
export const MatchOperator = {
  /** `==` */
  Equal: 'equal',
  /** `!=` */
  NotEqual: 'not-equal',
  /** `in` and `contains` */
  In: 'in',
  /** `not in` and `not contains` */
  NotIn: 'not-in',
  /** `matches` */
  Matches: 'matches',
  /** `not matches` */
  NotMatches: 'not-matches',
  /** `is empty` */
  IsEmpty: 'is-empty',
  /** `is not empty` */
  IsNotEmpty: 'is-not-empty',
  /** `is nil` */
  IsNil: 'is-nil',
  /** `is not nil` */
  IsNotNil: 'is-not-nil',
} as const;
/** One of {@link MatchOperator}'s values. @since 0.1.0 */
export type MatchOperator = (typeof MatchOperator)[keyof typeof MatchOperator];

/**
 * A comparison of a selected field with a value (`Status == "running"`, `"dc1" in Datacenters`,
 * `Meta is empty`).
 * @since 0.1.0
 */
export interface MatchNode {
  /** Discriminant. */
  readonly kind: 'match';
  /** The operator. */
  readonly operator: MatchOperator;
  /** The field tested (for `in`, the container on the right). */
  readonly selector: SelectorNode;
  /** The value; `null` for `is empty`, `is nil` and their negations. */
  readonly value: ValueNode | null;
  /** Where the whole match was written. */
  readonly span: Span;
}

/** `left and right` (right-associative when parsed). @since 0.1.0 */
export interface AndNode {
  /** Discriminant. */
  readonly kind: 'and';
  /** Evaluated first. */
  readonly left: Expression;
  /** Evaluated only when `left` is true. */
  readonly right: Expression;
  /** Source range. */
  readonly span: Span;
}

/** `left or right` (right-associative when parsed). @since 0.1.0 */
export interface OrNode {
  /** Discriminant. */
  readonly kind: 'or';
  /** Evaluated first. */
  readonly left: Expression;
  /** Evaluated only when `left` is false. */
  readonly right: Expression;
  /** Source range. */
  readonly span: Span;
}

/** `not operand` (`not not x` is simplified to `x` while parsing). @since 0.1.0 */
export interface NotNode {
  /** Discriminant. */
  readonly kind: 'not';
  /** The negated expression. */
  readonly operand: Expression;
  /** Source range. */
  readonly span: Span;
}

/**
 * The names bound by `as`: `as x` (form `single`: the element of an array, the key of an object),
 * or `as i, v` / `as i, _` / `as _, v` (form `pair`; `_` is `null`).
 * @since 0.1.0
 */
export type Binding =
  | {
      /** `as x` */
      readonly form: 'single';
      /** The bound name. */
      readonly name: string;
    }
  | {
      /** `as i, v` */
      readonly form: 'pair';
      /** Name of the index (array) or key (object); `null` for `_`. */
      readonly index: string | null;
      /** Name of the element or value; `null` for `_`. */
      readonly value: string | null;
    };

/** `any <selector> as <binding> { <body> }` or `all ...`. @since 0.1.0 */
export interface CollectionNode {
  /** Discriminant. */
  readonly kind: 'collection';
  /** `any` is true when some element satisfies the body, `all` when every element does. */
  readonly quantifier: 'any' | 'all';
  /** The array or object iterated over. */
  readonly selector: SelectorNode;
  /** The names bound for the body. */
  readonly binding: Binding;
  /** Evaluated once per element. */
  readonly body: Expression;
  /** Source range. */
  readonly span: Span;
}

/**
 * A filter expression: the AST returned by {@link parseFilter} and made by the builder.
 * @since 0.1.0
 */
export type Expression = OrNode | AndNode | NotNode | MatchNode | CollectionNode;
