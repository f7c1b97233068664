import { describe, expect, it } from 'vitest';
import { filterItems } from './compile.js';
import { FilterEvaluationError } from './errors.js';
import { job, type Outcome, run } from '../test/compile-helpers.js';

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
