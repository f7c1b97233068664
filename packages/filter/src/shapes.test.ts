import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { datumArb, expressionArb, mapMatches, rawValues } from '../test/arbitraries.js';
import { outcome } from '../test/outcome.js';
import type { Expression } from './ast.js';
import { compileFilter, setCodegen } from './compile.js';
import { FilterEvaluationError, FilterSyntaxError } from './errors.js';
import { FilterLimits } from './options.js';
import { printFilter } from './print.js';
import { madeFromShapes, SHAPE_LIMIT, setShapes } from './shapes.js';

/** The expression with every value replaced, in order, by the next of `values` (cycling). */
function revalue(ast: Expression, values: readonly string[]): Expression {
  let i = 0;
  return mapMatches(ast, (m) =>
    m.value === null ? m : { ...m, value: { ...m.value, raw: values[i++ % values.length] ?? '' } },
  );
}

/** What the closures (no code generation, no shapes) answer. */
function closures(text: string, datum: unknown): boolean | 'error' {
  setCodegen(false);
  try {
    return outcome(() => compileFilter(text)(datum));
  } finally {
    setCodegen(undefined);
  }
}

const span = { start: 0, end: 0 };
/** Chains of clauses on one- and two-segment selectors: the filters a shape is made for. */
const simpleArb: fc.Arbitrary<Expression> = fc
  .array(
    fc.record({
      path: fc.constantFrom(['a'], ['b'], ['Meta', 'x'], ['Meta', 'a'], ['Tags']),
      operator: fc.constantFrom('equal', 'not-equal', 'in', 'not-in', 'matches', 'is-empty' as const),
      raw: fc.constantFrom(...rawValues),
    }),
    { minLength: 1, maxLength: 8 },
  )
  .chain((clauses) =>
    fc
      .array(fc.constantFrom('and' as const, 'or' as const), {
        minLength: clauses.length,
        maxLength: clauses.length,
      })
      .map((kinds) =>
        clauses
          .map(({ path, operator, raw }): Expression => ({
            kind: 'match',
            operator,
            selector: { kind: 'selector', path, span },
            value: operator === 'is-empty' ? null : { kind: 'value', raw, span },
            span,
          }))
          .reduceRight((right, left, i) => ({ kind: kinds[i] ?? 'and', left, right, span })),
      ),
  );

