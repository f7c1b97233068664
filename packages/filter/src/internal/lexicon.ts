/**
 * Words and names of the filter language shared by the printer, the builder and completion
 * (the lexer in `tokens.ts` defines one token per keyword).
 * @internal
 * @packageDocumentation
 */

/** The keywords, in the order completion offers them. @internal */
export const KEYWORDS = [
  'and',
  'or',
  'not',
  'in',
  'contains',
  'matches',
  'is',
  'empty',
  'nil',
  'any',
  'all',
  'as',
] as const;

/** One keyword. @internal */
export type Keyword = (typeof KEYWORDS)[number];

const KEYWORD_SET: ReadonlySet<string> = new Set(KEYWORDS);

/**
 * Whether a word is a keyword.
 * @param word - Any text.
 * @returns `true` for the words of {@link KEYWORDS}.
 * @internal
 */
export function isKeyword(word: string): word is Keyword {
  return KEYWORD_SET.has(word);
}

/** A whole identifier (selector segment or binding name): `[a-zA-Z][a-zA-Z0-9_/]*`. @internal */
export const IDENTIFIER = /^[a-zA-Z][a-zA-Z0-9_/]*$/;
