/**
 * Diagnostics of the parser: the recognition exception our own checks raise, chevrotain's error
 * messages in our words, and how a token is described in a message.
 * @internal
 * @packageDocumentation
 */
import {
  EOF,
  type IParserErrorMessageProvider,
  type IToken,
  MismatchedTokenException,
  type TokenType,
} from 'chevrotain';
import type { FilterSyntaxErrorCode } from './errors.js';

/**
 * A failure found by one of the grammar's own checks (whitespace around a word operator, an
 * unclosed `(` or `[`, a collection in the wrong place, the clause limit). It is a chevrotain
 * recognition exception, so backtracking treats it as "this alternative does not parse" and the
 * parse ends with it as chevrotain's own do; it also carries our code, span and expected tokens.
 * @internal
 */
export class FilterRecognitionError extends MismatchedTokenException {
  constructor(
    readonly code: FilterSyntaxErrorCode,
    message: string,
    token: IToken,
    readonly offset: number,
    readonly length: number,
    readonly expected: readonly string[] = [],
  ) {
    super(message, token, token);
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

function joinOr(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? 'something else';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1] as string}`;
}

function firstLabels(paths: readonly (readonly TokenType[])[]): string[] {
  const labels = new Set<string>();
  for (const path of paths) if (path[0]) labels.add(label(path[0]));
  return [...labels];
}

/**
 * chevrotain's error messages, in our words. A message names the tokens that were expected, and
 * those tokens are recorded in `expected` under the message, so the diagnostic built from the
 * recognition exception (which carries the message) can list them. One map per parser instance,
 * cleared before each parse.
 * @internal
 */
export function errorMessages(expected: Map<string, readonly string[]>): IParserErrorMessageProvider {
  const record = (message: string, labels: readonly string[]): string => {
    expected.set(message, labels);
    return message;
  };
  const found = (actual: readonly IToken[]): string =>
    actual[0] ? describeToken(actual[0]) : 'the end of the filter';
  return {
    buildMismatchTokenMessage: ({ expected: type, actual }) =>
      record(`Expected ${label(type)} but found ${describeToken(actual)}.`, [label(type)]),
    buildNotAllInputParsedMessage: ({ firstRedundant }) =>
      record(
        `Unexpected ${describeToken(firstRedundant)} after a complete expression; expected "and", "or" or the end of the filter.`,
        ['"and"', '"or"', 'the end of the filter'],
      ),
    buildNoViableAltMessage: ({ expectedPathsPerAlt, actual }) => {
      const labels = firstLabels(expectedPathsPerAlt.flat());
      return record(`Expected ${joinOr(labels)} but found ${found(actual)}.`, labels);
    },
    buildEarlyExitMessage: ({ expectedIterationPaths, actual }) => {
      const labels = firstLabels(expectedIterationPaths);
      return record(`Expected ${joinOr(labels)} but found ${found(actual)}.`, labels);
    },
  };
}
