import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { completeFilter } from './complete.js';
import { parseFilter } from './parse.js';
import { filterLexer, PointerString } from './tokens.js';
import { ast, match, sel } from '../test/parse-helpers.js';

/** The expected tokens and message of a text's first diagnostic. */
function failure(text: string): { code: string; expected: readonly string[]; message: string } {
  const r = parseFilter(text);
  if (r.ok) throw new Error(`expected ${JSON.stringify(text)} to fail`);
  const d = r.diagnostics[0]!;
  return { code: d.code, expected: d.expected, message: d.message };
}

describe('the parser: ordered choices decided by backtracking', () => {
  it('reads any/all as a field when a clause starts there, else as a collection', () => {
    expect(match('any == 1').selector).toEqual(expect.objectContaining(sel('any')));
    expect(match('all in L').value?.raw).toBe('all');
    expect(ast('any L as x { x == 1 }')).toMatchObject({ kind: 'collection', quantifier: 'any' });
    expect(ast('A == 1 or all L as x { x == 1 }')).toMatchObject({ right: { kind: 'collection' } });
  });

  it('reads not as the operator only where its operand follows', () => {
    expect(match('not == 1').selector).toEqual(expect.objectContaining(sel('not')));
    expect(ast('not not == 1')).toMatchObject({ kind: 'not', operand: { selector: sel('not') } });
    expect(match('not contains "x"').selector).toEqual(expect.objectContaining(sel('not')));
    expect(ast('not (a == 1)')).toMatchObject({ kind: 'not' });
    expect(failure('not(a == 1)').code).toBe('unexpected-token');
  });

  it('does not count the clauses an attempt reads against maxClauses', () => {
    expect(parseFilter('any == 1', { maxClauses: 1 }).ok).toBe(true);
    expect(parseFilter('not a == 1 and not b == 2', { maxClauses: 2 }).ok).toBe(true);
    expect(parseFilter('A == 1 or any L as x { x == 1 }', { maxClauses: 3 }).ok).toBe(true);
    const over = parseFilter('A == 1 or any L as x { x == 1 }', { maxClauses: 2 });
    expect(over.ok ? undefined : over.diagnostics[0]?.code).toBe('too-many-clauses');
  });

  it('keeps the expected tokens with the parse that reported them', () => {
    const first = failure('Name ==');
    expect(failure('32 == 32').expected).toEqual(['"in"']);
    expect(failure('(a == 1').expected).toEqual(['")"', '"and"', '"or"']);
    expect(failure('Name ==')).toEqual(first);
    // An attempt that failed (any as a field) leaves no trace in the error of the real parse.
    expect(failure('any L as _ { x == 1 }').expected).toEqual(['","']);
  });

  it('completes after a not that only the rest of the text can decide', () => {
    const labels = (text: string): string[] =>
      completeFilter(text, text.length, { samples: [{ Name: 'x' }] }).items.map((i) => i.label);
    expect(labels('not ')).toEqual(expect.arrayContaining(['Name', '(', 'not']));
    expect(labels('not Name ')).toEqual(expect.arrayContaining(['==', 'is']));
    expect(labels('any ')).toEqual(expect.arrayContaining(['Name']));
  });
});

describe('the lexer: pointer-shaped double-quoted strings', () => {
  const pointerAlphabet = fc.constantFrom(
    '/',
    'a',
    'Z',
    '9',
    'é',
    '-',
    '_',
    '.',
    '~',
    ':',
    '|',
    ' ',
    '@',
    '\\',
  );

  test.prop([fc.array(pointerAlphabet, { maxLength: 12 }).map((cs) => cs.join(''))])(
    'a double-quoted string is a PointerString exactly when it has the JSON Pointer shape',
    (body) => {
      const tokens = filterLexer().tokenize(`"${body}"`).tokens;
      const shaped = /^(?:\/[\p{L}\p{N}\-_.~:|]+)*$/u.test(body);
      expect(tokens).toHaveLength(1);
      expect(tokens[0]!.tokenType === PointerString).toBe(shaped);
    },
  );

  it('makes a pointer-shaped string a selector, and a string in value position', () => {
    expect(match('"/Meta/a~1b" == 1').selector).toEqual(expect.objectContaining(sel('Meta', 'a/b')));
    expect(match('Name == "/web-1"').value?.raw).toBe('web-1');
    expect(match('Name == "/a b"').value?.raw).toBe('/a b');
    expect(match('Name == ""').value?.raw).toBe('');
    expect(failure('"/a b" == 1').expected).toEqual(['"in"']);
  });
});
