import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { datumArb, expressionArb } from '../test/arbitraries.js';
import { outcome } from '../test/outcome.js';
import { referenceEvaluate } from '../test/reference.js';
import { typedDatumArb } from '../test/schemas.js';
import type { Expression } from './ast.js';
import { compileFilter, setCodegen } from './compile.js';
import { FilterSyntaxError } from './errors.js';
import type { CompileOptions } from './options.js';
import { parseFilter } from './parse.js';
import { READER_COUNT, readerFor } from './readers.js';

type Outcome = boolean | 'error';

/** The closure fallback (no `new Function`, as under a strict CSP). */
function withoutCodegen<T>(f: () => T): T {
  setCodegen(false);
  try {
    return f();
  } finally {
    setCodegen(undefined);
  }
}

/** The outcome of the generated function and of the closure fallback, or undefined when it does not compile. */
function bothPaths(
  ast: Expression,
  datum: unknown,
  options?: CompileOptions,
): [Outcome, Outcome] | undefined {
  try {
    const generated = compileFilter(ast, options);
    const fallback = withoutCodegen(() => compileFilter(ast, options));
    return [outcome(() => generated(datum)), outcome(() => fallback(datum))];
  } catch (e) {
    if (FilterSyntaxError.is(e) && e.code === 'unknown-field') return undefined;
    throw e;
  }
}

describe('the closure fallback agrees with the generated function', () => {
  test.prop([expressionArb, datumArb], { numRuns: 300 })('untyped', (ast, datum) => {
    const r = bothPaths(ast, datum);
    expect(r?.[1]).toBe(r?.[0]);
  });

  test.prop([expressionArb, datumArb, fc.constantFrom(null, 'x', 1)], { numRuns: 150 })(
    'under unknownValue',
    (ast, datum, unknownValue) => {
      const r = bothPaths(ast, datum, { unknownValue });
      expect(r?.[1]).toBe(r?.[0]);
    },
  );

  for (const nulls of [false, true]) {
    test.prop([expressionArb, typedDatumArb(nulls)], { numRuns: 300 })(
      `typed${nulls ? ', null maps and lists included' : ''}`,
      (ast, { datum, schema }) => {
        const r = bothPaths(ast, datum, { schema });
        expect(r?.[1]).toBe(r?.[0]);
      },
    );
  }
});

describe('closure read sites (one per field name)', () => {
  it('gives a name the same reader every time, and every name a reader that reads it', () => {
    const names = Array.from({ length: 3 * READER_COUNT }, (_, i) => `field${i}`);
    const first = names.map(readerFor);
    expect(names.map(readerFor)).toEqual(first);
    const datum = Object.fromEntries(names.map((n, i) => [n, i]));
    names.forEach((n, i) => expect((first[i] as (o: object, k: string) => unknown)(datum, n)).toBe(i));
    // names share the sites of the pool once it is used up (names compiled earlier took some)
    expect(new Set(first).size).toBeLessThanOrEqual(READER_COUNT);
    expect(new Set(first).size).toBeGreaterThan(READER_COUNT / 2);
  });

  const manyFields = Array.from({ length: 2 * READER_COUNT + 3 }, (_, i) => `f${i}`);
  test.prop(
    [
      fc.array(fc.tuple(fc.constantFrom(...manyFields), fc.constantFrom('a', 'b', '1')), {
        minLength: 1,
        maxLength: 12,
      }),
      fc.constantFrom(' and ', ' or '),
      fc.dictionary(fc.constantFrom(...manyFields), fc.constantFrom<unknown>('a', 'b', 1, null, true, {})),
    ],
    { numRuns: 200 },
  )('filters over more fields than there are sites answer as the reference', (clauses, joiner, datum) => {
    const text = clauses.map(([f, v]) => `Meta.${f} == "${v}" or ${f} != "${v}"`).join(joiner);
    const item = { ...datum, Meta: datum };
    const parsed = parseFilter(text);
    if (!parsed.ok) throw new Error(text);
    const fallback = withoutCodegen(() => compileFilter(text));
    expect(outcome(() => fallback(item))).toBe(outcome(() => referenceEvaluate(parsed.ast, item)));
  });
});

describe('collections reuse their bindings without mixing evaluations', () => {
  it('an evaluation started from inside another (a getter in the data) keeps both right', () => {
    withoutCodegen(() => {
      const keep = compileFilter('any L as x { x.a == 1 and x.b == 1 }');
      let inner: boolean | undefined;
      const element = {
        get a(): number {
          // re-enters the same predicate while the outer loop is bound to this element
          inner = keep({ L: [{ a: 1, b: 0 }] });
          return 1;
        },
        b: 1,
      };
      expect(keep({ L: [element] })).toBe(true);
      expect(inner).toBe(false);
    });
  });

  it('a failed evaluation does not leave the next one with stale bindings', () => {
    withoutCodegen(() => {
      const keep = compileFilter('any L as i, v { v.a == 1 }');
      expect(() => keep({ L: [{ a: [] }] })).toThrow(/The selector v.a is an array/);
      expect(keep({ L: [{ a: 2 }, { a: 1 }] })).toBe(true);
      expect(keep({ L: { k: { a: 2 } } })).toBe(false);
    });
  });

  test.prop([expressionArb, datumArb, datumArb], { numRuns: 200 })(
    'one predicate evaluated on several data answers each as the reference',
    (ast, d1, d2) => {
      const keep = withoutCodegen(() => compileFilter(ast));
      for (const d of [d1, d2, d1]) {
        expect(outcome(() => keep(d))).toBe(outcome(() => referenceEvaluate(ast, d)));
      }
    },
  );
});
