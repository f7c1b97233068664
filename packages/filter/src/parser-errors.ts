/**
 * Diagnostics of the parser: our own parse failures, chevrotain's error messages (with the tokens
 * that were expected), and how a token is described in a message.
 * @internal
 * @packageDocumentation
 */
import { EOF, type IParserErrorMessageProvider, type IToken, type TokenType } from 'chevrotain';
import type { Expression } from './ast.js';
import { FilterSyntaxErrorCode } from './errors.js';

/** A parse failure raised by our own checks (chevrotain's own errors land in `parser.errors`). @internal */
export class ParseFailure extends Error {
  constructor(
    readonly code: FilterSyntaxErrorCode,
    readonly reason: string,
    readonly offset: number,
    readonly length: number,
    readonly expected: readonly string[] = [],
  ) {
    super(reason);
  }
}

/** Describes a token for messages. @internal */
export function describeToken(token: IToken): string {
  if (token.tokenType === EOF) return 'the end of the filter';
  const oneLine = token.image.replaceAll('\r', '\\r').replaceAll('\n', '\\n');
  const image = oneLine.length > 40 ? `${oneLine.slice(0, 37)}...` : oneLine;
  return `"${image}"`;
}

function label(t: TokenType): string {
  return t.LABEL ?? t.name;
}

/** Expected labels recorded by the error message provider for the last chevrotain error. */
let lastExpected: string[] = [];

/** chevrotain's error messages, in our words. @internal */
export const messages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual }) {
    lastExpected = [label(expected)];
    return `Expected ${label(expected)} but found ${describeToken(actual)}.`;
  },
  buildNotAllInputParsedMessage({ firstRedundant }) {
    lastExpected = ['"and"', '"or"', 'the end of the filter'];
    return `Unexpected ${describeToken(firstRedundant)} after a complete expression; expected "and", "or" or the end of the filter.`;
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, actual }) {
    const labels = new Set<string>();
    for (const alt of expectedPathsPerAlt) for (const path of alt) if (path[0]) labels.add(label(path[0]));
    lastExpected = [...labels];
    const first = actual[0];
    return `Expected ${joinOr(lastExpected)} but found ${first ? describeToken(first) : 'the end of the filter'}.`;
  },
  buildEarlyExitMessage({ expectedIterationPaths, actual }) {
    const labels = new Set<string>();
    for (const path of expectedIterationPaths) if (path[0]) labels.add(label(path[0]));
    lastExpected = [...labels];
    const first = actual[0];
    return `Expected ${joinOr(lastExpected)} but found ${first ? describeToken(first) : 'the end of the filter'}.`;
  },
};

function joinOr(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? 'something else';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1] as string}`;
}

/** Takes the expected labels of the last chevrotain error. @internal */
export function takeExpected(): string[] {
  const e = lastExpected;
  lastExpected = [];
  return e;
}

/** Forgets the expected labels of an earlier parse. @internal */
export function resetExpected(): void {
  lastExpected = [];
}

/** A collection used as the left operand of `and`/`or`. @internal */
export function unparenthesized(expr: Expression, op: 'and' | 'or'): ParseFailure {
  return new ParseFailure(
    FilterSyntaxErrorCode.UnparenthesizedCollection,
    `A collection expression cannot be the left operand of "${op}"; wrap it in parentheses.`,
    expr.span.start,
    expr.span.end - expr.span.start,
    ['the end of the filter', '")"', '"}"'],
  );
}
