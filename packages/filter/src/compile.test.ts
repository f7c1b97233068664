import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { datumArb, expressionArb } from '../test/arbitraries.js';
import { outcome } from '../test/outcome.js';
import { referenceEvaluate } from '../test/reference.js';
import type { Expression } from './ast.js';
import {
  compileFilter,
  evaluateFilter,
  filterItems,
  setCodegen,
  TEXT_CACHE_SIZE,
  TEXT_PROBATION_SIZE,
  type FilterPredicate,
} from './compile.js';
import { FilterEvaluationError, FilterSyntaxError } from './errors.js';
import { parseFilter } from './parse.js';
import { job, type Outcome, run } from '../test/compile-helpers.js';

describe('compileFilter: section 11 checklist', () => {
  it.each<[string, string, unknown, Outcome]>([
    ['1 leading slash lost', 'Name == "/web-00042"', { Name: 'web-00042' }, true],
    ['1 leading slash lost (2)', 'Name == "/web-00042"', { Name: '/web-00042' }, false],
    ['2 missing top-level key errors', 'Nothere == 1', {}, 'error:missing-key'],
    ['2 missing nested last key is a default', 'Meta.x == 1', { Meta: {} }, false],
    ['3 != errors when == errors', 'Meta != 1', { Meta: {} }, 'error:unsupported-kind'],
    ['4 in on a string is substring', 'admin in Role', { Role: 'dbadmin' }, true],
    ['4 in on an object is key membership', '"team-a" in Meta', { Meta: { owner: 'team-a' } }, false],
    ['5 unparsable elements are skipped', 'abc in Ints', { Ints: [1, 2] }, false],
    ['6 null element is an error', '"x" in L', { L: [null] }, 'error:null-element'],
    ['6 matches on null is an error', 'N matches "x"', { N: null }, 'error:unsupported-kind'],
    ['9 as x over an object binds the key', 'any M as x { x == "k" }', { M: { k: 'v' } }, true],
    ['10 invalid regex only when reached', 'S == "dead" and N matches "("', { S: 'running', N: 'x' }, false],
    ['13 ParseBool coercion', 'B == T', { B: true }, true],
    ['14 index "0x1"', 'L.0x1 == 1', { L: [0, 1] }, 'syntax:unexpected-token'],
    ['14 index "0x1" in brackets', 'L["0x1"] == 1', { L: [0, 1] }, true],
    ['14 index ""', 'L[""] == 0', { L: [0, 1] }, true],
  ])('%s', (_name, text, datum, expected) => {
    expect(run(text, datum)).toBe(expected);
  });

  it('7, 8, 11, 12 are parse rules (see parse.test.ts) and hold here too', () => {
    expect(run('any L as x { x == 1 } and A == 1', {})).toBe('syntax:unparenthesized-collection');
    expect(run('any L as x { x == 1}', {})).toBe('syntax:invalid-number');
    expect(run('('.repeat(7) + 'A == 1' + ')'.repeat(7), { A: 1 })).toBe(true);
    expect(run('A > 1', { A: 2 })).toBe('syntax:unexpected-character');
  });
});

describe('evaluation errors', () => {
  it('carry the clause position, selector, kind and a caret rendering', () => {
    const text = 'Status == "running" and\n  Meta == 1';
    let error: unknown;
    try {
      evaluateFilter(text, job);
    } catch (e) {
      error = e;
    }
    expect(FilterEvaluationError.is(error)).toBe(true);
    const e = error as FilterEvaluationError;
    expect(e).toMatchObject({
      name: 'FilterEvaluationError',
      code: 'unsupported-kind',
      selector: 'Meta',
      valueKind: 'object',
      line: 2,
      column: 3,
      offset: 26,
      length: 9,
    });
    expect(e.message).toBe(
      '2:3: The selector Meta is an object; "==" and "!=" compare only strings, numbers and booleans.',
    );
    expect(e.format()).toBe(`${e.message}\n  Meta == 1\n  ^~~~~~~~~`);
  });

  it('keep the source when compiling an AST from parseFilter', () => {
    const r = parseFilter('a == 1 or\nb == 2');
    if (!r.ok) throw new Error('parse');
    expect(() => compileFilter(r.ast)({ a: 2 })).toThrow(/^2:1: /);
  });
});

describe('compileFilter: ASTs and options', () => {
  it('checks hand-made ASTs against the limits without recursion', () => {
    const leaf: Expression = {
      kind: 'match',
      operator: 'equal',
      selector: { kind: 'selector', path: ['a'], span: { start: 0, end: 0 } },
      value: { kind: 'value', raw: '1', span: { start: 0, end: 0 } },
      span: { start: 0, end: 0 },
    };
    let deep: Expression = leaf;
    for (let i = 0; i < 100_000; i++) deep = { kind: 'not', operand: deep, span: { start: 0, end: 0 } };
    expect(() => compileFilter(deep)).toThrow(FilterSyntaxError);
    let chain: Expression = leaf;
    for (let i = 0; i < 5000; i++)
      chain = { kind: 'or', left: leaf, right: chain, span: { start: 0, end: 0 } };
    expect(compileFilter(chain)({ a: 1 })).toBe(true);
    expect(() => compileFilter(chain, { maxClauses: 100 })).toThrow(/more than 100 clauses/);
  });

  it('applies strictRegex to ASTs too', () => {
    const r = parseFilter('a matches "("');
    if (!r.ok) throw new Error('parse');
    expect(() => compileFilter(r.ast, { strictRegex: true })).toThrow(FilterSyntaxError);
  });

  it('rejects what is neither text nor an AST, and non-iterable items', () => {
    expect(() => compileFilter(42 as unknown as string)).toThrow(
      new TypeError('compileFilter needs filter text or an expression AST but got number 42.'),
    );
    expect(() => compileFilter({ kind: 'nope' } as unknown as Expression)).toThrow(/kind "nope"/);
    const bad = { kind: 'not', operand: null, span: { start: 0, end: 0 } } as unknown as Expression;
    expect(() => compileFilter(bad)).toThrow(/invalid node under a "not" node: null/);
    expect(() => filterItems('a == 1', null as unknown as unknown[])).toThrow(
      new TypeError('filterItems needs an iterable of items but got null.'),
    );
  });

  it('keeps everything for an empty filter in filterItems only', () => {
    expect(filterItems('', [1, 2])).toEqual([1, 2]);
    expect(() => filterItems(' ', [1])).toThrow(FilterSyntaxError);
    expect(() => compileFilter('')).toThrow(FilterSyntaxError);
  });
});

