/**
 * Cron expressions of periodic jobs (`Periodic.Spec` with `SpecType` `cron`, read in `Periodic.TimeZone`):
 * parsing, and the next launch time after a given instant.
 *
 * @packageDocumentation
 */
import { ValidationError } from './errors.js';
import { instantOfWall, timeZoneProblem, wallTime } from './time-zone.js';

/**
 * A parsed cron expression: the allowed values of each of the 5 fields (minute, hour, day of month,
 * month, day of week), read on the wall clock of {@link CronSpec.timeZone}. Returned by {@link parseCron},
 * read by {@link nextCronLaunch}.
 *
 * @since 0.2.0
 */
export interface CronSpec {
  /** The IANA time zone the fields are read in (`UTC` unless {@link CronOptions.timeZone} said otherwise). */
  readonly timeZone: string;
  /** Minutes of the hour, 0-59. */
  readonly minutes: ReadonlySet<number>;
  /** Hours of the day, 0-23. */
  readonly hours: ReadonlySet<number>;
  /** Days of the month, 1-31. */
  readonly days: ReadonlySet<number>;
  /** Months, 1-12. */
  readonly months: ReadonlySet<number>;
  /** Days of the week, 0 (Sunday) to 6 (7 is read as Sunday too). */
  readonly weekdays: ReadonlySet<number>;
  /** The day-of-month field is `*`: only the day of the week restricts the day. */
  readonly anyDay: boolean;
  /** The day-of-week field is `*`: only the day of the month restricts the day. */
  readonly anyWeekday: boolean;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
// A Map, not an object literal: `__proto__` or `constructor` as a spec must not find a prototype member.
const MACROS: ReadonlyMap<string, string> = new Map([
  ['@yearly', '0 0 1 1 *'],
  ['@annually', '0 0 1 1 *'],
  ['@monthly', '0 0 1 * *'],
  ['@weekly', '0 0 * * 0'],
  ['@daily', '0 0 * * *'],
  ['@midnight', '0 0 * * *'],
  ['@hourly', '0 * * * *'],
]);

/** A cron spec that does not parse: the reason, as a sentence fragment. */
class CronSyntax {
  constructor(readonly reason: string) {}
}

function field(
  text: string,
  min: number,
  max: number,
  names: readonly string[] | undefined,
  what: string,
): Set<number> {
  const out = new Set<number>();
  const value = (s: string): number => {
    const lower = s.toLowerCase();
    const named = names?.indexOf(lower) ?? -1;
    const n = named >= 0 ? named + (min === 1 ? 1 : 0) : /^\d+$/.test(s) ? Number(s) : NaN;
    if (!Number.isInteger(n) || n < min || n > max)
      throw new CronSyntax(`${what} value "${s}" is out of range ${min}-${max}`);
    return n;
  };
  for (const part of text.split(',')) {
    const m = /^(\*|[^/-]+(?:-[^/]+)?)(?:\/(\d+))?$/.exec(part);
    if (!m) throw new CronSyntax(`${what} field "${text}" is malformed`);
    const step = m[2] === undefined ? 1 : Number(m[2]);
    if (step < 1) throw new CronSyntax(`${what} step must be at least 1`);
    let lo = min;
    let hi = max;
    if (m[1] !== '*') {
      const [a, b] = (m[1] ?? '').split('-');
      lo = value(a ?? '');
      hi = b === undefined ? (m[2] === undefined ? lo : max) : value(b);
      if (hi < lo) throw new CronSyntax(`${what} range "${m[1]}" is reversed`);
    }
    for (let v = lo; v <= hi; v += step) out.add(what === 'day-of-week' && v === 7 ? 0 : v);
  }
  return out;
}

/**
 * Options of {@link parseCron}.
 *
 * @since 0.2.0
 */
export interface CronOptions {
  /**
   * The IANA time zone whose wall clock the spec is read on (`Periodic.TimeZone`), as
   * {@link timeZoneProblem} accepts it.
   *
   * @defaultValue `'UTC'` (also for `""`)
   */
  readonly timeZone?: string | undefined;
}

function parse(spec: string, timeZone: string): CronSpec {
  const text = MACROS.get(spec.trim().toLowerCase()) ?? spec.trim();
  const parts = text.split(/\s+/);
  if (parts.length !== 5)
    throw new CronSyntax(`expected 5 fields (minute hour day month weekday), got ${parts.length}`);
  const [mi, h, d, mo, w] = parts as [string, string, string, string, string];
  return {
    timeZone,
    minutes: field(mi, 0, 59, undefined, 'minute'),
    hours: field(h, 0, 23, undefined, 'hour'),
    days: field(d, 1, 31, undefined, 'day-of-month'),
    months: field(mo, 1, 12, MONTHS, 'month'),
    weekdays: field(w, 0, 7, DAYS, 'day-of-week'),
    anyDay: d === '*',
    anyWeekday: w === '*',
  };
}

/**
 * Why a cron expression does not parse, or `undefined` when it does: the check {@link parseCron} makes,
 * without throwing.
 *
 * @param spec - A cron expression; anything that is not a string is refused.
 * @returns A sentence fragment naming the bad field, such as `hour value "24" is out of range 0-23`.
 * @example
 * ```ts
 * cronProblem('0 24 * * *'); // 'hour value "24" is out of range 0-23'
 * cronProblem('@daily'); // undefined
 * ```
 * @since 0.2.0
 */
export function cronProblem(spec: string): string | undefined {
  const result = tryParse(spec);
  return result instanceof CronSyntax ? result.reason : undefined;
}

function tryParse(spec: unknown, timeZone = 'UTC'): CronSpec | CronSyntax {
  if (typeof spec !== 'string') return new CronSyntax(`expected a string but got ${typeof spec}`);
  try {
    return parse(spec, timeZone);
  } catch (error) {
    if (error instanceof CronSyntax) return error;
    throw error;
  }
}

/**
 * Parses a cron expression of 5 fields (minute, hour, day of month, month, day of week), as periodic
 * jobs write them: `*`, numbers, ranges (`1-5`), lists (`1,15`), steps (`*\/15`, `10-50/20`), month and
 * day names (`jan`, `mon-fri`), 7 as Sunday, and the macros `@yearly`, `@annually`, `@monthly`, `@weekly`,
 * `@daily`, `@midnight` and `@hourly`. When both day fields are restricted, a day matching either runs.
 *
 * @param spec - A cron expression such as `*\/5 * * * *`, `0 3 * * mon-fri` or `@daily`.
 * @param options - The time zone the spec is read in.
 * @returns The parsed spec, for {@link nextCronLaunch}.
 * @throws {@link ValidationError} (subject `the cron spec "<spec>"`) with one problem at the root whose
 * message names the bad field, as {@link cronProblem} returns it; for a time zone {@link timeZoneProblem}
 * refuses, one at `/timeZone` with its reason.
 * @example
 * ```ts
 * const spec = parseCron('30 9 * * mon-fri');
 * nextCronLaunch(spec, Date.parse('2026-01-03T12:00:00Z')); // Date.parse('2026-01-05T09:30:00Z')
 * const local = parseCron('30 9 * * mon-fri', { timeZone: 'America/New_York' });
 * nextCronLaunch(local, Date.parse('2026-01-03T12:00:00Z')); // Date.parse('2026-01-05T14:30:00Z')
 * ```
 * @since 0.2.0
 */
export function parseCron(spec: string, options: CronOptions = {}): CronSpec {
  const shown = typeof spec === 'string' ? ` ${JSON.stringify(spec.slice(0, 60))}` : '';
  const zone = options.timeZone === undefined || options.timeZone === '' ? 'UTC' : options.timeZone;
  const zoneProblem = timeZoneProblem(zone);
  if (zoneProblem !== undefined)
    throw new ValidationError(`the cron spec${shown}`, [{ path: '/timeZone', message: zoneProblem }]);
  const result = tryParse(spec, zone);
  if (!(result instanceof CronSyntax)) return result;
  throw new ValidationError(`the cron spec${shown}`, [{ path: '', message: result.reason }]);
}

/**
 * The first launch of a cron spec strictly after an instant, on a whole minute of the wall clock of the
 * spec's time zone. Across a daylight saving change the schedule neither loses nor doubles a launch: a
 * wall time the clock skips (02:30 when it jumps from 02:00 to 03:00) launches once when the gap ends
 * (03:00), and a wall time the clock shows twice (01:30 when it goes back from 02:00 to 01:00) launches
 * once, the first time.
 *
 * @param spec - A spec from {@link parseCron}.
 * @param afterMs - The instant, in milliseconds since the Unix epoch.
 * @returns The launch time in milliseconds since the epoch, or `undefined` when the spec has none within
 * 5 years (`0 0 30 2 *`) or `afterMs` is not a finite number.
 * @example
 * ```ts
 * nextCronLaunch(parseCron('*\/15 * * * *'), Date.parse('2026-01-01T10:07:00Z')); // 10:15
 * ```
 * @since 0.2.0
 */
export function nextCronLaunch(spec: CronSpec, afterMs: number): number | undefined {
  if (!Number.isFinite(afterMs)) return undefined;
  if (spec.timeZone === 'UTC') return nextWallMatch(spec, afterMs, afterMs + LOOKAHEAD_MS);
  let from = wallTime(spec.timeZone, afterMs);
  const wallLimit = from + LOOKAHEAD_MS;
  for (;;) {
    const wall = nextWallMatch(spec, from, wallLimit);
    if (wall === undefined) return undefined;
    const at = instantOfWall(spec.timeZone, wall, afterMs);
    if (at !== undefined) return at;
    from = wall; // that wall time's instant lies before `afterMs`: look further
  }
}

const LOOKAHEAD_MS = 5 * 366 * 86_400_000;

/** The first whole minute strictly after `afterMs` (read as UTC fields) on the spec, up to `limit`. */
function nextWallMatch(spec: CronSpec, afterMs: number, limit: number): number | undefined {
  const t = new Date(Math.floor(afterMs / 60000) * 60000 + 60000);
  while (t.getTime() <= limit) {
    if (!spec.months.has(t.getUTCMonth() + 1)) {
      t.setUTCMonth(t.getUTCMonth() + 1, 1);
      t.setUTCHours(0, 0, 0, 0);
      continue;
    }
    const dom = spec.days.has(t.getUTCDate());
    const dow = spec.weekdays.has(t.getUTCDay());
    const dayOk =
      spec.anyDay && spec.anyWeekday ? true : spec.anyDay ? dow : spec.anyWeekday ? dom : dom || dow;
    if (!dayOk) {
      t.setUTCDate(t.getUTCDate() + 1);
      t.setUTCHours(0, 0, 0, 0);
      continue;
    }
    if (!spec.hours.has(t.getUTCHours())) {
      t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
      continue;
    }
    if (!spec.minutes.has(t.getUTCMinutes())) {
      t.setUTCMinutes(t.getUTCMinutes() + 1, 0, 0);
      continue;
    }
    return t.getTime();
  }
  return undefined;
}
