import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { cronProblem, nextCronLaunch, parseCron, type CronSpec } from './cron.js';
import { ValidationError } from './errors.js';
import { wallTime } from './time-zone.js';

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

describe('nextCronLaunch in a time zone', () => {
  const launches = (spec: string, zone: string, from: string, count: number): string[] => {
    const parsed = parseCron(spec, { timeZone: zone });
    const out: string[] = [];
    let t = at(from);
    for (let i = 0; i < count; i++) {
      t = nextCronLaunch(parsed, t)!;
      out.push(new Date(t).toISOString());
    }
    return out;
  };

  it("reads the fields on the zone's wall clock", () => {
    expect(launches('30 9 * * mon-fri', 'America/New_York', '2026-01-03T12:00:00Z', 1)).toEqual([
      '2026-01-05T14:30:00.000Z', // 09:30 EST
    ]);
    expect(launches('0 0 * * *', 'Asia/Kathmandu', '2026-01-01T00:00:00Z', 1)).toEqual([
      '2026-01-01T18:15:00.000Z', // midnight at +05:45
    ]);
  });

  it('launches a time the clock skips once, when the gap ends (spring forward)', () => {
    // New York, 2026-03-08: 02:00 EST becomes 03:00 EDT
    expect(launches('30 2 * * *', 'America/New_York', '2026-03-06T12:00:00Z', 4)).toEqual([
      '2026-03-07T07:30:00.000Z', // 02:30 EST
      '2026-03-08T07:00:00.000Z', // 02:30 does not exist: 03:00 EDT
      '2026-03-09T06:30:00.000Z', // 02:30 EDT
      '2026-03-10T06:30:00.000Z',
    ]);
    expect(launches('*/15 2,3 * * *', 'America/New_York', '2026-03-08T06:00:00Z', 4)).toEqual([
      '2026-03-08T07:00:00.000Z', // 02:00-02:45 and 03:00 are one launch
      '2026-03-08T07:15:00.000Z',
      '2026-03-08T07:30:00.000Z',
      '2026-03-08T07:45:00.000Z',
    ]);
  });

  it('launches a time the clock shows twice once, the first time (fall back)', () => {
    // New York, 2026-11-01: 02:00 EDT becomes 01:00 EST
    expect(launches('30 1 * * *', 'America/New_York', '2026-10-31T12:00:00Z', 2)).toEqual([
      '2026-11-01T05:30:00.000Z', // 01:30 EDT, not again at 01:30 EST
      '2026-11-02T06:30:00.000Z',
    ]);
    expect(launches('*/30 * * * *', 'America/New_York', '2026-11-01T04:50:00Z', 4)).toEqual([
      '2026-11-01T05:00:00.000Z', // 01:00 EDT
      '2026-11-01T05:30:00.000Z', // 01:30 EDT
      '2026-11-01T07:00:00.000Z', // 02:00 EST: the repeated hour runs once
      '2026-11-01T07:30:00.000Z',
    ]);
    // a start during the repeated hour launches what is still ahead on the clock
    expect(launches('*/30 * * * *', 'America/New_York', '2026-11-01T06:10:00Z', 1)).toEqual([
      '2026-11-01T06:30:00.000Z', // 01:30 EST
    ]);
  });

  it('handles a half-hour change (Lord Howe Island, 02:00 to 02:30)', () => {
    expect(launches('0 2 * * *', 'Australia/Lord_Howe', '2026-10-03T00:00:00Z', 2)).toEqual([
      '2026-10-03T15:30:00.000Z', // 2026-10-04 02:00 does not exist: 02:30 at +11
      '2026-10-04T15:00:00.000Z',
    ]);
  });

  it('refuses a zone it does not know, naming it', () => {
    expect(() => parseCron('* * * * *', { timeZone: 'Mars/Olympus' })).toThrow(
      'The cron spec "* * * * *" is not valid: /timeZone: "Mars/Olympus" is not a known IANA time zone name (such as "America/New_York" or "UTC").',
    );
    expect(parseCron('@daily', { timeZone: '' }).timeZone).toBe('UTC');
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

/** The instants in `year` where the zone's offset changes (found day by day, then by bisection). */
function transitions(zone: string, year: number): number[] {
  const offset = (t: number): number => wallTime(zone, t) - t;
  const out: number[] = [];
  for (let day = Date.UTC(year, 0, 1); day < Date.UTC(year + 1, 0, 1); day += 86_400_000) {
    if (offset(day) === offset(day + 86_400_000)) continue;
    let lo = day;
    let hi = day + 86_400_000;
    while (hi - lo > 60_000) {
      const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
      if (offset(mid) === offset(lo)) lo = mid;
      else hi = mid;
    }
    out.push(hi);
  }
  return out;
}

const ZONES = [
  'America/New_York',
  'Europe/Dublin',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'America/St_Johns',
];
const CHANGES = ZONES.flatMap((zone) => transitions(zone, 2026).map((t) => ({ zone, t })));

/**
 * The next launch by brute force: walk the instants minute by minute; a wall-clock minute launches the
 * first time the clock reaches or jumps past it (after the wall time of `after`), and never again.
 */
function bruteForceLaunch(spec: CronSpec, after: number, minutes: number): number | undefined {
  let seen = Math.floor(wallTime(spec.timeZone, after) / 60_000) * 60_000;
  for (let t = Math.floor(after / 60_000) * 60_000 + 60_000, i = 0; i < minutes; t += 60_000, i++) {
    const wall = wallTime(spec.timeZone, t);
    if (wall <= seen) continue;
    for (let w = seen + 60_000; w <= wall; w += 60_000) if (onSpec(spec, w)) return t;
    seen = wall;
  }
  return undefined;
}

describe('properties', () => {
  test.prop([
    specArbitrary,
    fc.constantFrom(...CHANGES),
    fc.integer({ min: -3 * 3_600_000, max: 3_600_000 }),
  ])('in a time zone, the next launch near a clock change is the brute-force one', (text, change, shift) => {
    expect(CHANGES.length).toBeGreaterThanOrEqual(2 * ZONES.length);
    const spec = parseCron(text, { timeZone: change.zone });
    const after = change.t + shift;
    const next = nextCronLaunch(spec, after);
    const expected = bruteForceLaunch(spec, after, 6 * 60);
    if (expected !== undefined) expect(next).toBe(expected);
    else expect(next! - after).toBeGreaterThan(6 * 3_600_000 - 60_000);
  });

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
