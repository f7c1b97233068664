import { Job } from '@sked/model';
import { generateDataset } from '@sked/testkit';
import { describe, expect, it } from 'vitest';
import {
  compileFilter,
  completeFilter,
  createFilterCache,
  evaluateFilter,
  FilterEvaluationError,
  filter,
  filterBuilder,
  FilterSyntaxError,
  parseFilter,
  printFilter,
} from './index.js';

interface BuilderJob {
  Status: string;
  Datacenters: string[];
  Meta: Record<string, string>;
  TaskGroups: { Name: string }[];
}

describe('README examples', () => {
  it('quick example', () => {
    const keep = compileFilter('Status == "running" and "dc1" in Datacenters and Meta.owner == "team-a"');
    expect(keep({ Status: 'running', Datacenters: ['dc1'], Meta: { owner: 'team-a' } })).toBe(true);
    let error: unknown;
    try {
      compileFilter('Name = "x"');
    } catch (e) {
      error = e;
    }
    expect(FilterSyntaxError.is(error) && error.format()).toBe(
      '1:6: Unexpected character "=" (U+003D). Comparisons are written "==" and "!=".\nName = "x"\n     ^',
    );
  });

  it('API examples', () => {
    const r = parseFilter('Status == running and');
    expect(r.ok ? undefined : r.diagnostics[0]).toMatchObject({
      kind: 'parse',
      code: 'unexpected-token',
      line: 1,
      column: 22,
      offset: 21,
      length: 0,
    });
    const f = filterBuilder<BuilderJob>();
    const expr = f.and(
      f.eq('Status', 'running'),
      f.contains('Datacenters', 'dc1'),
      f.any('TaskGroups', 'tg', (tg) => tg.eq('Name', 'web "1"')),
    );
    expect(printFilter(expr)).toBe(
      'Status == "running" and "dc1" in Datacenters and (any TaskGroups as tg { tg.Name == "web \\x221\\x22" })',
    );
    expect(printFilter(filter.eq('Meta.with space', 1))).toBe('Meta["with space"] == 1');
    expect(completeFilter('Status ', 7).items.map((i) => i.label)).toEqual([
      '==',
      '!=',
      'not',
      'in',
      'contains',
      'matches',
      'is',
    ]);
    const meta = completeFilter('Meta.o', 6, { samples: [{ Meta: { owner: 'x' } }] });
    expect(meta).toMatchObject({ from: 5, to: 6, items: [{ label: 'owner', kind: 'selector' }] });
  });
});

describe('README typed mode', () => {
  const someJob = generateDataset({ seed: 1, jobs: 1 }).jobs[0] as Job;
  const job = { ...someJob, Type: 'batch', Priority: 50, Meta: null, Datacenters: null };

  it('reads null maps and lists as empty and integers as Go ints', () => {
    expect(compileFilter('Type == "batch" and Meta.team == "data"', { schema: Job })(job)).toBe(false);
    expect(compileFilter('Meta.team != "data"', { schema: Job })(job)).toBe(true);
    expect(compileFilter('Meta is empty and "dc1" not in Datacenters', { schema: Job })(job)).toBe(true);
    expect(compileFilter('all Meta as k, v { v == "data" }', { schema: Job })(job)).toBe(true);
    expect(compileFilter('Meta is nil', { schema: Job })(job)).toBe(true);
    expect(() => compileFilter('Meta.team == "data"')(job)).toThrow(/goes through null at \/Meta/);
    expect(compileFilter('Priority == "0x32"', { schema: Job })(job)).toBe(true);
    expect(() => compileFilter('Priority == 50.0', { schema: Job })(job)).toThrow(FilterEvaluationError);
  });

  it('rejects unknown fields at compile time and caches compiled filters', () => {
    let error: unknown;
    try {
      compileFilter('Type == "batch" and Prioirty == 50', { schema: Job });
    } catch (e) {
      error = e;
    }
    expect(FilterSyntaxError.is(error) && error.format()).toBe(
      '1:21: An item has no field "Prioirty"; did you mean "Priority"?\nType == "batch" and Prioirty == 50\n                    ^~~~~~~~',
    );
    const jobFilters = createFilterCache({ schema: Job, maxEntries: 500 });
    expect(jobFilters.compile('Meta.team == "data"') === jobFilters.compile('Meta.team == "data"')).toBe(
      true,
    );
  });

  it('reads own properties only (Decisions: Data)', () => {
    const data = { Meta: Object.create({ x: 1 }) as object };
    expect(evaluateFilter('Meta.x == 1', data)).toBe(false);
    expect(evaluateFilter('Meta is empty', data)).toBe(true);
    expect(evaluateFilter('"x" not in Meta', data)).toBe(true);
    expect(() => evaluateFilter('x == 1', Object.create({ x: 1 }))).toThrow(FilterEvaluationError);
    expect(evaluateFilter('Meta.constructor == "x"', { Meta: {} })).toBe(false);
    expect(() => evaluateFilter('constructor == "x"', {})).toThrow(/no key "constructor" at the top level/);
    expect(evaluateFilter('Meta["__proto__"] == "x"', JSON.parse('{"Meta": {"__proto__": "x"}}'))).toBe(true);
  });
});
