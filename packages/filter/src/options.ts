/**
 * Default limits. Generous for any real filter: the reference's own step budget stops at
 * 6 nested parentheses and about 7,700 `or` clauses (110 KB).
 * @since 0.1.0
 */
export const FilterLimits = {
  /** Longest accepted text, in UTF-16 code units (128 KiB). */
  maxLength: 131_072,
  /** Deepest nesting of parentheses and collection braces. */
  maxDepth: 128,
  /** Most match and collection clauses in one filter. */
  maxClauses: 10_000,
} as const;

/**
 * Options of {@link parseFilter} (also accepted by every function that parses).
 * @since 0.1.0
 */
export interface ParseOptions {
  /**
   * Longest accepted text in UTF-16 code units.
   * @defaultValue 131072
   */
  readonly maxLength?: number;
  /**
   * Deepest nesting of `(` and `{`. Checked before parsing, so hostile input never reaches the
   * recursive parser.
   * @defaultValue 128
   */
  readonly maxDepth?: number;
  /**
   * Most match and collection clauses.
   * @defaultValue 10000
   */
  readonly maxClauses?: number;
  /**
   * Report invalid regular expressions as syntax errors (`invalid-regex`) instead of evaluation
   * errors when the clause is reached (the reference's behaviour). Stricter than the reference:
   * a filter such as `Status == "dead" and Name matches "("` is then rejected outright, while the
   * reference answers `false` for every job that is not dead.
   * @defaultValue false
   */
  readonly strictRegex?: boolean;
}

/**
 * Options of {@link compileFilter}, {@link evaluateFilter} and {@link filterItems}.
 * @since 0.1.0
 */
export interface CompileOptions extends ParseOptions {
  /**
   * The value a selector takes when a key is not found, at any depth (go-bexpr's
   * `WithUnknownValue`). It overrides the missing-key defaults but not out-of-range indexes or
   * paths through non-containers. `undefined` means "not set".
   * @defaultValue undefined
   */
  readonly unknownValue?: unknown;
  /**
   * Typed mode: a JSON Schema of the items (what TypeBox emits, for example `@sked/model`'s `Job`),
   * so the filter reads them as the service reads its typed records:
   *
   * - a `null` map or list field (a schema whose non-null branches are all maps, or all arrays)
   *   behaves as an empty one for every operator, `any`/`all` included (`is nil` still answers
   *   true for it, as for a Go nil map);
   * - a selector naming a field the schema does not allow (an object with `properties` and no
   *   `additionalProperties`/`patternProperties`), or going through a string, number or boolean,
   *   is a {@link FilterSyntaxError} (`unknown-field`) at compile time, with its position and the
   *   closest field name;
   * - an `integer` field compares as a Go int (`Priority == 0x32` is true, `Priority == 50.0` is an
   *   evaluation error); a `number` field as a float64, as without a schema.
   *
   * Everything else is unchanged. The schema is read lazily and memoised per schema object.
   * @defaultValue undefined (JSON semantics)
   * @since 0.2.0
   */
  readonly schema?: unknown;
}

/** Resolved limits. @internal */
export interface ResolvedLimits {
  readonly maxLength: number;
  readonly maxDepth: number;
  readonly maxClauses: number;
}

/** @internal */
export function resolveLimits(options: ParseOptions | undefined): ResolvedLimits {
  return {
    maxLength: options?.maxLength ?? FilterLimits.maxLength,
    maxDepth: options?.maxDepth ?? FilterLimits.maxDepth,
    maxClauses: options?.maxClauses ?? FilterLimits.maxClauses,
  };
}
