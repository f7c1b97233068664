import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { nextLaunch, parseCron } from './cron.js';

const at = (s: string): number => Date.parse(s);

describe('nextLaunch', () => {
  it.each([
    ['*/15 * * * *', '2026-01-01T10:07:00Z', '2026-01-01T10:15:00.000Z'],
    ['0 3 * * *', '2026-01-01T10:07:00Z', '2026-01-02T03:00:00.000Z'],
    ['30 9 * * mon-fri', '2026-01-03T12:00:00Z', '2026-01-05T09:30:00.000Z'],
    ['0 0 1 jan *', '2026-03-01T00:00:00Z', '2027-01-01T00:00:00.000Z'],
    ['@hourly', '2026-01-01T10:00:00Z', '2026-01-01T11:00:00.000Z'],
  ])('%s after %s is %s', (spec, after, want) => {
    expect(new Date(nextLaunch(parseCron(spec), at(after))!).toISOString()).toBe(want);
  });

  it.each([
    ['* * * *', 'expected 5 fields (minute hour day month weekday), got 4'],
    ['a * * * *', 'minute value "a" is out of range 0-59'],
    ['0 24 * * *', 'hour value "24" is out of range 0-23'],
    ['5-1 * * * *', 'minute range "5-1" is reversed'],
  ])('rejects %s', (spec, message) => {
    expect(() => parseCron(spec)).toThrow(message);
  });
});

describe('properties', () => {
  test.prop([
    fc.integer({ min: 0, max: 59 }),
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }),
  ])('the next launch is later, on the spec, and within a day for a daily spec', (minute, hour, after) => {
    const next = nextLaunch(parseCron(`${minute} ${hour} * * *`), after)!;
    expect(next).toBeGreaterThan(after);
    expect(next - after).toBeLessThanOrEqual(86_400_000);
    const d = new Date(next);
    expect([d.getUTCMinutes(), d.getUTCHours(), d.getUTCSeconds()]).toEqual([minute, hour, 0]);
  });
});