describe('filters made from the factory of their shape', () => {
  // the first text makes the shape; the second, with other values, is made from it
  const before = madeFromShapes();
  test.prop(
    [
      fc.oneof(expressionArb, simpleArb),
      fc.array(fc.constantFrom(...rawValues), { minLength: 1, maxLength: 6 }),
      datumArb,
    ],
    { numRuns: 400 },
  )('answer as the closures do, whatever the new values', (ast, values, datum) => {
    const first = printFilter(ast);
    const second = printFilter(revalue(ast, values));
    compileFilter(first);
    expect(outcome(() => compileFilter(second)(datum))).toBe(closures(second, datum));
    expect(outcome(() => compileFilter(first)(datum))).toBe(closures(first, datum));
  });

  it('made some of those filters from their shape (the property above is not vacuous)', () => {
    expect(madeFromShapes() - before).toBeGreaterThan(20);
  });

  it('parses and generates every text while shapes are off', () => {
    setShapes(false);
    try {
      const count = madeFromShapes();
      compileFilter('Off == "a"');
      expect(compileFilter('Off == "b"')({ Off: 'b' })).toBe(true);
      expect(madeFromShapes()).toBe(count);
    } finally {
      setShapes(true);
    }
    compileFilter('Off == "c"');
    expect(compileFilter('Off == "d"')({ Off: 'd' })).toBe(true);
  });

  it.each<[string, string, unknown, boolean | 'error']>([
    // a quoted key is part of the selector: another key is another filter
    ['Meta["a"] == "x"', 'Meta["b"] == "x"', { Meta: { a: 'x', b: 'y' } }, false],
    ['Meta["a"] == "x"', 'Meta["b"] == "x"', { Meta: { a: 'y', b: 'x' } }, true],
    // a regular expression that does not compile is reported when its clause is reached
    ['Name matches "^a"', 'Name matches "("', { Name: 'abc' }, 'error'],
    ['Name matches "("', 'Name matches "^a"', { Name: 'abc' }, true],
    // a value that reads as a number compares with numbers too; one that does not, with text only
    ['Priority == "x"', 'Priority == "50"', { Priority: 50 }, true],
    ['Priority == "50"', 'Priority == "x"', { Priority: 50 }, 'error'],
    ['Priority != 50', 'Priority != 49', { Priority: 49 }, false],
    ['Status != "a" and Status != "b"', 'Status != "c" and Status != "d"', { Status: 'd' }, false],
    [
      'N == "a" or N == "b" or N == "c" or N == "d" or N == "e" or N == "f"',
      'N == "g" or N == "h" or N == "i" or N == "j" or N == "k" or N == "50"',
      { N: 'k' },
      true,
    ],
    [
      'N == "a" or N == "b" or N == "c" or N == "d" or N == "e" or N == "f"',
      'N == "g" or N == "h" or N == "i" or N == "j" or N == "k" or N == "l"',
      { N: 'a' },
      false,
    ],
    ['"a" in Tags', '`b` in Tags', { Tags: ['b'] }, true],
    ['Meta.a == "x"', 'Meta.a == "y"', {}, 'error'],
    // a short text is read with JSON.parse (it internalizes): a raw tab is Go, not JSON
    ['N == "x"', 'N == "a\tb"', { N: 'a\tb' }, true],
    ['N == "x"', 'N == "é\u{1F600}"', { N: 'é\u{1F600}' }, true],
    ['N == "x"', 'N == "a\\x41"', { N: 'aA' }, true],
  ])('%s, then %s on %j: %s', (first, second, datum, expected) => {
    expect(closures(second, datum)).toBe(expected);
    compileFilter(first);
    expect(outcome(() => compileFilter(second)(datum))).toBe(expected);
  });

  it.each([
    ['an invalid escape', 'N == "\\q"'],
    ['an unterminated string', 'N == "abc'],
    ['a text over the length limit', `N == "${'x'.repeat(FilterLimits.maxLength)}"`],
    ['a number followed by a letter', 'N == 1x'],
  ])('refuses %s after a filter of the same shape, as a fresh compile does', (_, text) => {
    compileFilter('N == "ok"');
    let fresh: unknown;
    setShapes(false);
    try {
      compileFilter(text);
    } catch (e) {
      fresh = e;
    } finally {
      setShapes(true);
    }
    compileFilter('N == "ok again"');
    expect(FilterSyntaxError.is(fresh)).toBe(true);
    expect(() => compileFilter(text)).toThrow((fresh as Error).message);
  });

  it('does not share a shape where whitespace changes the parse', () => {
    compileFilter('Meta.a == "x"');
    expect(() => compileFilter('Meta .a == "y"')).toThrow(/./);
    expect(() => compileFilter('Meta. a == "y"')).toThrow(/./);
    expect(compileFilter('Meta.a  ==  "y"')({ Meta: { a: 'y' } })).toBe(true);
  });

  it('reports an evaluation error where the full compile does, with the new text and offsets', () => {
    compileFilter('Meta.a == "x" and Meta.b == "y"');
    const text = 'Meta.a == "long value" and Meta.b == "z"';
    let fromShape: unknown;
    try {
      compileFilter(text)({ Meta: null });
    } catch (e) {
      fromShape = e;
    }
    setCodegen(false);
    let full: unknown;
    try {
      compileFilter(text)({ Meta: null });
    } catch (e) {
      full = e;
    } finally {
      setCodegen(undefined);
    }
    expect(FilterEvaluationError.is(fromShape)).toBe(true);
    expect(fromShape).toMatchObject({ message: (full as Error).message });
  });

  it(`forgets the oldest shape beyond ${SHAPE_LIMIT} and still answers right`, () => {
    for (let i = 0; i <= SHAPE_LIMIT + 10; i++) {
      const keep = compileFilter(`F${i} == "v${i}" and G != "w"`);
      expect(keep({ [`F${i}`]: `v${i}`, G: 'x' })).toBe(true);
    }
    expect(compileFilter('F0 == "other" and G != "w"')({ F0: 'other', G: 'x' })).toBe(true);
  });
});
