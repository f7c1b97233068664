import { createToken, Lexer, type TokenType } from 'chevrotain';

/**
 * Tokens of the filter language (chevrotain). Keywords are not reserved: every keyword token is in
 * the `Name` category, so the parser accepts it wherever a selector segment may go.
 * @internal
 * @packageDocumentation
 */

/** Category of every token that can be a selector's first segment. @internal */
export const Name: TokenType = createToken({ name: 'Name', pattern: Lexer.NA, label: 'a name' });

/** `[a-zA-Z][a-zA-Z0-9_/]*` @internal */
export const Identifier: TokenType = createToken({
  name: 'Identifier',
  pattern: /[a-zA-Z][a-zA-Z0-9_/]*/,
  categories: [Name],
  label: 'a selector',
});

function keyword(word: string): TokenType {
  const name = word[0]?.toUpperCase() + word.slice(1);
  return createToken({
    name,
    pattern: new RegExp(word),
    longer_alt: Identifier,
    categories: [Name],
    label: `"${word}"`,
  });
}

/** @internal */ export const And: TokenType = keyword('and');
/** @internal */ export const Or: TokenType = keyword('or');
/** @internal */ export const Not: TokenType = keyword('not');
/** @internal */ export const In: TokenType = keyword('in');
/** @internal */ export const Contains: TokenType = keyword('contains');
/** @internal */ export const Matches: TokenType = keyword('matches');
/** @internal */ export const Is: TokenType = keyword('is');
/** @internal */ export const Empty: TokenType = keyword('empty');
/** @internal */ export const Nil: TokenType = keyword('nil');
/** @internal */ export const Any: TokenType = keyword('any');
/** @internal */ export const All: TokenType = keyword('all');
/** @internal */ export const As: TokenType = keyword('as');

/** `.name` or `.123` right after a selector piece. @internal */
export const DotSegment: TokenType = createToken({
  name: 'DotSegment',
  pattern: /\.(?:[a-zA-Z][a-zA-Z0-9_/]*|[0-9]+)/,
  label: '".name"',
});

/** `"..."`, ending at the first `"`. @internal */
export const DoubleQuoted: TokenType = createToken({
  name: 'DoubleQuoted',
  pattern: /"[^"]*"/,
  line_breaks: true,
  label: 'a double-quoted string',
});
/** The JSON Pointer shape of a double-quoted string's body: zero or more `/segment`. */
const POINTER_BODY = /^(?:\/[\p{L}\p{N}\-_.~:|]+)*$/u;

/** The pointer-shaped double-quoted string at `offset`, if any (a custom pattern: Unicode classes). */
function pointerAt(text: string, offset: number): [string] | null {
  if (text.charCodeAt(offset) !== 34) return null;
  const end = text.indexOf('"', offset + 1);
  if (end < 0 || !POINTER_BODY.test(text.slice(offset + 1, end))) return null;
  return [text.slice(offset, end + 1)];
}

/**
 * A double-quoted string with the JSON Pointer shape (`"/a/b"`, and `""`): a selector where one
 * may stand, otherwise a string (it is in the {@link DoubleQuoted} category). Deciding this in the
 * lexer keeps the parser's choice between a selector and a literal to one token of lookahead.
 * @internal
 */
export const PointerString: TokenType = createToken({
  name: 'PointerString',
  pattern: { exec: pointerAt },
  start_chars_hint: ['"'],
  line_breaks: false,
  categories: [DoubleQuoted],
  label: 'a double-quoted string',
});
/** `` `...` `` @internal */
export const RawString: TokenType = createToken({
  name: 'RawString',
  pattern: /`[^`]*`/,
  line_breaks: true,
  label: 'a backtick string',
});
/** A string that runs to the end of input. @internal */
export const UnterminatedString: TokenType = createToken({
  name: 'UnterminatedString',
  pattern: /["`][^]*/,
  line_breaks: true,
  label: 'an unterminated string',
});
/** `-?(0|[1-9][0-9]*)(\.[0-9]+)?` @internal */
export const NumberLiteral: TokenType = createToken({
  name: 'NumberLiteral',
  pattern: /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?/,
  label: 'a number',
});

/** @internal */ export const Equal: TokenType = createToken({ name: 'Equal', pattern: /==/, label: '"=="' });
/** @internal */ export const NotEqual: TokenType = createToken({
  name: 'NotEqual',
  pattern: /!=/,
  label: '"!="',
});
/** @internal */ export const LParen: TokenType = createToken({
  name: 'LParen',
  pattern: /\(/,
  label: '"("',
});
/** @internal */ export const RParen: TokenType = createToken({
  name: 'RParen',
  pattern: /\)/,
  label: '")"',
});
/** @internal */ export const LBrace: TokenType = createToken({
  name: 'LBrace',
  pattern: /\{/,
  label: '"{"',
});
/** @internal */ export const RBrace: TokenType = createToken({
  name: 'RBrace',
  pattern: /\}/,
  label: '"}"',
});
/** @internal */ export const LBracket: TokenType = createToken({
  name: 'LBracket',
  pattern: /\[/,
  label: '"["',
});
/** @internal */ export const RBracket: TokenType = createToken({
  name: 'RBracket',
  pattern: /\]/,
  label: '"]"',
});
/** @internal */ export const Comma: TokenType = createToken({ name: 'Comma', pattern: /,/, label: '","' });
/** @internal */ export const Underscore: TokenType = createToken({
  name: 'Underscore',
  pattern: /_/,
  label: '"_"',
});

/** Space, TAB, CR and LF only. @internal */
export const WhiteSpace: TokenType = createToken({
  name: 'WhiteSpace',
  pattern: /[ \t\r\n]+/,
  group: Lexer.SKIPPED,
  line_breaks: true,
});

/** Every token, in lexing order. @internal */
export const allTokens: TokenType[] = [
  WhiteSpace,
  Equal,
  NotEqual,
  LParen,
  RParen,
  LBrace,
  RBrace,
  LBracket,
  RBracket,
  Comma,
  PointerString,
  DoubleQuoted,
  RawString,
  UnterminatedString,
  NumberLiteral,
  DotSegment,
  And,
  Or,
  Not,
  In,
  Contains,
  Matches,
  Is,
  Empty,
  Nil,
  Any,
  All,
  As,
  Identifier,
  Underscore,
  Name,
];

let lexer: Lexer | undefined;

/**
 * The lexer, created on first use (its analysis costs milliseconds that a program importing the
 * package only to print or build filters should not pay). @internal
 */
export function filterLexer(): Lexer {
  lexer ??= new Lexer(allTokens, { positionTracking: 'onlyOffset', ensureOptimizations: false });
  return lexer;
}
