import { EOF, type IRecognitionException, type IToken } from 'chevrotain';
import type { Expression } from './ast.js';
import { type FilterDiagnostic, FilterSyntaxErrorCode, lineColumn } from './errors.js';
import { goUnquote } from './internal/go-strconv.js';
import { compileRegex } from './internal/regex.js';
import { walk } from './internal/walk.js';
import { resolveLimits, type ParseOptions } from './options.js';
import { FilterRecognitionError } from './parser-errors.js';
import { FilterParser } from './parser.js';
import {
  DoubleQuoted,
  filterLexer,
  LBrace,
  LParen,
  NumberLiteral,
  RBrace,
  RParen,
  UnterminatedString,
} from './tokens.js';

/**
 * Result of {@link parseFilter}: the AST, or every problem found.
 * @since 0.1.0
 */
export type ParseResult =
  | {
      /** The text is a valid filter. */
      readonly ok: true;
      /** Its tree. */
      readonly ast: Expression;
    }
  | {
      /** The text is not a valid filter. */
      readonly ok: false;
      /** Every problem found (at least one), in source order. */
      readonly diagnostics: readonly FilterDiagnostic[];
    };

let parserInstance: FilterParser | undefined;

/** The parser, created on first use (see `filterLexer`). */
function parser(): FilterParser {
  parserInstance ??= new FilterParser();
  return parserInstance;
}

/** Source text of ASTs returned by parseFilter (for line/column of evaluation errors). */
const sources = new WeakMap<Expression, string>();

/** The text an AST was parsed from, if it came from {@link parseFilter}. @internal */
export function sourceOf(ast: Expression): string | undefined {
  return sources.get(ast);
}

type Draft = Omit<FilterDiagnostic, 'line' | 'column'>;

function finish(source: string, drafts: readonly Draft[]): FilterDiagnostic[] {
  return drafts.map((d) => ({ ...d, ...lineColumn(source, d.offset) }));
}

function quoteText(text: string): string {
  const short = text.length > 40 ? `${text.slice(0, 37)}...` : text;
  return JSON.stringify(short);
}

/** A string literal as written, shortened, with line breaks shown as \n. */
function shortLiteral(image: string): string {
  const one = image.replaceAll('\r', '\\r').replaceAll('\n', '\\n');
  return one.length > 40 ? `${one.slice(0, 37)}...` : one;
}

/** Lexes and checks token-level rules (strings, numbers, nesting). @internal */
export function lex(text: string, maxDepth: number): { tokens: IToken[]; diagnostics: Draft[] } {
  const result = filterLexer().tokenize(text);
  const diagnostics: Draft[] = [];
  for (const e of result.errors) {
    const ch = String.fromCodePoint(text.codePointAt(e.offset) ?? 0);
    const hint =
      ch === '>' || ch === '<'
        ? ' There are no ordering operators (<, >, <=, >=) in this language.'
        : ch === "'"
          ? ' Strings use double quotes or backticks.'
          : ch === '=' || ch === '!'
            ? ' Comparisons are written "==" and "!=".'
            : '';
    diagnostics.push({
      kind: 'lex',
      code: FilterSyntaxErrorCode.UnexpectedCharacter,
      message: `Unexpected character ${quoteText(ch)}${ch.length === 1 ? ` (U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})` : ''}.${hint}`,
      offset: e.offset,
      length: e.length,
      expected: [],
    });
  }
  const tokens = result.tokens;
  let depth = 0;
  let depthReported = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as IToken;
    const type = t.tokenType;
    if (type === LParen || type === LBrace) {
      depth++;
      if (depth > maxDepth && !depthReported) {
        depthReported = true;
        diagnostics.push({
          kind: 'limit',
          code: FilterSyntaxErrorCode.TooDeep,
          message: `The filter nests parentheses and braces more than ${maxDepth} levels deep, the limit.`,
          offset: t.startOffset,
          length: 1,
          expected: [],
        });
      }
    } else if (type === RParen || type === RBrace) {
      if (depth > 0) depth--;
    } else if (type === UnterminatedString) {
      diagnostics.push({
        kind: 'lex',
        code: FilterSyntaxErrorCode.UnterminatedString,
        message: `The string ${shortLiteral(t.image)} is not closed; add the closing ${t.image[0] === '`' ? 'backtick' : 'double quote'}.`,
        offset: t.startOffset,
        length: t.image.length,
        expected: [t.image[0] === '`' ? '"`"' : '"\\""'],
      });
    } else if (type === DoubleQuoted) {
      const r = goUnquote(t.image);
      if (!r.ok) {
        diagnostics.push({
          kind: 'lex',
          code: FilterSyntaxErrorCode.InvalidString,
          message: `The string ${shortLiteral(t.image)} is invalid: ${r.reason}. A double-quoted string ends at the first '"' and takes Go escapes only; use backticks for regular expressions and quotes.`,
          offset: t.startOffset,
          length: t.image.length,
          expected: [],
        });
      }
    } else if (type === NumberLiteral) {
      const end = t.startOffset + t.image.length;
      const next = text.charCodeAt(end);
      if (!(end >= text.length || next === 32 || next === 9 || next === 10 || next === 13 || next === 41)) {
        let stop = end;
        while (stop < text.length && !/[\s()]/.test(text[stop] as string)) stop++;
        const written = text.slice(t.startOffset, stop);
        diagnostics.push({
          kind: 'lex',
          code: FilterSyntaxErrorCode.InvalidNumber,
          message: `The number ${quoteText(written)} is invalid: a number is written -?(0|[1-9][0-9]*)(.[0-9]+)? and must be followed by whitespace, ")" or the end.`,
          offset: t.startOffset,
          length: stop - t.startOffset,
          expected: [],
        });
      }
    }
  }
  return { tokens, diagnostics };
}

