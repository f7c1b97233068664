import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { expressionArb, stripSpans } from '../test/arbitraries.js';
import { filter } from './builder.js';
import { parseFilter } from './parse.js';
import { printFilter, printSelector, quoteFilterString } from './print.js';

function roundTrip(text: string): string {
  const r = parseFilter(text);
  if (!r.ok) throw new Error(r.diagnostics[0]?.message);
  return printFilter(r.ast);
}

describe('printFilter', () => {
  it.each([
    ['Status==running', 'Status == "running"'],
    ['Priority == 50', 'Priority == 50'],
    ['Tags contains "x"', '"x" in Tags'],
    ['Tags not contains `x`', '"x" not in Tags'],
    ['a == 1 or b == 2 and c == 3', 'a == 1 or b == 2 and c == 3'],
    ['(a == 1 or b == 2) and c == 3', '(a == 1 or b == 2) and c == 3'],
    ['not (a == 1 and b == 2)', 'not (a == 1 and b == 2)'],
    ['not not a == 1', 'a == 1'],
    ['a is not empty', 'a is not empty'],
    ['a is nil or a is not nil', 'a is nil or a is not nil'],
    ['Name matches `^web-\\d+$`', 'Name matches "^web-\\\\d+$"'],
    ['Name == "/web"', 'Name == "web"'],
    ['Slashy == `/a/b`', 'Slashy == "\\x2fa/b"'],
    ['in == 1', '"/in" == 1'],
    ['Meta["with space"].x.0 == 1', 'Meta["with space"].x.0 == 1'],
    ['"/a~1b/c" == 1', 'a/b.c == 1'],
    ['"/a b/c" in x', '"\\x2fa b/c" in x'],
    ['any L as x { x == 1 } ', 'any L as x { x == 1 }'],
    ['A == 1 or any L as i, _ { i == 0 }', 'A == 1 or any L as i, _ { i == 0 }'],
    ['(any L as _, v { v == 0 }) and A == 1', '(any L as _, v { v == 0 }) and A == 1'],
    ['not (all L as x { x == 0 })', 'not (all L as x { x == 0 })'],
  ])('prints %j as %j', (text, printed) => {
    expect(roundTrip(text)).toBe(printed);
  });

  it('quotes so that Go unquoting gives back the text', () => {
    expect(quoteFilterString('say "hi"\n\\')).toBe('"say \\x22hi\\x22\\n\\\\"');
    expect(quoteFilterString('\u0001\u007f\t\r')).toBe('"\\x01\\x7f\\t\\r"');
  });

  it('prints selectors canonically and rejects the inexpressible', () => {
    expect(printSelector(['a', 'b c', '0', ''])).toBe('a["b c"].0[""]');
    expect(printSelector([''])).toBe('""');
    expect(printSelector(['not'])).toBe('"/not"');
    expect(printSelector(['not', 'x'])).toBe('not.x');
    expect(printSelector(['a~b', 'c/d'])).toBe('"/a~0b/c~1d"');
    expect(() => printSelector([])).toThrow(RangeError);
    expect(() => printSelector(['a b'])).toThrow(/cannot be written/);
  });

  it('rejects bad binding names and missing values', () => {
    const bad = {
      ...filter.any('L', 'x', (x) => x.eq('a', 1)),
      binding: { form: 'single' as const, name: '_x' },
    };
    expect(() => printFilter(bad)).toThrow(RangeError);
    const noValue = { ...filter.eq('a', 1), value: null };
    expect(() => printFilter(noValue)).toThrow(/needs a value/);
  });

  it('prints a 10,000-clause chain without recursion', () => {
    const text = Array.from({ length: 10_000 }, (_, i) => `a == ${i}`).join(' or ');
    expect(roundTrip(text)).toBe(text);
  });
});

describe('properties', () => {
  test.prop([expressionArb], { numRuns: 500 })('printing then parsing gives back the same tree', (ast) => {
    const text = printFilter(ast);
    const r = parseFilter(text);
    expect(r.ok ? stripSpans(r.ast) : r.diagnostics).toEqual(stripSpans(ast));
  });

  test.prop([fc.string({ unit: 'binary' })])('any string value survives quoting', (raw) => {
    const r = parseFilter(`a == ${quoteFilterString(raw)}`);
    expect(r.ok && r.ast.kind === 'match' ? r.ast.value?.raw : undefined).toBe(raw);
  });
});
