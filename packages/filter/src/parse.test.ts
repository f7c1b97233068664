import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { stripSpans } from '../test/arbitraries.js';
import type { Expression, MatchNode } from './ast.js';
import { compileFilter } from './compile.js';
import { FilterSyntaxError } from './errors.js';
import { parseFilter } from './parse.js';

function ast(text: string): unknown {
  const r = parseFilter(text);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(text)} to parse: ${r.diagnostics[0]?.message}`);
  return stripSpans(r.ast);
}

function match(text: string): MatchNode {
  const r = parseFilter(text);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(text)} to parse: ${r.diagnostics[0]?.message}`);
  if (r.ast.kind !== 'match') throw new Error(`expected a match, got ${r.ast.kind}`);
  return r.ast;
}

function firstError(text: string): { code: string; offset: number; message: string } {
  const r = parseFilter(text);
  if (r.ok) throw new Error(`expected ${JSON.stringify(text)} to fail`);
  const d = r.diagnostics[0]!;
  return { code: d.code, offset: d.offset, message: d.message };
}

const sel = (...path: string[]): unknown => ({ kind: 'selector', path });
const val = (raw: string): unknown => ({ kind: 'value', raw });

describe('parseFilter: section 1, lexical structure', () => {
  describe('whitespace', () => {
    it.each([
      'Name=="x"',
      '  Name == "x"  ',
      '\tName\r\n==\n"x"\t',
      'not (Name == "x")',
      '(a == 1) and (b == 2)',
    ])('accepts %j', (text) => {
      expect(parseFilter(text).ok).toBe(true);
    });

    it.each([
      ['not(Name == "x")'],
      ['(a == 1)and(b == 2)'],
      ['(a == 1) and(b == 2)'],
      ['"x"and a == 1'],
      ['a == "x"and b == 1'],
      ['a contains"x"'],
      ['a is  empty  or b == 1 or(c == 2)'],
      ['"x" in(a)'],
    ])('rejects word operators without whitespace: %j', (text) => {
      expect(parseFilter(text).ok).toBe(false);
    });

    it.each([['\f'], ['\v'], ['\u00a0'], ['\u2003'], ['\u3000']])(
      'rejects the non-ASCII or other space %j',
      (space) => {
        const e = firstError(`a ==${space}1`);
        expect(e.code).toBe('unexpected-character');
        expect(e.offset).toBe(4);
      },
    );

    it('says which side of the operator lacks whitespace', () => {
      expect(firstError('(a == 1)and (b == 2)')).toMatchObject({ code: 'missing-whitespace', offset: 8 });
      expect(firstError('(a == 1)and (b == 2)').message).toContain('"and"');
    });
  });

  describe('keywords are lowercase and not reserved', () => {
    it.each(['a == 1 AND b == 2', 'a == 1 Or b == 2', 'NOT a == 1', 'ANY L as x { x == 1 }', 'a Is Empty'])(
      'rejects %j',
      (text) => {
        expect(parseFilter(text).ok).toBe(false);
      },
    );

    it('accepts keywords as field names', () => {
      expect(ast('and == 1')).toMatchObject({ operator: 'equal', selector: sel('and'), value: val('1') });
      expect(ast('"x" in in')).toMatchObject({ operator: 'in', selector: sel('in'), value: val('x') });
      expect(ast('1 in any')).toMatchObject({ operator: 'in', selector: sel('any'), value: val('1') });
      expect(ast('or is empty')).toMatchObject({ operator: 'is-empty', selector: sel('or') });
      expect(ast('not == 1')).toMatchObject({ operator: 'equal', selector: sel('not') });
      expect(ast('not==1')).toMatchObject({ operator: 'equal', selector: sel('not') });
    });

    it('resolves "not" as the PEG does: operator when a match follows, otherwise a name', () => {
      expect(ast('not in x')).toMatchObject({
        kind: 'match',
        operator: 'in',
        selector: sel('x'),
        value: val('not'),
      });
      expect(ast('not not in x')).toMatchObject({
        kind: 'not',
        operand: { operator: 'in', value: val('not') },
      });
      expect(ast('not contains in x')).toMatchObject({ kind: 'not', operand: { value: val('contains') } });
      expect(ast('not contains x')).toMatchObject({ kind: 'match', selector: sel('not'), value: val('x') });
      expect(ast('not in in')).toMatchObject({ kind: 'match', selector: sel('in'), value: val('not') });
    });

    it('takes "any" as a field when a match parses, so "any in as x {..}" is an error as in the reference', () => {
      expect(parseFilter('any in as x { a == 1 }').ok).toBe(false);
      expect(ast('any == 1')).toMatchObject({ selector: sel('any') });
    });
  });

  describe('identifiers and selectors', () => {
    it('keeps "/" inside one segment', () => {
      expect(match('a/b == 1').selector.path).toEqual(['a/b']);
    });

    it.each(['_a == 1', '1a == 1', 'a-b == 1', 'a:b == 1'])('rejects the identifier in %j', (text) => {
      expect(parseFilter(text).ok).toBe(false);
    });

    it('reads dotted, indexed and bracketed pieces', () => {
      expect(match('foo.bar["meta"].tags[`ENV`] == 1').selector.path).toEqual([
        'foo',
        'bar',
        'meta',
        'tags',
        'ENV',
      ]);
      expect(match('Datacenters.0 == x').selector.path).toEqual(['Datacenters', '0']);
      expect(match('a.01 == x').selector.path).toEqual(['a', '01']);
      expect(match('Meta[ "with space" ] == x').selector.path).toEqual(['Meta', 'with space']);
      expect(match('Meta["a\\tb"] == x').selector.path).toEqual(['Meta', 'a\tb']);
    });

    it('rejects non-string indexes and unclosed brackets', () => {
      expect(firstError('foo[3] == 1').code).toBe('invalid-number');
      expect(firstError('foo[bar] == 1')).toMatchObject({ code: 'invalid-index', offset: 4 });
      expect(firstError('Meta["a" == 1')).toMatchObject({ code: 'unclosed-index', offset: 9 });
      expect(parseFilter('Meta ["a"] == 1').ok).toBe(false);
      expect(parseFilter('Meta .a == 1').ok).toBe(false);
    });

    it('reads JSON Pointer selectors with ~0 and ~1', () => {
      expect(match('"/Meta/a~1b" == 1').selector.path).toEqual(['Meta', 'a/b']);
      expect(match('"/a~0b/é:x|y" == 1').selector.path).toEqual(['a~b', 'é:x|y']);
      expect(match('"" == "x"').selector.path).toEqual(['']);
    });

    it.each(['"/" == 1', '"/a/" == 1', '"//a" == 1', '"/a b" == 1', '"/a@b" == 1', '"a/b" == 1'])(
      'rejects the non-pointer string %j as a selector',
      (text) => {
        expect(parseFilter(text).ok).toBe(false);
      },
    );
  });

  describe('values: selector, then number, then string', () => {
    it('reads bare words and dotted words as strings', () => {
      expect(match('Status == running').value?.raw).toBe('running');
      expect(match('Name == web.app').value?.raw).toBe('web.app');
      expect(match('Name == web["app"]').value?.raw).toBe('web.app');
      expect(parseFilter('Name == web-1').ok).toBe(false);
    });

    it('drops the leading "/" of a double-quoted pointer-shaped value (surprise 1)', () => {
      expect(match('Name == "/web-00042"').value?.raw).toBe('web-00042');
      expect(match('Name == "/a/b~1c"').value?.raw).toBe('a/b/c');
      expect(match('Slashy == `/a/b`').value?.raw).toBe('/a/b');
      expect(match('Name == "/a b"').value?.raw).toBe('/a b');
      expect(match('Name == ""').value?.raw).toBe('');
      expect(match('"/x" in Tags').value?.raw).toBe('x');
    });

    it('keeps number text verbatim', () => {
      expect(match('Priority == 50').value?.raw).toBe('50');
      expect(match('Priority == -0.50').value?.raw).toBe('-0.50');
      expect(match('(Priority == 5)').value?.raw).toBe('5');
    });

    it.each([
      'a == 3x',
      'a == 5e1',
      'a == 50.',
      'a == 1_000',
      'a == 050',
      'a == 0x10',
      'a == - 1',
      'a == +1',
      'a == .5',
    ])('rejects the number in %j', (text) => {
      expect(parseFilter(text).ok).toBe(false);
    });

    it('rejects a number right before "}" (surprise 8)', () => {
      expect(firstError('any Ints as x { x == 2}')).toMatchObject({ code: 'invalid-number', offset: 21 });
      expect(parseFilter('any Ints as x { x == 2 }').ok).toBe(true);
    });
  });

  describe('strings (Go unquoting)', () => {
    it.each([
      ['"a\\nb"', 'a\nb'],
      ['"\\t\\r\\\\\\a\\b\\f\\v"', '\t\r\\\u0007\b\f\v'],
      ['"\\x41\\101\\u00e9\\U0001F600"', 'AAé😀'],
      ['"\\xc3\\xa9"', 'é'],
      ['"\\xff"', '\uFFFD'],
      ['`raw \\d`', 'raw \\d'],
      ['`a\r\nb`', 'a\nb'],
      ['"é😀"', 'é😀'],
    ])('unquotes %s', (literal, expected) => {
      expect(match(`a == ${literal}`).value?.raw).toBe(expected);
    });

    it.each(['"\\d"', '"\\."', '"\\\'"', '"a\nb"', '"\\x4"', '"\\400"', '"\\ud800"', '"\\U00110000"'])(
      'rejects the invalid double-quoted string %s',
      (literal) => {
        expect(firstError(`a == ${literal}`).code).toBe('invalid-string');
      },
    );

    it('ends a double-quoted string at the first quote, so \\" is unusable', () => {
      expect(parseFilter('a == "a\\"b"').ok).toBe(false);
    });

    it('reports unterminated strings and single quotes', () => {
      expect(firstError('a == "abc')).toMatchObject({ code: 'unterminated-string', offset: 5 });
      expect(firstError('a == `abc')).toMatchObject({ code: 'unterminated-string', offset: 5 });
      expect(firstError("a == 'x'").code).toBe('unexpected-character');
    });
  });

  describe('other surface facts', () => {
    it.each(['a > 1', 'a >= 1', 'a < 1', 'a <= 1'])('has no ordering operator: %j (surprise 12)', (text) => {
      const e = firstError(text);
      expect(e.code).toBe('unexpected-character');
      expect(e.message).toContain('no ordering operators');
    });

    it.each(['', '   ', '\n\t'])('rejects the empty expression %j', (text) => {
      expect(firstError(text).code).toBe('empty-expression');
    });

    it.each(['a == [1, 2]', 'a == null', 'a + 1 == 2', 'len(a) == 1'])(
      'has no lists, arithmetic or functions: %j',
      (text) => {
        expect(text === 'a == null' ? parseFilter(text).ok : !parseFilter(text).ok).toBe(true);
      },
    );
  });
});

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
