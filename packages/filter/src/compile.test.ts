import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { datumArb, expressionArb } from '../test/arbitraries.js';
import { outcome } from '../test/outcome.js';
import { referenceEvaluate } from '../test/reference.js';
import type { Expression } from './ast.js';
import { compileFilter, evaluateFilter, filterItems, setCodegen } from './compile.js';
import { FilterEvaluationError, FilterSyntaxError } from './errors.js';
import { parseFilter } from './parse.js';

const job = {
  ID: 'web',
  Name: 'web-00042',
  Slashy: '/a/b',
  Status: 'running',
  Priority: 50,
  Float: 0.5,
  Bool: true,
  Role: 'dbadmin',
  Empty: '',
  Null: null,
  Meta: { owner: 'team-a', 'a/b': 'slash', 'with space': 'yes', '': 'empty-key', nested: { deep: 1 } },
  EmptyMeta: {},
  Datacenters: ['dc1', 'dc2'],
  Ints: [1, 2, 3],
  Mixed: ['foobar', 1, true],
  WithNull: ['a', null, 'b'],
  WithObject: [1, { x: 1 }],
  EmptyList: [],
  TaskGroups: [
    { Name: 'web', Count: 2, Tasks: [{ Name: 'server', Driver: 'mock' }] },
    { Name: 'db', Count: 1, Tasks: [{ Name: 'pg', Driver: 'raw_exec' }] },
  ],
};

type Outcome = boolean | string;

function run(text: string, datum: unknown = job, options = {}): Outcome {
  try {
    return compileFilter(text, options)(datum);
  } catch (e) {
    if (FilterEvaluationError.is(e)) return `error:${e.code}`;
    if (FilterSyntaxError.is(e)) return `syntax:${e.code}`;
    throw e;
  }
}

describe('compileFilter: section 3, selector resolution', () => {
  it.each<[string, Outcome]>([
    ['Meta.owner == "team-a"', true],
    ['Meta["with space"] == yes', true],
    ['Meta["a/b"] == slash', true],
    ['"/Meta/a~1b" == slash', true],
    ['Meta[""] == "empty-key"', true],
    ['Meta.nested.deep == 1', true],
    ['Datacenters.0 == dc1', true],
    ['Datacenters.01 == dc2', true],
    ['Datacenters["0x1"] == dc2', true],
    ['Datacenters[""] == dc1', true],
    ['Datacenters.2 == dc1', 'error:index-out-of-range'],
    ['Datacenters["-1"] == dc1', 'error:index-out-of-range'],
    ['Datacenters.x == dc1', 'error:invalid-index'],
    ['TaskGroups.Name == "web"', 'error:invalid-index'],
    ['TaskGroups.0.Name == "web"', true],
    ['Name.x == 1', 'error:not-a-container'],
    ['Null.x == 1', 'error:not-a-container'],
    ['Nothere == 1', 'error:missing-key'],
    ['Nothere != 1', 'error:missing-key'],
    ['Meta.nothere.x == 1', 'error:missing-key'],
  ])('%s -> %s', (text, expected) => {
    expect(run(text)).toBe(expected);
  });

  it.each<[string, Outcome]>([
    ['Meta.nothere == 1', false],
    ['Meta.nothere != 1', true],
    ['"x" in Meta.nothere', false],
    ['"x" not in Meta.nothere', true],
    ['Meta.nothere is empty', true],
    ['Meta.nothere is not empty', false],
    ['Meta.nothere matches "x"', false],
    ['Meta.nothere not matches "x"', true],
    ['Meta.nothere is nil', true],
    ['Meta.nothere is not nil', false],
    ['any Meta.nothere as x { x == 1 }', false],
    ['all Meta.nothere as x { x == 1 }', true],
  ])('missing last key under an object: %s -> %s', (text, expected) => {
    expect(run(text)).toBe(expected);
  });

  it('indexes into a top-level array and rejects a string datum', () => {
    expect(run('foo == 1', [1, 2])).toBe('error:invalid-index');
    expect(run('"/0" == 1', [1, 2])).toBe(true);
    expect(run('foo == 1', 'text')).toBe('error:not-a-container');
    expect(run('foo == 1', null)).toBe('error:not-a-container');
  });

  it('reads "" as a one-segment selector with the empty key', () => {
    expect(run('"" == "x"', { '': 'x' })).toBe(true);
    expect(run('"" == "x"', {})).toBe('error:missing-key');
  });

  it('ignores inherited properties', () => {
    expect(run('Meta.toString is nil')).toBe(true);
    expect(run('toString == 1', {})).toBe('error:missing-key');
    expect(run('constructor is empty', { constructor: {} })).toBe(true);
    expect(run('"/__proto__" == 1', JSON.parse('{"__proto__": 1}'))).toBe(true);
    expect(run('"/__proto__" == 1', {})).toBe('error:missing-key');
  });

  describe('unknownValue', () => {
    it('replaces not-found at any depth, overriding the defaults', () => {
      expect(run('Nothere is nil', job, { unknownValue: null })).toBe(true);
      expect(run('Nothere == "x"', job, { unknownValue: null })).toBe('error:unsupported-kind');
      expect(run('Meta.nothere == "x"', job, { unknownValue: 'x' })).toBe(true);
      expect(run('Meta.nothere.deeper == "x"', job, { unknownValue: 'x' })).toBe(true);
      expect(run('any Nothere as x { x == 1 }', job, { unknownValue: null })).toBe('error:not-a-collection');
    });

    it('does not apply to out-of-range indexes or non-containers', () => {
      expect(run('Datacenters.5 == x', job, { unknownValue: 'x' })).toBe('error:index-out-of-range');
      expect(run('Name.x == x', job, { unknownValue: 'x' })).toBe('error:not-a-container');
    });
  });
});

