import type { Span } from './ast.js';

/**
 * Codes of {@link FilterDiagnostic} and {@link FilterSyntaxError}.
 * @since 0.1.0
 */
export const FilterSyntaxErrorCode = {
  /** A character that starts no token (`>`, `'`, a non-breaking space...). */
  UnexpectedCharacter: 'unexpected-character',
  /** A string literal without its closing quote. */
  UnterminatedString: 'unterminated-string',
  /** A double-quoted string that Go's unquoting rejects (`"\d"`, `"a\"b"`, a line break). */
  InvalidString: 'invalid-string',
  /** A number not followed by whitespace, `)` or the end (`3x`, `5e1`, `50.`, `2}`). */
  InvalidNumber: 'invalid-number',
  /** `[` in a selector not followed by a string literal (`foo[3]`). */
  InvalidIndex: 'invalid-index',
  /** `[ "key"` without the closing `]`. */
  UnclosedIndex: 'unclosed-index',
  /** `(` without its `)`. */
  UnmatchedParenthesis: 'unmatched-parenthesis',
  /** `in` not followed by a selector (`x in 32`). */
  InvalidSelector: 'invalid-selector',
  /** A word operator written without the whitespace the grammar requires (`not(a == 1)`). */
  MissingWhitespace: 'missing-whitespace',
  /** `any`/`all` used as the left operand of `and`/`or` or after `not` without parentheses. */
  UnparenthesizedCollection: 'unparenthesized-collection',
  /** Any other token where it cannot go. */
  UnexpectedToken: 'unexpected-token',
  /** The text is empty or only whitespace. */
  EmptyExpression: 'empty-expression',
  /** The text is longer than `maxLength`. */
  TooLong: 'too-long',
  /** Parentheses and braces nest deeper than `maxDepth`. */
  TooDeep: 'too-deep',
  /** More match and collection clauses than `maxClauses`. */
  TooManyClauses: 'too-many-clauses',
  /** An invalid regular expression, reported only with the `strictRegex` option. */
  InvalidRegex: 'invalid-regex',
  /**
   * Typed mode (the `schema` option): a selector names a field the schema does not allow, or goes
   * through a value that has no fields (a string, a number...). The message suggests the closest
   * field name; `expected` lists the declared ones.
   * @since 0.2.0
   */
  UnknownField: 'unknown-field',
} as const;
/** One of {@link FilterSyntaxErrorCode}'s values. @since 0.1.0 */
export type FilterSyntaxErrorCode = (typeof FilterSyntaxErrorCode)[keyof typeof FilterSyntaxErrorCode];

/**
 * Codes of {@link FilterEvaluationError}.
 * @since 0.1.0
 */
export const FilterEvaluationErrorCode = {
  /** A key is absent where the missing-key defaults do not apply (top level, or an intermediate key). */
  MissingKey: 'missing-key',
  /** An array index that is negative or past the end. */
  IndexOutOfRange: 'index-out-of-range',
  /** A path segment used on an array that is not a Go integer (`Datacenters.x`). */
  InvalidIndex: 'invalid-index',
  /** A path that goes through a string, number, boolean or null (`Name.x`). */
  NotAContainer: 'not-a-container',
  /** A path that goes through a name bound to an index or key (`k.foo` after `as k, v`). */
  BoundValuePath: 'bound-value-path',
  /** The value cannot be converted to the field's kind (`Priority == abc`, `Bool == yes`). */
  InvalidValue: 'invalid-value',
  /** The operator does not apply to the kind of value found (`Meta == 1`, `"x" in Priority`). */
  UnsupportedKind: 'unsupported-kind',
  /** A `null` element reached by `in` (the reference crashes there). */
  NullElement: 'null-element',
  /** An object or array element reached by `in` over an array. */
  UncomparableElement: 'uncomparable-element',
  /** A regular expression that does not compile (reported when its clause is reached). */
  InvalidRegex: 'invalid-regex',
  /** `any`/`all` over something that is neither an array nor an object. */
  NotACollection: 'not-a-collection',
  /** `as x, x`: one name for both the index and the value. */
  DuplicateBinding: 'duplicate-binding',
} as const;
/** One of {@link FilterEvaluationErrorCode}'s values. @since 0.1.0 */
export type FilterEvaluationErrorCode =
  (typeof FilterEvaluationErrorCode)[keyof typeof FilterEvaluationErrorCode];

/**
 * One problem found while reading a filter.
 * @since 0.1.0
 */