/** The diagnostic of the parser's first recognition exception. */
function fromRecognition(text: string, e: IRecognitionException): Draft {
  if (e instanceof FilterRecognitionError) {
    return {
      kind: e.code === FilterSyntaxErrorCode.TooManyClauses ? 'limit' : 'parse',
      code: e.code,
      message: e.message,
      offset: e.offset,
      length: e.length,
      expected: e.expected,
    };
  }
  const tok = e.token;
  const atEnd = tok.tokenType === EOF || Number.isNaN(tok.startOffset);
  return {
    kind: 'parse',
    code: FilterSyntaxErrorCode.UnexpectedToken,
    message: e.message,
    offset: atEnd ? text.length : tok.startOffset,
    length: atEnd ? 0 : tok.image.length,
    expected: parser().expectedOf(e.message),
  };
}

/**
 * Runs the parser on already-lexed tokens. @internal
 */
export function parseTokens(
  text: string,
  tokens: IToken[],
  maxClauses: number,
  partial: boolean,
): { ast: Expression | undefined; diagnostics: Draft[] } {
  const result = parser().parse(tokens, text.length, maxClauses, partial);
  if ('error' in result) return { ast: undefined, diagnostics: [fromRecognition(text, result.error)] };
  return { ast: result.ast, diagnostics: [] };
}

/**
 * Parses a filter expression into its AST.
 *
 * Never throws for any input: problems come back as diagnostics with 1-based line and column and
 * 0-based UTF-16 offset and length. Nesting deeper than `maxDepth` is rejected before the
 * (recursive) parser runs, so hostile input cannot overflow the stack.
 *
 * @param text - The filter, as given in the `filter` query parameter.
 * @param options - Limits and `strictRegex`.
 * @returns `{ ok: true, ast }` or `{ ok: false, diagnostics }`.
 * @example
 * ```ts
 * const result = parseFilter('Status == "running" and "dc1" in Datacenters');
 * if (result.ok) console.log(result.ast.kind); // 'and'
 * ```
 * @since 0.1.0
 */
export function parseFilter(text: string, options?: ParseOptions): ParseResult {
  const result = parseText(text, options);
  if (result.ok) sources.set(result.ast, text);
  return result;
}

/**
 * {@link parseFilter} without remembering the text of the AST (`compileFilter` has the text at
 * hand; a `WeakMap` entry per parse costs the garbage collector). @internal
 */
export function parseText(
  text: string,
  options?: ParseOptions,
  lexedAlready?: { tokens: IToken[]; diagnostics: Draft[] },
): ParseResult {
  const limits = resolveLimits(options);
  if (typeof text !== 'string') {
    return {
      ok: false,
      diagnostics: finish('', [
        {
          kind: 'parse',
          code: FilterSyntaxErrorCode.EmptyExpression,
          message: `A filter must be a string but got ${typeof text}.`,
          offset: 0,
          length: 0,
          expected: [],
        },
      ]),
    };
  }
  if (text.length > limits.maxLength) {
    return {
      ok: false,
      diagnostics: finish(text, [
        {
          kind: 'limit',
          code: FilterSyntaxErrorCode.TooLong,
          message: `The filter is ${text.length} characters long, more than the limit of ${limits.maxLength}.`,
          offset: limits.maxLength,
          length: text.length - limits.maxLength,
          expected: [],
        },
      ]),
    };
  }
  if (/^[ \t\r\n]*$/.test(text)) {
    return {
      ok: false,
      diagnostics: finish(text, [
        {
          kind: 'parse',
          code: FilterSyntaxErrorCode.EmptyExpression,
          message: 'The filter is empty; expected an expression such as Status == "running".',
          offset: text.length,
          length: 0,
          expected: ['a selector', 'a value', '"not"', '"("', '"any"', '"all"'],
        },
      ]),
    };
  }
  const lexed = lexedAlready ?? lex(text, limits.maxDepth);
  if (lexed.diagnostics.length > 0) {
    const sorted = [...lexed.diagnostics].sort((a, b) => a.offset - b.offset);
    return { ok: false, diagnostics: finish(text, sorted) };
  }
  const parsed = parseTokens(text, lexed.tokens, limits.maxClauses, false);
  if (parsed.ast === undefined) return { ok: false, diagnostics: finish(text, parsed.diagnostics) };
  if (options?.strictRegex === true) {
    const problems: Draft[] = [];
    walk(parsed.ast, (node) => {
      if (
        node.kind === 'match' &&
        (node.operator === 'matches' || node.operator === 'not-matches') &&
        node.value
      ) {
        const r = compileRegex(node.value.raw);
        if (!r.ok) {
          problems.push({
            kind: 'regex',
            code: FilterSyntaxErrorCode.InvalidRegex,
            message: `The regular expression ${quoteText(node.value.raw)} is invalid: ${r.reason.replaceAll('\n', '\\n')}.`,
            offset: node.value.span.start,
            length: node.value.span.end - node.value.span.start,
            expected: [],
          });
        }
      }
    });
    if (problems.length > 0) return { ok: false, diagnostics: finish(text, problems) };
  }
  return { ok: true, ast: parsed.ast };
}
