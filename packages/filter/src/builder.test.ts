import { describe, expect, it } from 'vitest';
import { filter, filterBuilder } from './builder.js';
import { compileFilter } from './compile.js';
import { parseFilter } from './parse.js';
import { printFilter } from './print.js';

interface Job {
  ID: string;
  Status: 'pending' | 'running' | 'dead';
  Priority: number;
  Stop: boolean;
  Meta: Record<string, string> | null;
  Datacenters: string[];
  TaskGroups: { Name: string; Count: number; Tasks: { Name: string; Driver: string }[] }[];
}

const f = filterBuilder<Job>();

describe('filterBuilder', () => {
  it('builds every operator with correct quoting', () => {
    const expr = f.or(
      f.and(f.eq('Status', 'running'), f.ne('Priority', 50), f.contains('Datacenters', 'dc "1"')),
      f.not(f.matches('ID', '^web-\\d+$')),
      f.notMatches('ID', '/x'),
      f.notContains('Meta', 'owner'),
      f.isEmpty('Meta'),
      f.isNotEmpty('Datacenters'),
      f.isNil('Meta'),
      f.isNotNil('Meta'),
      f.eq('Stop', true),
      f.eq('Meta.owner', 'team-a'),
    );
    const text = printFilter(expr);
    expect(text).toBe(
      'Status == "running" and Priority != 50 and "dc \\x221\\x22" in Datacenters or not ID matches "^web-\\\\d+$" or ID not matches "\\x2fx" or "owner" not in Meta or Meta is empty or Datacenters is not empty or Meta is nil or Meta is not nil or Stop == "true" or Meta.owner == "team-a"',
    );
    const parsed = parseFilter(text);
    expect(parsed.ok).toBe(true);
  });

  it('builds collections whose body selectors start at the element', () => {
    const expr = f.any('TaskGroups', 'tg', (tg) =>
      tg.and(
        tg.eq('Name', 'web'),
        tg.any('Tasks', 't', (t) => t.eq('Driver', 'mock')),
      ),
    );
    expect(printFilter(expr)).toBe(
      'any TaskGroups as tg { tg.Name == "web" and (any tg.Tasks as t { t.Driver == "mock" }) }',
    );
    const keep = compileFilter(expr);
    expect(keep({ TaskGroups: [{ Name: 'web', Tasks: [{ Driver: 'mock' }] }] })).toBe(true);
    expect(keep({ TaskGroups: [{ Name: 'web', Tasks: [{ Driver: 'exec' }] }] })).toBe(false);
    expect(printFilter(f.all('Datacenters', 'dc', (dc) => dc.ne([], 'dc9')))).toBe(
      'all Datacenters as dc { dc != "dc9" }',
    );
  });

  it('accepts raw segment arrays for keys with dots and quotes odd keys', () => {
    expect(printFilter(f.eq(['Meta', 'a.b'], 'x'))).toBe('Meta["a.b"] == "x"');
    expect(printFilter(filter.eq('Meta.with space', 1))).toBe('Meta["with space"] == 1');
    expect(printFilter(filter.eq('in', 1))).toBe('"/in" == 1');
  });

  it('rejects what the language cannot express, at once', () => {
    expect(() => filter.eq('with space', 1)).toThrow(RangeError);
    expect(() => filter.eq([], 1)).toThrow(RangeError);
    expect(() => filter.eq('a', Number.NaN)).toThrow(/cannot be written/);
    expect(() => filter.any('L', '_x', (x) => x.eq('a', 1))).toThrow(/not an identifier/);
  });

  it('checks selectors against the type', () => {
    // @ts-expect-error -- not a field of Job
    f.eq('Nope', 1);
    // @ts-expect-error -- not a field of the task group
    f.any('TaskGroups', 'tg', (tg) => tg.eq('Nope', 1));
    f.any('TaskGroups', 'tg', (tg) => tg.eq('Count', 1));
    f.eq('TaskGroups.0.Tasks.1.Driver', 'mock');
    filter.eq('anything.goes', 1);
    expect(true).toBe(true);
  });
});
