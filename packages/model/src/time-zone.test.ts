import { describe, expect, it } from 'vitest';

import { timeZoneProblem, wallTime } from './time-zone.js';

describe('timeZoneProblem', () => {
  it.each([
    '',
    'UTC',
    'Local',
    'America/New_York',
    'US/Eastern',
    'Europe/Kyiv',
    'Asia/Kathmandu',
    'Etc/GMT+5',
  ])('accepts %j', (name) => {
    expect(timeZoneProblem(name)).toBeUndefined();
  });

  it.each([
    [
      'Mars/Olympus',
      '"Mars/Olympus" is not a known IANA time zone name (such as "America/New_York" or "UTC")',
    ],
    [
      '../../etc/passwd',
      '"../../etc/passwd" is not a known IANA time zone name (such as "America/New_York" or "UTC")',
    ],
    ['+05:00', '"+05:00" is a UTC offset, not an IANA time zone name (such as "America/New_York" or "UTC")'],
    ['-0500', '"-0500" is a UTC offset, not an IANA time zone name (such as "America/New_York" or "UTC")'],
    [
      'america/new_york',
      '"america/new_york" is not a known IANA time zone name: names are case-sensitive, did you mean "America/New_York"?',
    ],
    ['utc', '"utc" is not a known IANA time zone name: names are case-sensitive, did you mean "UTC"?'],
    ['__proto__', '"__proto__" is not a known IANA time zone name (such as "America/New_York" or "UTC")'],
  ])('refuses %j: %s', (name, reason) => {
    expect(timeZoneProblem(name)).toBe(reason);
  });

  it('quotes at most 100 characters of a long name, and refuses what is not a string', () => {
    const reason = timeZoneProblem(`A/${'x'.repeat(100_000)}`);
    expect(reason).toMatch(/^"A\/x{98}\.\.\." is not a known IANA time zone name/);
    expect(timeZoneProblem(7 as unknown as string)).toBe('expected a string but got number');
    expect(timeZoneProblem(null as unknown as string)).toBe('expected a string but got null');
  });
});

describe('wallTime', () => {
  it.each([
    ['UTC', '2026-03-08T07:00:00.250Z', '2026-03-08T07:00:00.250Z'],
    ['America/New_York', '2026-03-08T06:59:00Z', '2026-03-08T01:59:00.000Z'], // EST
    ['America/New_York', '2026-03-08T07:00:00Z', '2026-03-08T03:00:00.000Z'], // EDT: 02:00-02:59 skipped
    ['America/New_York', '2026-11-01T05:30:00Z', '2026-11-01T01:30:00.000Z'], // EDT
    ['America/New_York', '2026-11-01T06:30:00Z', '2026-11-01T01:30:00.000Z'], // EST: 01:30 again
    ['Asia/Kathmandu', '2026-01-01T00:00:00Z', '2026-01-01T05:45:00.000Z'],
    ['America/New_York', '0000-06-01T12:00:00Z', '0000-06-01T07:03:58.000Z'], // local mean time, year 0 (1 BC)
  ])('in %s, %s reads %s', (zone, instant, wall) => {
    expect(new Date(wallTime(zone, Date.parse(instant))).toISOString()).toBe(wall);
  });
});
