import { describe, expect, it } from 'vitest';
import {
  compileFilter,
  completeFilter,
  filter,
  filterBuilder,
  FilterSyntaxError,
  parseFilter,
  printFilter,
} from './index.js';

interface Job {
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
    const f = filterBuilder<Job>();
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
