import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { ago, formatNanos, keyValues, short, table } from './output.js';

describe('table', () => {
  it('aligns columns with two spaces, without borders or trailing spaces, <none> for empty cells', () => {
    expect(
      table(
        ['ID', 'Type'],
        [
          ['web', 'service'],
          ['a-long-id', ''],
        ],
      ),
    ).toBe('ID         Type\nweb        service\na-long-id  <none>');
  });

  describe('properties', () => {
    const cell = fc.stringMatching(/^[a-z0-9]{1,8}$/);
    test.prop([fc.array(fc.tuple(cell, cell, cell), { minLength: 1, maxLength: 8 })])(
      'every column starts at the same offset on every line',
      (rows) => {
        const lines = table(['A', 'B', 'C'], rows).split('\n');
        const starts = (line: string) =>
          [...line.matchAll(/(?:^|  )(\S)/g)].map((m) => m.index! + (m.index === 0 ? 0 : 2));
        const first = starts(lines[0]!);
        for (const line of lines) expect(starts(line)).toEqual(first);
      },
    );
  });
});

describe('formatting', () => {
  it('prints key = value blocks, times and short IDs as the service CLI does', () => {
    expect(
      keyValues([
        ['ID', 'web'],
        ['Priority', 50],
        ['Meta', null],
      ]),
    ).toBe('ID       = web\nPriority = 50\nMeta     = <none>');
    expect(formatNanos(1_795_497_349_000_000_000)).toBe('2026-11-24T05:15:49Z');
    expect(formatNanos(0)).toBe('<none>');
    expect(ago(1_000_000_000_000, 1_000_000 + 42_000)).toBe('42s ago');
    expect(ago(1_000_000_000_000, 1_000_000 + 3_725_000)).toBe('1h2m ago');
    expect(short('4a4a06f6-da8b-47d8-bc76-22da4e2fc661')).toBe('4a4a06f6');
  });
});
