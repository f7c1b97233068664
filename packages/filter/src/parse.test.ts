import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { Expression } from './ast.js';
import { compileFilter } from './compile.js';
import { FilterSyntaxError } from './errors.js';
import { KEYWORDS } from './internal/lexicon.js';
import { parseFilter } from './parse.js';
import { ast, firstError, match, sel } from '../test/parse-helpers.js';

describe('parseFilter: section 2, grammar', () => {
  it('binds match, then not, then and, then or', () => {
    expect(ast('a == 1 or b == 2 and c == 3')).toMatchObject({ kind: 'or', right: { kind: 'and' } });
    expect(ast('not a == 1 and b == 2')).toMatchObject({ kind: 'and', left: { kind: 'not' } });
  });

  it('nests and/or to the right', () => {
    expect(ast('a == 1 or b == 2 or c == 3')).toMatchObject({
      kind: 'or',
      left: { selector: sel('a') },
      right: { kind: 'or', left: { selector: sel('b') }, right: { selector: sel('c') } },
    });
  });

  it('simplifies not not, also through parentheses', () => {
    expect(ast('not not a == 1')).toMatchObject({ kind: 'match' });
    expect(ast('not (not a == 1)')).toMatchObject({ kind: 'match' });
    expect(ast('not not not a == 1')).toMatchObject({ kind: 'not', operand: { kind: 'match' } });
  });

  it('makes contains the same operator as in', () => {
    expect(ast('Tags contains "x"')).toEqual(ast('"x" in Tags'));
    expect(ast('Tags not contains "x"')).toEqual(ast('"x" not in Tags'));
  });

  it('requires a selector on the right of in and at the start of other matches', () => {
    expect(firstError('x in 32').code).toBe('invalid-selector');
    expect(firstError('"x" not in "a b"').code).toBe('invalid-selector');
    expect(parseFilter('32 == 32').ok).toBe(false);
    expect(parseFilter('32 is empty').ok).toBe(false);
    expect(parseFilter('"x" == "y"').ok).toBe(false);
  });

  it('reads every operator', () => {
    const ops = [
      ['a == 1', 'equal'],
      ['a != 1', 'not-equal'],
      ['1 in a', 'in'],
      ['1 not in a', 'not-in'],
      ['a contains 1', 'in'],
      ['a not contains 1', 'not-in'],
      ['a matches "x"', 'matches'],
      ['a not matches "x"', 'not-matches'],
      ['a is empty', 'is-empty'],
      ['a is not empty', 'is-not-empty'],
      ['a is nil', 'is-nil'],
      ['a is not nil', 'is-not-nil'],
    ] as const;
    for (const [text, op] of ops) expect(match(text).operator).toBe(op);
  });

  describe('collections (surprise 7)', () => {
    it.each([
      'any L as x { x == 1 }',
      'A == 1 or any L as x { x == 1 }',
      '(any L as x { x == 1 }) and A == 1',
      'not (any L as x { x == 1 })',
      'all L as i, v { any v as k { k == 1 } }',
      'any L as i, _ { i == 0 }',
      'any L as _, v { v == 0 }',
      'any L as x{x == 1 }',
      'any "/L" as x { x == 1 }',
    ])('accepts %j', (text) => {
      expect(parseFilter(text).ok).toBe(true);
    });

    it.each([
      ['any L as x { x == 1 } and A == 1', 'unparenthesized-collection'],
      ['any L as x { x == 1 } or A == 1', 'unparenthesized-collection'],
      ['A == 1 and any L as x { x == 1 }', 'unparenthesized-collection'],
      ['not any L as x { x == 1 }', 'unparenthesized-collection'],
      ['any L as _ { x == 1 }', 'unexpected-token'],
      ['any L as _, _ { x == 1 }', 'unexpected-token'],
      ['any L as x { }', 'unexpected-token'],
    ])('rejects %j', (text, code) => {
      expect(firstError(text).code).toBe(code);
    });

    it('reads the binding forms', () => {
      expect(ast('any L as x { x == 1 }')).toMatchObject({ binding: { form: 'single', name: 'x' } });
      expect(ast('all L as i , v { v == 1 }')).toMatchObject({
        quantifier: 'all',
        binding: { form: 'pair', index: 'i', value: 'v' },
      });
      expect(ast('any L as _, v { v == 1 }')).toMatchObject({
        binding: { form: 'pair', index: null, value: 'v' },
      });
      expect(ast('any L as i, _ { i == 1 }')).toMatchObject({
        binding: { form: 'pair', index: 'i', value: null },
      });
    });
  });

  it('reports an unmatched parenthesis', () => {
    expect(firstError('(a == 1')).toMatchObject({ code: 'unmatched-parenthesis', offset: 7 });
    expect(firstError('a == 1)').code).toBe('unexpected-token');
  });
});