describe('compileFilter: section 4, value coercion', () => {
  it.each<[string, Outcome]>([
    ['Priority == 50', true],
    ['Priority == "50"', true],
    ['Priority == `50`', true],
    ['Priority == 50.0', true],
    ['Priority == "5e1"', true],
    ['Priority == "5_0"', true],
    ['Priority == "0x1.9p5"', true],
    ['Priority == "0x32"', 'error:invalid-value'],
    ['Priority == abc', 'error:invalid-value'],
    ['Priority == "1e999"', 'error:invalid-value'],
    ['Priority != abc', 'error:invalid-value'],
    ['Float == "0.5"', true],
    ['Bool == 1', true],
    ['Bool == T', true],
    ['Bool == TRUE', true],
    ['Bool == True', true],
    ['Bool == false', false],
    ['Bool == yes', 'error:invalid-value'],
    ['Bool == fAlSe', 'error:invalid-value'],
    ['Name == 5', false],
  ])('%s -> %s', (text, expected) => {
    expect(run(text)).toBe(expected);
  });

  it('never equals NaN', () => {
    expect(run('Priority == NaN')).toBe(false);
    expect(run('Priority != NaN')).toBe(true);
    expect(run('x == "Inf"', { x: Number.POSITIVE_INFINITY })).toBe(true);
  });
});

describe('compileFilter: section 5, operators by kind', () => {
  it.each<[string, Outcome]>([
    ['Status == "running"', true],
    ['Status == "Running"', false],
    ['Meta == "x"', 'error:unsupported-kind'],
    ['Meta != "x"', 'error:unsupported-kind'],
    ['Datacenters == "x"', 'error:unsupported-kind'],
    ['Null == "x"', 'error:unsupported-kind'],
    ['Null != "x"', 'error:unsupported-kind'],
  ])('== and !=: %s -> %s', (text, expected) => {
    expect(run(text)).toBe(expected);
  });

  it.each<[string, Outcome]>([
    ['admin in Role', true],
    ['"" in Role', true],
    ['ADMIN in Role', false],
    ['Role contains "db"', true],
    ['"team-a" in Meta', false],
    ['owner in Meta', true],
    ['"with space" in Meta', true],
    ['"dc1" in Datacenters', true],
    ['"dc3" not in Datacenters', true],
    ['abc in Ints', false],
    ['2 in Ints', true],
    ['"2.0" in Ints', true],
    ['"true" in Mixed', true],
    ['"1e999" in Ints', 'error:invalid-value'],
    ['"a" in WithNull', true],
    ['"b" in WithNull', 'error:null-element'],
    ['"1" in WithObject', true],
    ['"2" in WithObject', 'error:uncomparable-element'],
    ['"x" in Priority', 'error:unsupported-kind'],
    ['"x" in Bool', 'error:unsupported-kind'],
    ['"x" in Null', 'error:unsupported-kind'],
  ])('in / contains: %s -> %s', (text, expected) => {
    expect(run(text)).toBe(expected);
  });

  it.each<[string, Outcome]>([
    ['Empty is empty', true],
    ['Name is empty', false],
    ['EmptyMeta is empty', true],
    ['Meta is not empty', true],
    ['EmptyList is empty', true],
    ['Datacenters is empty', false],
    ['Null is empty', 'error:unsupported-kind'],
    ['Priority is empty', 'error:unsupported-kind'],
    ['Bool is not empty', 'error:unsupported-kind'],
  ])('is empty: %s -> %s', (text, expected) => {
    expect(run(text)).toBe(expected);
  });

  it.each<[string, Outcome]>([
    ['Null is nil', true],
    ['Null is not nil', false],
    ['Meta is nil', false],
    ['EmptyList is nil', false],
    ['Name is nil', 'error:unsupported-kind'],
    ['Priority is not nil', 'error:unsupported-kind'],
  ])('is nil: %s -> %s', (text, expected) => {
    expect(run(text)).toBe(expected);
  });

  it.each<[string, Outcome]>([
    ['Name matches "web"', true],
    ['Name matches "^web-.*"', true],
    ['Name matches `^web-\\d+$`', true],
    ['Name matches "^web-\\\\d+$"', true],
    ['Name matches "(?i)^WEB"', true],
    ['Name matches "^\\\\pL+-[[:digit:]]+$"', true],
    ['Name not matches "^db"', true],
    ['Name matches "^WEB"', false],
    ['Name matches "("', 'error:invalid-regex'],
    ['Name matches "(?=x)"', 'error:invalid-regex'],
    ['Name matches "(a)\\\\1"', 'error:invalid-regex'],
    ['Priority matches "5"', 'error:unsupported-kind'],
    ['Datacenters matches "dc"', 'error:unsupported-kind'],
    ['Null matches "x"', 'error:unsupported-kind'],
    ['Status == "dead" and Name matches "("', false],
  ])('matches: %s -> %s', (text, expected) => {
    expect(run(text)).toBe(expected);
  });

  it('matches in linear time (RE2)', () => {
    const big = { Name: 'a'.repeat(100_000) + '!' };
    expect(run('Name matches "(a+)+$"', big)).toBe(false);
  });

  it('matches dot against one code point but not a newline unless (?s)', () => {
    expect(run('x matches "^.$"', { x: '😀' })).toBe(true);
    expect(run('x matches "a.b"', { x: 'a\nb' })).toBe(false);
    expect(run('x matches "(?s)a.b"', { x: 'a\nb' })).toBe(true);
  });
});