describe('compileFilter: the texts it remembers', () => {
  it('gives the same predicate for the same text without options, and a new one otherwise', () => {
    const text = 'Meta.remembered == "yes"';
    const first = compileFilter(text);
    expect(compileFilter(text)).toBe(first);
    expect(compileFilter(text, {})).not.toBe(first);
    setCodegen(false);
    try {
      // the closures are never answered from the generated predicates, nor remembered
      expect(compileFilter(text)).not.toBe(first);
      expect(compileFilter(text)).not.toBe(compileFilter(text));
    } finally {
      setCodegen(undefined);
    }
    expect(compileFilter(text)).toBe(first);
  });

  it('forgets the least recently used text past TEXT_CACHE_SIZE texts', () => {
    // each text compiled twice, so that it is remembered past its probation
    const twice = (text: string): FilterPredicate => {
      compileFilter(text);
      return compileFilter(text);
    };
    const kept = twice('Name == "kept"');
    const dropped = twice('Name == "dropped"');
    for (let i = 0; i < TEXT_CACHE_SIZE - 1; i++) {
      twice(`Name == "filler-${i}"`);
      if (i % 16 === 0) compileFilter('Name == "kept"'); // used again: stays
    }
    expect(compileFilter('Name == "kept"')).toBe(kept);
    expect(compileFilter('Name == "dropped"')).not.toBe(dropped);
  });

  it('keeps a text compiled once only while the next few texts are compiled', () => {
    const once = compileFilter('Name == "once"');
    const twice = compileFilter('Name == "twice"');
    expect(compileFilter('Name == "twice"')).toBe(twice); // back within the probation: remembered
    for (let i = 0; i < TEXT_PROBATION_SIZE; i++) compileFilter(`Name == "probation-${i}"`);
    expect(compileFilter('Name == "once"')).not.toBe(once); // out of probation: compiled anew
    for (let i = 0; i < TEXT_CACHE_SIZE / 2; i++) compileFilter(`Name == "later-${i}"`);
    expect(compileFilter('Name == "twice"')).toBe(twice); // remembered past the probation
  });

  test.prop([fc.constantFrom('Status == "running"', 'Priority != 50', 'x == 1 or y == 2'), datumArb])(
    'a remembered predicate answers as a fresh one',
    (text, datum) => {
      const remembered = compileFilter(text);
      expect(outcome(() => remembered(datum))).toBe(outcome(() => compileFilter(text, {})(datum)));
    },
  );
});

describe('properties', () => {
  test.prop([expressionArb, datumArb], { numRuns: 400 })(
    'the compiled predicate agrees with the reference evaluator',
    (ast, datum) => {
      expect(outcome(() => compileFilter(ast)(datum))).toBe(outcome(() => referenceEvaluate(ast, datum)));
    },
  );

  test.prop([expressionArb, datumArb], { numRuns: 300 })(
    'the closure-only path (no new Function, as under a strict CSP) agrees with the reference evaluator',
    (ast, datum) => {
      setCodegen(false);
      try {
        expect(outcome(() => compileFilter(ast)(datum))).toBe(outcome(() => referenceEvaluate(ast, datum)));
      } finally {
        setCodegen(undefined);
      }
    },
  );

  test.prop([expressionArb, datumArb, fc.constantFrom(null, 'x', 1, [] as unknown[])], { numRuns: 150 })(
    'agrees with the reference evaluator under unknownValue',
    (ast, datum, unknownValue) => {
      expect(outcome(() => compileFilter(ast, { unknownValue })(datum))).toBe(
        outcome(() => referenceEvaluate(ast, datum, { unknownValue })),
      );
    },
  );

  const span = { start: 0, end: 0 };
  test.prop([expressionArb, datumArb], { numRuns: 200 })('not not e is e', (e, datum) => {
    const notNot: Expression = { kind: 'not', operand: { kind: 'not', operand: e, span }, span };
    expect(outcome(() => compileFilter(notNot)(datum))).toBe(outcome(() => compileFilter(e)(datum)));
  });

  test.prop([expressionArb, expressionArb, datumArb], { numRuns: 200 })('De Morgan laws', (a, b, datum) => {
    const not = (operand: Expression): Expression => ({ kind: 'not', operand, span });
    const and = (left: Expression, right: Expression): Expression => ({ kind: 'and', left, right, span });
    const or = (left: Expression, right: Expression): Expression => ({ kind: 'or', left, right, span });
    expect(outcome(() => compileFilter(not(and(a, b)))(datum))).toBe(
      outcome(() => compileFilter(or(not(a), not(b)))(datum)),
    );
    expect(outcome(() => compileFilter(not(or(a, b)))(datum))).toBe(
      outcome(() => compileFilter(and(not(a), not(b)))(datum)),
    );
  });
});
