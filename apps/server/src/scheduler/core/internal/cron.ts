/** A parsed cron expression (5 fields: minute hour day-of-month month day-of-week), in UTC. */
export interface CronSpec {
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly days: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly weekdays: ReadonlySet<number>;
  readonly anyDay: boolean;
  readonly anyWeekday: boolean;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

function field(
  text: string,
  min: number,
  max: number,
  names: string[] | undefined,
  what: string,
): Set<number> {
  const out = new Set<number>();
  const value = (s: string): number => {
    const lower = s.toLowerCase();
    const named = names?.indexOf(lower) ?? -1;
    const n = named >= 0 ? named + (min === 1 ? 1 : 0) : /^\d+$/.test(s) ? Number(s) : NaN;
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`${what} value "${s}" is out of range ${min}-${max}`);
    return n;
  };
  for (const part of text.split(',')) {
    const m = /^(\*|[^/-]+(?:-[^/]+)?)(?:\/(\d+))?$/.exec(part);
    if (!m) throw new Error(`${what} field "${text}" is malformed`);
    const step = m[2] === undefined ? 1 : Number(m[2]);
    if (step < 1) throw new Error(`${what} step must be at least 1`);
    let lo = min;
    let hi = max;
    if (m[1] !== '*') {
      const [a, b] = (m[1] ?? '').split('-');
      lo = value(a ?? '');
      hi = b === undefined ? (m[2] === undefined ? lo : max) : value(b);
      if (hi < lo) throw new Error(`${what} range "${m[1]}" is reversed`);
    }
    for (let v = lo; v <= hi; v += step) out.add(what === 'day-of-week' && v === 7 ? 0 : v);
  }
  return out;
}

/**
 * Parses a cron expression (`*\/5 * * * *`, `0 3 * * mon-fri`, `@daily`).
 * @throws Error with a sentence naming the bad field.
 */
export function parseCron(spec: string): CronSpec {
  const text = MACROS[spec.trim().toLowerCase()] ?? spec.trim();
  const parts = text.split(/\s+/);
  if (parts.length !== 5)
    throw new Error(`expected 5 fields (minute hour day month weekday), got ${parts.length}`);
  const [mi, h, d, mo, w] = parts as [string, string, string, string, string];
  return {
    minutes: field(mi, 0, 59, undefined, 'minute'),
    hours: field(h, 0, 23, undefined, 'hour'),
    days: field(d, 1, 31, undefined, 'day-of-month'),
    months: field(mo, 1, 12, MONTHS, 'month'),
    weekdays: field(w, 0, 7, DAYS, 'day-of-week'),
    anyDay: d === '*',
    anyWeekday: w === '*',
  };
}

/** The first launch strictly after `afterMs` (UTC), or undefined when none within 5 years. */
export function nextLaunch(spec: CronSpec, afterMs: number): number | undefined {
  const t = new Date(Math.floor(afterMs / 60000) * 60000 + 60000);
  const limit = afterMs + 5 * 366 * 86400000;
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