describe('compileFilter: section 6, boolean operators', () => {
  it.each<[string, Outcome]>([
    ['Missing == 1 or Status == "running"', 'error:missing-key'],
    ['Status == "running" or Missing == 1', true],
    ['Status == "dead" and Missing == 1', false],
    ['Status == "running" and Missing == 1', 'error:missing-key'],
    ['not Missing == 1', 'error:missing-key'],
    ['not Status == "dead"', true],
  ])('%s -> %s', (text, expected) => {
    expect(run(text)).toBe(expected);
  });

  it('lets one erroring item fail filterItems', () => {
    expect(() => filterItems('Priority == 50', [{ Priority: 50 }, { Priority: 'x' }, {}])).toThrow(
      FilterEvaluationError,
    );
    expect(filterItems('Priority == 50', [{ Priority: 50 }, { Priority: 70 }])).toEqual([{ Priority: 50 }]);
  });
});

describe('compileFilter: section 7, collections', () => {
  it.each<[string, Outcome]>([
    ['any TaskGroups as tg { tg.Name == "web" }', true],
    ['all TaskGroups as tg { tg.Count == 2 }', false],
    ['all TaskGroups as tg { tg.Count is not empty }', 'error:unsupported-kind'],
    ['any TaskGroups as tg { "/tg/Name" == "db" }', true],
    ['any TaskGroups as tg { tg.Missing == 1 }', false],
    ['any TaskGroups as tg { any tg.Tasks as t { t.Driver == "raw_exec" } }', true],
    ['any TaskGroups as tg { Name == "web-00042" }', true],
    ['any Meta as k { k == "owner" }', true],
    ['any Meta as k { k == "team-a" }', false],
    ['any Meta as k, v { v == "team-a" }', true],
    ['any Meta as _, v { v == "slash" }', true],
    ['any Meta as k, _ { k == "a/b" }', true],
    ['any Meta as k { k.foo == 1 }', 'error:bound-value-path'],
    ['any Ints as i, _ { i.foo == 1 }', 'error:bound-value-path'],
    ['any Ints as i, v { i == 0 }', true],
    ['any Ints as i, v { i == 0.0 }', 'error:invalid-value'],
    ['any Ints as i, v { i == "0x2" }', true],
    ['any Ints as i, v { i is empty }', 'error:unsupported-kind'],
    ['any Ints as x, x { x == 1 }', 'error:duplicate-binding'],
    ['any EmptyList as x, x { x == 1 }', false],
    ['all EmptyList as x { Missing == 1 }', true],
    ['any Name as x { x == 1 }', 'error:not-a-collection'],
    ['any Null as x { x == 1 }', 'error:not-a-collection'],
    ['any Priority as x { x == 1 }', 'error:not-a-collection'],
    ['any Missing as x { x == 1 }', 'error:missing-key'],
    ['any Ints as x { x == 2 }', true],
    ['all Ints as x { x != 0 }', true],
    ['any Ints as Status { Status == 3 }', true],
    ['any Ints as x { any Ints as x { x == 3 } }', true],
    ['any TaskGroups as tg { any tg.Tasks as tg { tg.Name == "pg" } }', true],
  ])('%s -> %s', (text, expected) => {
    expect(run(text)).toBe(expected);
  });
});

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
