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
