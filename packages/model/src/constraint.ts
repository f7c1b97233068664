/**
 * Placement rules shared by jobs, task groups, tasks and devices: constraints, affinities, spreads.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { NullableArray, optionalProperties, SafeInteger } from './internal/schema.js';
import { lazySchema } from './internal/lazy.js';

/**
 * Every constraint `Operand` the scheduling service evaluates: comparisons (`=`, `==` and `is` are the
 * same; `!=` and `not` too), `regexp`, `version` and `semver` ranges, the `set_contains` family,
 * `is_set`/`is_not_set`, and the placement rules `distinct_hosts` and `distinct_property`.
 * `jobProblems` reports any other operand.
 *
 * @example
 * ```ts
 * import { ConstraintOperands, type ConstraintOperand } from '@sked/model';
 *
 * const known = (op: string): op is ConstraintOperand => (ConstraintOperands as readonly string[]).includes(op);
 * known('set_contains_any'); // true
 * ```
 * @since 0.2.0
 */
export const ConstraintOperands = [
  '=',
  '==',
  'is',
  '!=',
  'not',
  '>',
  '>=',
  '<',
  '<=',
  'regexp',
  'version',
  'semver',
  'set_contains',
  'set_contains_all',
  'set_contains_any',
  'is_set',
  'is_not_set',
  'distinct_hosts',
  'distinct_property',
] as const;
/** One of the {@link ConstraintOperands}. */
export type ConstraintOperand = (typeof ConstraintOperands)[number];

const ConstraintProperties = lazySchema(() => ({
  /** Left side of the comparison: an attribute reference such as `${attr.kernel.name}` or a literal. `""` when unset. */
  LTarget: Type.String(),
  /** Right side of the comparison: a literal or an attribute reference. `""` when unset. */
  RTarget: Type.String(),
  /**
   * Comparison operator, one of {@link ConstraintOperands} (`=`, `!=`, `>`, `>=`, `<`, `<=`, `regexp`,
   * `version`, `semver`, `set_contains`, `set_contains_any`, `distinct_hosts`, `distinct_property`,
   * `is_set`, `is_not_set`, ...): any string passes the schema, `jobProblems` reports the others.
   * Canonicalization turns an empty value into `=`.
   */
  Operand: Type.String(),
}));

/**
 * A hard placement rule: nodes that do not satisfy it are not eligible.
 *
 * @see {@link ConstraintInput} for the lenient submitted form.
 * @since 0.1.0
 */
export const Constraint = lazySchema(() => Type.Object(ConstraintProperties));
/** A value matching the {@link Constraint} schema. */
export type Constraint = Static<typeof Constraint>;

/**
 * A {@link Constraint} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const ConstraintInput = lazySchema(() => Type.Object(optionalProperties(ConstraintProperties)));
/** A value matching the {@link ConstraintInput} schema. */
export type ConstraintInput = Static<typeof ConstraintInput>;

const AffinityProperties = lazySchema(() => ({
  /** Left side of the comparison (attribute reference or literal). `""` when unset. */
  LTarget: Type.String(),
  /** Right side of the comparison. `""` when unset. */
  RTarget: Type.String(),
  /** Comparison operator, the same set as {@link Constraint}'s `Operand`. Canonicalization turns `""` into `=`. */
  Operand: Type.String(),
  /**
   * How strongly matching nodes are preferred, from -100 (avoid) to 100 (prefer); 0 is not allowed by
   * the service's own validation but is accepted here. Canonicalization turns an absent weight into 50.
   */
  Weight: SafeInteger({ minimum: -100, maximum: 100 }),
}));

/**
 * A soft placement preference: matching nodes score higher but others stay eligible.
 *
 * @since 0.1.0
 */
export const Affinity = lazySchema(() => Type.Object(AffinityProperties));
/** A value matching the {@link Affinity} schema. */
export type Affinity = Static<typeof Affinity>;

/**
 * An {@link Affinity} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const AffinityInput = lazySchema(() => Type.Object(optionalProperties(AffinityProperties)));
/** A value matching the {@link AffinityInput} schema. */
export type AffinityInput = Static<typeof AffinityInput>;

const SpreadTargetProperties = lazySchema(() => ({
  /** Attribute value this target applies to, for example `dc1`. */
  Value: Type.String(),
  /** Share of the allocations wanted on nodes with this value, in percent (0-100). */
  Percent: SafeInteger({ minimum: 0, maximum: 100 }),
}));

/**
 * One target of a {@link Spread}: a value and the percentage of allocations wanted for it.
 *
 * @since 0.1.0
 */
export const SpreadTarget = lazySchema(() => Type.Object(SpreadTargetProperties));
/** A value matching the {@link SpreadTarget} schema. */
export type SpreadTarget = Static<typeof SpreadTarget>;

/**
 * A {@link SpreadTarget} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const SpreadTargetInput = lazySchema(() => Type.Object(optionalProperties(SpreadTargetProperties)));
/** A value matching the {@link SpreadTargetInput} schema. */
export type SpreadTargetInput = Static<typeof SpreadTargetInput>;

/**
 * A spread: distribute allocations over the values of a node attribute.
 *
 * @since 0.1.0
 */
export const Spread = lazySchema(() =>
  Type.Object({
    /** Node attribute to spread over, for example `${node.datacenter}`. */
    Attribute: Type.String(),
    /** Relative importance of this spread, 0-100. Canonicalization turns an absent weight into 50. */
    Weight: SafeInteger({ minimum: 0, maximum: 100 }),
    /** Wanted distribution per value; `null` means an even spread over every value seen. */
    SpreadTarget: NullableArray(SpreadTarget),
  }),
);
/** A value matching the {@link Spread} schema. */
export type Spread = Static<typeof Spread>;

/**
 * A {@link Spread} as submitted: every field optional.
 *
 * @since 0.1.0
 */
export const SpreadInput = lazySchema(() =>
  Type.Object({
    /** See {@link Spread}. */
    Attribute: Type.Optional(Type.String()),
    /** See {@link Spread}. */
    Weight: Type.Optional(SafeInteger({ minimum: 0, maximum: 100 })),
    /** See {@link Spread}; absent or `null` means an even spread. */
    SpreadTarget: Type.Optional(NullableArray(SpreadTargetInput)),
  }),
);
/** A value matching the {@link SpreadInput} schema. */
export type SpreadInput = Static<typeof SpreadInput>;