export interface FilterDiagnostic {
  /**
   * `lex` for characters, `parse` for grammar, `limit` for the size limits, `regex` for
   * `strictRegex`, `schema` for typed mode's field check.
   */
  readonly kind: 'lex' | 'parse' | 'limit' | 'regex' | 'schema';
  /** Machine-readable reason. */
  readonly code: FilterSyntaxErrorCode;
  /** A whole sentence, without position. */
  readonly message: string;
  /** 0-based offset in UTF-16 code units (`text.length` for the end of input). */
  readonly offset: number;
  /** Length of the offending text in UTF-16 code units (0 at the end of input). */
  readonly length: number;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column, counted in code points. */
  readonly column: number;
  /** What would have been accepted at this point (labels such as `"=="`, `a selector`), if known. */
  readonly expected: readonly string[];
}

/**
 * 1-based line and code-point column of a UTF-16 offset.
 * @internal
 */
export function lineColumn(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), source.length);
  for (let i = 0; i < end; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  let column = 1;
  for (let i = lineStart; i < end; i++) {
    const c = source.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
      const d = source.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    column++;
  }
  return { line, column };
}

function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * Prints the line of `source` that holds a problem and a caret line under it.
 *
 * @param source - The filter text.
 * @param problem - Anything with a 0-based `offset` and a `length` (a diagnostic or an error).
 * @returns Two lines: the source line and `^~~~` under the offending text.
 * @example
 * ```ts
 * formatCaret('Name = "x"', { offset: 5, length: 1 });
 * // 'Name = "x"\n     ^'
 * ```
 * @since 0.1.0
 */
export function formatCaret(
  source: string,
  problem: { readonly offset: number; readonly length: number },
): string {
  const offset = Math.min(Math.max(problem.offset, 0), source.length);
  const lineStart = source.lastIndexOf('\n', offset - 1) + 1;
  let lineEnd = source.indexOf('\n', offset);
  if (lineEnd === -1) lineEnd = source.length;
  const lineText = source.slice(lineStart, lineEnd).replaceAll('\t', ' ').replaceAll('\r', ' ');
  const pad = codePoints(source.slice(lineStart, offset));
  const width = Math.max(1, codePoints(source.slice(offset, Math.min(offset + problem.length, lineEnd))));
  return `${lineText}\n${' '.repeat(pad)}^${'~'.repeat(width - 1)}`;
}

/**
 * Formats a diagnostic as `line:column: message` followed by the caret rendering.
 *
 * @param source - The filter text the diagnostic refers to.
 * @param diagnostic - One diagnostic from {@link parseFilter} or {@link FilterSyntaxError}.
 * @returns Three lines of text.
 * @example
 * ```ts
 * const result = parseFilter('Name = "x"');
 * if (!result.ok) console.log(formatDiagnostic('Name = "x"', result.diagnostics[0]!));
 * ```
 * @since 0.1.0
 */
export function formatDiagnostic(source: string, diagnostic: FilterDiagnostic): string {
  return `${diagnostic.line}:${diagnostic.column}: ${diagnostic.message}\n${formatCaret(source, diagnostic)}`;
}

const SYNTAX_BRAND = Symbol.for('@sked/filter/FilterSyntaxError');
const EVALUATION_BRAND = Symbol.for('@sked/filter/FilterEvaluationError');

function hasBrand(value: unknown, brand: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}

/**
 * Thrown by {@link compileFilter} (and the functions built on it) for text that is not a valid filter.
 *
 * `message` is one line: `line:column: sentence`, for the first diagnostic. Every diagnostic is in
 * `diagnostics`; the first one's position is copied onto the error.
 * @since 0.1.0
 */
export class FilterSyntaxError extends Error {
  /** Literal name, for logs and structured clones. */
  override readonly name = 'FilterSyntaxError' as const;
  /** Code of the first diagnostic. */
  readonly code: FilterSyntaxErrorCode;
  /** The filter text. */
  readonly source: string;
  /** Every problem found, first one first (at least one). */
  readonly diagnostics: readonly FilterDiagnostic[];
  /** 1-based line of the first problem. */
  readonly line: number;
  /** 1-based code-point column of the first problem. */
  readonly column: number;
  /** 0-based UTF-16 offset of the first problem. */
  readonly offset: number;
  /** Length of the first problem in UTF-16 code units. */
  readonly length: number;
  /** What the first problem's position would have accepted. */
  readonly expected: readonly string[];

