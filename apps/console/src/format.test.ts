import { test } from '@fast-check/vitest';
import type { JobSummary } from '@sked/model';
import { jobSummaryArbitrary } from '@sked/testkit';
import { describe, expect, it } from 'vitest';
import { allocationSummary, formatNanos, shortId } from './format.js';

describe('format', () => {
  it('shortens an ID to 8 characters, as the service CLI', () => {
    expect(shortId('5c6bd061-7b9e-433a-8d6c-ce0616754eab')).toBe('5c6bd061');
  });

  it('writes Unix nanoseconds as UTC date and time, and nothing for none', () => {
    expect(formatNanos(1_764_260_944_123_000_000)).toBe('2025-11-27 16:29:04');
    expect(formatNanos(0)).toBe('');
    expect(formatNanos(null)).toBe('');
  });

  it('sums the allocations of every group, zero counts left out', () => {
    const group = { Queued: 0, Complete: 1, Failed: 0, Running: 2, Starting: 0, Lost: 0 };
    const summary = {
      JobID: 'web',
      Namespace: 'default',
      Summary: { a: group, b: { ...group, Failed: 3 } },
      Children: { Pending: 0, Running: 0, Dead: 0 },
      CreateIndex: 1,
      ModifyIndex: 2,
    } as JobSummary;
    expect(allocationSummary(summary)).toBe('4 running, 2 complete, 3 failed');
    expect(allocationSummary(null)).toBe('none');
    expect(allocationSummary({ ...summary, Summary: {} })).toBe('none');
  });
});

describe('properties', () => {
  test.prop([jobSummaryArbitrary()])(
    'the counts written add up to the allocations of the groups',
    (summary) => {
      const text = allocationSummary(summary);
      const written =
        text === 'none' ? 0 : text.split(', ').reduce((sum, part) => sum + Number(part.split(' ')[0]), 0);
      const counts = ['Queued', 'Starting', 'Running', 'Complete', 'Failed', 'Lost', 'Unknown'] as const;
      const total = Object.values(summary.Summary).reduce(
        (sum, group) => sum + counts.reduce((n, name) => n + (group[name] ?? 0), 0),
        0,
      );
      expect(written).toBe(total);
    },
  );
});
