import { describe, expect, it } from 'vitest';
import { parseFilter } from './parse.js';
import { ast, firstError, match, sel, val } from '../test/parse-helpers.js';

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