  /**
   * @param source - The filter text.
   * @param diagnostics - At least one diagnostic.
   * @param options - Standard error options (`cause`).
   */
  constructor(source: string, diagnostics: readonly FilterDiagnostic[], options?: ErrorOptions) {
    const first = diagnostics[0] ?? {
      kind: 'parse',
      code: FilterSyntaxErrorCode.UnexpectedToken,
      message: 'The filter could not be read.',
      offset: 0,
      length: 0,
      line: 1,
      column: 1,
      expected: [],
    };
    super(`${first.line}:${first.column}: ${first.message}`, options);
    this.code = first.code;
    this.source = source;
    this.diagnostics = diagnostics.length > 0 ? diagnostics : [first];
    this.line = first.line;
    this.column = first.column;
    this.offset = first.offset;
    this.length = first.length;
    this.expected = first.expected;
    Object.defineProperty(this, SYNTAX_BRAND, { value: true });
  }

  /**
   * Renders every diagnostic with the source line and a caret under the problem.
   * @returns Multi-line text.
   */
  format(): string {
    return this.diagnostics.map((d) => formatDiagnostic(this.source, d)).join('\n');
  }

  /**
   * Whether `value` is a FilterSyntaxError, even one from another copy of this package.
   * @param value - Anything.
   * @returns `true` for a FilterSyntaxError.
   */
  static is(value: unknown): value is FilterSyntaxError {
    return hasBrand(value, SYNTAX_BRAND);
  }
}

/**
 * The kinds of value an evaluation error can report.
 * @since 0.1.0
 */
export type ValueKind =
  'string' | 'number' | 'boolean' | 'null' | 'array' | 'object' | 'integer' | 'missing' | 'unsupported';

/** Fields of a {@link FilterEvaluationError}. @since 0.1.0 */
export interface FilterEvaluationErrorInit {
  /** Machine-readable reason. */
  readonly code: FilterEvaluationErrorCode;
  /** One sentence, without position. */
  readonly reason: string;
  /** The selector in canonical written form (for example `Meta.owner`). */
  readonly selector: string;
  /** Kind of the value found where the problem happened. */
  readonly valueKind: ValueKind;
  /** The clause that failed. */
  readonly span: Span;
  /** The filter text, when known (then line, column and caret rendering are exact). */
  readonly source: string | undefined;
}

/**
 * Thrown by a compiled predicate where the language says evaluation fails (a missing top-level
 * key, a value that does not convert, an operator on the wrong kind...).
 *
 * `message` is one line: `line:column: sentence`.
 * @since 0.1.0
 */
export class FilterEvaluationError extends Error {
  /** Literal name. */
  override readonly name = 'FilterEvaluationError' as const;
  /** Machine-readable reason. */
  readonly code: FilterEvaluationErrorCode;
  /** The selector as written in canonical form. */
  readonly selector: string;
  /** Kind of the value found. */
  readonly valueKind: ValueKind;
  /** The failing clause's source range. */
  readonly span: Span;
  /** The filter text, when it is known. */
  readonly source: string | undefined;
  /** 1-based line of the clause (1 when the source is unknown). */
  readonly line: number;
  /** 1-based code-point column of the clause (offset + 1 when the source is unknown). */
  readonly column: number;
  /** 0-based UTF-16 offset of the clause. */
  readonly offset: number;
  /** Length of the clause in UTF-16 code units. */
  readonly length: number;

  /**
   * @param init - The structured fields.
   * @param options - Standard error options (`cause`).
   */
  constructor(init: FilterEvaluationErrorInit, options?: ErrorOptions) {
    const pos =
      init.source === undefined
        ? { line: 1, column: init.span.start + 1 }
        : lineColumn(init.source, init.span.start);
    super(`${pos.line}:${pos.column}: ${init.reason}`, options);
    this.code = init.code;
    this.selector = init.selector;
    this.valueKind = init.valueKind;
    this.span = init.span;
    this.source = init.source;
    this.line = pos.line;
    this.column = pos.column;
    this.offset = init.span.start;
    this.length = init.span.end - init.span.start;
    Object.defineProperty(this, EVALUATION_BRAND, { value: true });
  }

  /**
   * Renders the message with the source line and a caret under the failing clause.
   * @returns Multi-line text (just the message when the source is unknown).
   */
  format(): string {
    if (this.source === undefined) return this.message;
    return `${this.message}\n${formatCaret(this.source, this)}`;
  }

  /**
   * Whether `value` is a FilterEvaluationError, even one from another copy of this package.
   * @param value - Anything.
   * @returns `true` for a FilterEvaluationError.
   */
  static is(value: unknown): value is FilterEvaluationError {
    return hasBrand(value, EVALUATION_BRAND);
  }
}