describe('parseFilter: diagnostics', () => {
  it('gives 1-based line and code-point column and 0-based UTF-16 offset and length', () => {
    const r = parseFilter('Name == "é" and\n  😀x == 1');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics[0]).toMatchObject({ kind: 'lex', line: 2, column: 3, offset: 18, length: 2 });
  });

  it('lists what was expected', () => {
    const r = parseFilter('Status ==');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics[0]?.offset).toBe(9);
    expect(r.diagnostics[0]?.length).toBe(0);
    expect(r.diagnostics[0]?.expected.length).toBeGreaterThan(0);
    expect(r.diagnostics[0]?.message).toMatch(/^Expected .* but found the end of the filter\.$/);
  });

  it('gives FilterSyntaxError the first diagnostic and a caret rendering', () => {
    const error = (() => {
      try {
        compileFilter('Name = "x"');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(FilterSyntaxError.is(error)).toBe(true);
    const e = error as FilterSyntaxError;
    expect(e.name).toBe('FilterSyntaxError');
    expect(e.message).toBe('1:6: Unexpected character "=" (U+003D). Comparisons are written "==" and "!=".');
    expect(e.format()).toBe(`${e.message}\nName = "x"\n     ^`);
    expect(e).toMatchObject({
      code: 'unexpected-character',
      line: 1,
      column: 6,
      offset: 5,
      length: 1,
      source: 'Name = "x"',
    });
  });
});

describe('parseFilter: limits', () => {
  const nested = (n: number): string => '('.repeat(n) + 'a == 1' + ')'.repeat(n);

  it('parses 100 levels of parentheses', () => {
    expect(parseFilter(nested(100)).ok).toBe(true);
    expect(compileFilter(nested(100))({ a: 1 })).toBe(true);
  });

  it('rejects 1,000 levels with a clear limit error, not a stack overflow', () => {
    const r = parseFilter(nested(1000));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics[0]).toMatchObject({ kind: 'limit', code: 'too-deep', offset: 128 });
    expect(r.diagnostics[0]?.message).toBe(
      'The filter nests parentheses and braces more than 128 levels deep, the limit.',
    );
  });

  it('counts collection braces as nesting', () => {
    const text = 'any L as x { '.repeat(5) + 'x == 1' + ' }'.repeat(5);
    expect(parseFilter(text, { maxDepth: 4 }).ok).toBe(false);
    expect(parseFilter(text, { maxDepth: 5 }).ok).toBe(true);
  });

  it('handles 10,000 nots and long chains without recursion', () => {
    expect(parseFilter('not '.repeat(10_001) + 'a == 1').ok).toBe(true);
    const chain = Array.from({ length: 9000 }, (_, i) => `a == ${i}`).join(' or ');
    const r = parseFilter(chain);
    expect(r.ok).toBe(true);
    expect(compileFilter(chain)({ a: 8999 })).toBe(true);
  });

  it('limits the text length and the number of clauses', () => {
    expect(firstError('a == "' + 'x'.repeat(131_073) + '"').code).toBe('too-long');
    expect(parseFilter('a == 1 or b == 2', { maxClauses: 1 })).toMatchObject({
      ok: false,
      diagnostics: [{ code: 'too-many-clauses' }],
    });
    expect(parseFilter('a == 1', { maxLength: 3 })).toMatchObject({
      ok: false,
      diagnostics: [{ code: 'too-long', offset: 3 }],
    });
  });

  it('reports invalid regexes only with strictRegex (decision 6)', () => {
    expect(parseFilter('Name matches "("').ok).toBe(true);
    expect(parseFilter('Name matches "("', { strictRegex: true })).toMatchObject({
      ok: false,
      diagnostics: [{ kind: 'regex', code: 'invalid-regex', offset: 13, length: 3 }],
    });
    expect(parseFilter('Name matches "(?=x)"', { strictRegex: true }).ok).toBe(false);
    expect(parseFilter('Name matches "(?i)^web"', { strictRegex: true }).ok).toBe(true);
  });
});

