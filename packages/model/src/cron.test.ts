import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { cronProblem, nextCronLaunch, parseCron, type CronSpec } from './cron.js';
import { ValidationError } from './errors.js';

const at = (s: string): number => Date.parse(s);

describe('nextCronLaunch', () => {
  it.each([
    ['*/15 * * * *', '2026-01-01T10:07:00Z', '2026-01-01T10:15:00.000Z'],
    ['0 3 * * *', '2026-01-01T10:07:00Z', '2026-01-02T03:00:00.000Z'],
    ['30 9 * * mon-fri', '2026-01-03T12:00:00Z', '2026-01-05T09:30:00.000Z'],
    ['0 0 1 jan *', '2026-03-01T00:00:00Z', '2027-01-01T00:00:00.000Z'],
    ['@hourly', '2026-01-01T10:00:00Z', '2026-01-01T11:00:00.000Z'],
    ['0 12 * * 7', '2026-01-01T00:00:00Z', '2026-01-04T12:00:00.000Z'],
    ['10-50/20 * * * *', '2026-01-01T10:31:00Z', '2026-01-01T10:50:00.000Z'],
    ['0 0 13 * fri', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00.000Z'],
  ])('%s after %s is %s', (spec, after, want) => {
    expect(new Date(nextCronLaunch(parseCron(spec), at(after))!).toISOString()).toBe(want);
  });

  it('has no launch for a date that never comes, nor after an instant that is not a number', () => {
    expect(nextCronLaunch(parseCron('0 0 30 2 *'), at('2026-01-01T00:00:00Z'))).toBeUndefined();
    expect(nextCronLaunch(parseCron('@daily'), Number.NaN)).toBeUndefined();
    expect(nextCronLaunch(parseCron('@daily'), Number.POSITIVE_INFINITY)).toBeUndefined();
  });
});

describe('parseCron', () => {
  it.each([
    ['* * * *', 'expected 5 fields (minute hour day month weekday), got 4'],
    ['a * * * *', 'minute value "a" is out of range 0-59'],
    ['0 24 * * *', 'hour value "24" is out of range 0-23'],
    ['5-1 * * * *', 'minute range "5-1" is reversed'],
    ['*/0 * * * *', 'minute step must be at least 1'],
    ['1/2/3 * * * *', 'minute field "1/2/3" is malformed'],
    ['0 0 0 * *', 'day-of-month value "0" is out of range 1-31'],
    ['0 0 * foo *', 'month value "foo" is out of range 1-12'],
    ['__proto__', 'expected 5 fields (minute hour day month weekday), got 1'],
    ['constructor', 'expected 5 fields (minute hour day month weekday), got 1'],
  ])('refuses %s: %s', (spec, message) => {
    expect(cronProblem(spec)).toBe(message);
    let thrown: unknown;
    try {
      parseCron(spec);
    } catch (error) {
      thrown = error;
    }
    expect(ValidationError.is(thrown)).toBe(true);
    expect((thrown as ValidationError).problems).toEqual([{ path: '', message }]);
    expect((thrown as ValidationError).message).toBe(
      `The cron spec ${JSON.stringify(spec)} is not valid: (root): ${message}.`,
    );
  });

  it('refuses a value that is not a string with the model error', () => {
    expect(() => parseCron(42 as unknown as string)).toThrow(ValidationError);
    expect(cronProblem(null as unknown as string)).toBe('expected a string but got object');
  });

  it('reads names, 7 as Sunday and macros', () => {
    const spec = parseCron('0 0 * JAN-mar sun,7');
    expect([...spec.months]).toEqual([1, 2, 3]);
    expect([...spec.weekdays]).toEqual([0]);
    expect(parseCron(' @Daily ')).toEqual(parseCron('0 0 * * *'));
  });
});

/** Whether `ms` is a launch time of `spec` (a whole minute on every field). */
function onSpec(spec: CronSpec, ms: number): boolean {
  const d = new Date(ms);
  const dom = spec.days.has(d.getUTCDate());
  const dow = spec.weekdays.has(d.getUTCDay());
  const day = spec.anyDay && spec.anyWeekday ? true : spec.anyDay ? dow : spec.anyWeekday ? dom : dom || dow;
  return (
    d.getUTCSeconds() === 0 &&
    d.getUTCMilliseconds() === 0 &&
    spec.minutes.has(d.getUTCMinutes()) &&
    spec.hours.has(d.getUTCHours()) &&
    spec.months.has(d.getUTCMonth() + 1) &&
    day
  );
}

const fieldArbitrary = (min: number, max: number): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constant('*'),
    fc.integer({ min, max }).map(String),
    fc
      .tuple(fc.integer({ min, max }), fc.integer({ min, max }))
      .map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
    fc.integer({ min: 1, max: max - min + 1 }).map((step) => `*/${step}`),
  );

const specArbitrary = fc
  .tuple(
    fieldArbitrary(0, 59),
    fieldArbitrary(0, 23),
    fieldArbitrary(1, 28),
    fieldArbitrary(1, 12),
    fieldArbitrary(0, 7),
  )
  .map((fields) => fields.join(' '));

describe('properties', () => {
  test.prop([
    fc.integer({ min: 0, max: 59 }),
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }),
  ])('the next launch is later, on the spec, and within a day for a daily spec', (minute, hour, after) => {
    const next = nextCronLaunch(parseCron(`${minute} ${hour} * * *`), after)!;
    expect(next).toBeGreaterThan(after);
    expect(next - after).toBeLessThanOrEqual(86_400_000);
    const d = new Date(next);
    expect([d.getUTCMinutes(), d.getUTCHours(), d.getUTCSeconds()]).toEqual([minute, hour, 0]);
  });

  test.prop([specArbitrary, fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 })])(
    'the next launch of any spec is on it, later, and no launch of it lies in between',
    (text, after) => {
      const spec = parseCron(text);
      const next = nextCronLaunch(spec, after);
      expect(next).toBeDefined(); // days 1-28 exist in every month
      expect(next!).toBeGreaterThan(after);
      expect(onSpec(spec, next!)).toBe(true);
      // no earlier whole minute after `after` is on the spec (checked over the first 3 hours at most)
      const first = Math.floor(after / 60_000) * 60_000 + 60_000;
      for (let t = first; t < Math.min(next!, first + 3 * 3_600_000); t += 60_000)
        expect(onSpec(spec, t)).toBe(false);
    },
  );

  test.prop([
    fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      specArbitrary.map((s) => s.replace(/\d/, 'x')),
    ),
  ])('any string parses or is refused with the model error, and cronProblem agrees', (text) => {
    const problem = cronProblem(text);
    try {
      parseCron(text);
      expect(problem).toBeUndefined();
    } catch (error) {
      expect(ValidationError.is(error)).toBe(true);
      expect((error as ValidationError).problems[0]?.message).toBe(problem);
    }
  });
});
