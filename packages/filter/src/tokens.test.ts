import { Lexer } from 'chevrotain';
import { describe, expect, it } from 'vitest';
import { allTokens } from './tokens.js';

const lexer = new Lexer(allTokens, { positionTracking: 'onlyOffset', ensureOptimizations: true });
const kinds = (text: string): string[] => lexer.tokenize(text).tokens.map((t) => t.tokenType.name);

describe('tokens', () => {
  it('builds an optimised lexer', () => {
    expect(lexer.lexerDefinitionErrors).toEqual([]);
  });

  it('lexes keywords only as whole words', () => {
    expect(kinds('and andx index in is isx')).toEqual([
      'And',
      'Identifier',
      'Identifier',
      'In',
      'Is',
      'Identifier',
    ]);
    expect(kinds('a/b.c.0["x"]')).toEqual([
      'Identifier',
      'DotSegment',
      'DotSegment',
      'LBracket',
      'DoubleQuoted',
      'RBracket',
    ]);
  });

  it('lexes numbers, strings and operators', () => {
    expect(kinds('-1.5 == `r` != "s" ( ) { } , _')).toEqual([
      'NumberLiteral',
      'Equal',
      'RawString',
      'NotEqual',
      'DoubleQuoted',
      'LParen',
      'RParen',
      'LBrace',
      'RBrace',
      'Comma',
      'Underscore',
    ]);
    expect(kinds('"abc')).toEqual(['UnterminatedString']);
  });

  it('skips only space, tab, CR and LF', () => {
    expect(lexer.tokenize('a \t\r\nb').errors).toEqual([]);
    expect(lexer.tokenize('a\u00a0b').errors).toHaveLength(1);
    expect(lexer.tokenize('a\fb').errors).toHaveLength(1);
  });
});