describe('properties', () => {
  const diagnosticsInRange = (text: string): void => {
    const r = parseFilter(text);
    if (r.ok) return;
    expect(r.diagnostics.length).toBeGreaterThan(0);
    for (const d of r.diagnostics) {
      expect(d.offset).toBeGreaterThanOrEqual(0);
      expect(d.offset + d.length).toBeLessThanOrEqual(text.length);
      expect(d.line).toBeGreaterThanOrEqual(1);
      expect(d.column).toBeGreaterThanOrEqual(1);
      expect(d.message.length).toBeGreaterThan(0);
    }
  };

  test.prop([fc.string({ unit: 'binary', maxLength: 60 })])(
    'any Unicode string parses or gives diagnostics in range',
    (text) => {
      diagnosticsInRange(text);
    },
  );

  const pieces = fc.constantFrom(
    'a',
    'Meta',
    '.x',
    '.0',
    '["k"]',
    '[',
    ']',
    '(',
    ')',
    '{',
    '}',
    ',',
    '_',
    ' ',
    ' ',
    '\n',
    '==',
    '!=',
    ...KEYWORDS,
    '"x"',
    '"/a/b"',
    '`r`',
    '1',
    '-2.5',
    '"',
    '`',
    '\\',
  );
  test.prop([fc.array(pieces, { maxLength: 25 }).map((p) => p.join(''))])(
    'token soup parses or gives diagnostics in range',
    (text) => {
      diagnosticsInRange(text);
    },
  );

  test.prop([fc.array(pieces, { maxLength: 25 }).map((p) => p.join(''))])(
    'compileFilter throws only FilterSyntaxError',
    (text) => {
      try {
        compileFilter(text);
      } catch (e) {
        expect(FilterSyntaxError.is(e)).toBe(true);
      }
    },
  );

  it('handles deep hostile input quickly', () => {
    const inputs = [
      '('.repeat(100_000),
      '{'.repeat(50_000),
      'not '.repeat(30_000),
      '"'.repeat(100_000),
      'a.'.repeat(50_000),
    ];
    for (const text of inputs) {
      diagnosticsInRange(text);
      expect(parseFilter(text).ok).toBe(false);
    }
  });

  test.prop([fc.string({ unit: 'binary', maxLength: 60 })])(
    'any Unicode string compiles or throws only FilterSyntaxError',
    (text) => {
      try {
        compileFilter(text);
      } catch (e) {
        expect(FilterSyntaxError.is(e)).toBe(true);
        expect((e as Error).message).not.toMatch(/[\r\n]/);
      }
    },
  );

  it('keeps messages on one line even for multi-line tokens', () => {
    expect(firstError('a == 1 `x\ny`').message).toBe(
      'Unexpected "`x\\ny`" after a complete expression; expected "and", "or" or the end of the filter.',
    );
  });

  it('parses and prints back the same tree for a sample', () => {
    const r = parseFilter('a == 1');
    expect(r.ok && (r.ast as Expression).kind).toBe('match');
  });
});
