/**
 * IANA time zones of periodic jobs (`Periodic.TimeZone`): checking a name, and converting between an
 * instant and the wall-clock time of a zone, with the platform's `Intl` (its tz database) and nothing else.
 *
 * @packageDocumentation
 */

const SECOND = 1000;
const DAY = 86_400_000;
/** Formatters kept per zone name; cleared when full (names come from input, so the map is bounded). */
const MAX_FORMATTERS = 256;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone `Intl` reads for a `Periodic.TimeZone` value: `""` is UTC, `Local` the host's zone. */
function zoneId(name: string): string {
  if (name === '') return 'UTC';
  if (name === 'Local') return new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return name;
}

/** The wall-clock formatter of a zone; throws `RangeError` for a zone `Intl` does not know. */
function formatter(name: string): Intl.DateTimeFormat {
  const cached = formatters.get(name);
  if (cached !== undefined) return cached;
  const created = new Intl.DateTimeFormat('en-US', {
    timeZone: zoneId(name),
    hourCycle: 'h23',
    era: 'short',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  if (formatters.size >= MAX_FORMATTERS) formatters.clear();
  formatters.set(name, created);
  return created;
}

/**
 * Why a `Periodic.TimeZone` value is refused, or `undefined` when the service reads it: `""` and `UTC`
 * (UTC), `Local` (the host's zone) and IANA zone names such as `America/New_York`, written in their own
 * case (the service loads the zone file by name, so `america/new_york` is unknown to it). A UTC offset
 * such as `+05:00` is not a zone name.
 *
 * @param name - A time zone name; anything that is not a string is refused.
 * @returns A sentence fragment quoting the name, such as `"Mars/Olympus" is not a known IANA time zone name`.
 * @example
 * ```ts
 * timeZoneProblem('America/New_York'); // undefined
 * timeZoneProblem('Mars/Olympus'); // '"Mars/Olympus" is not a known IANA time zone name (such as "America/New_York" or "UTC")'
 * ```
 * @since 0.2.0
 */
export function timeZoneProblem(name: string): string | undefined {
  if (typeof name !== 'string') return `expected a string but got ${name === null ? 'null' : typeof name}`;
  if (name === '' || name === 'UTC') return undefined; // without loading the platform's zone data
  const shown = JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}...` : name);
  if (/^[+\-\d]/.test(name))
    return `${shown} is a UTC offset, not an IANA time zone name (such as "America/New_York" or "UTC")`;
  let resolved: string;
  try {
    resolved = formatter(name).resolvedOptions().timeZone;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return `${shown} is not a known IANA time zone name (such as "America/New_York" or "UTC")`;
  }
  if (name !== 'Local' && resolved !== name && resolved.toLowerCase() === name.toLowerCase())
    return `${shown} is not a known IANA time zone name: names are case-sensitive, did you mean "${resolved}"?`;
  return undefined;
}

/**
 * The wall-clock time of an instant in a zone, as milliseconds since the epoch of that wall clock read as
 * UTC (so `new Date(wall).getUTCHours()` is the local hour).
 *
 * @internal
 */
export function wallTime(zone: string, instantMs: number): number {
  if (zone === '' || zone === 'UTC') return instantMs; // UTC's wall clock is the instant
  const whole = Math.floor(instantMs / SECOND) * SECOND;
  const parts = formatter(zone).formatToParts(whole);
  const get = (type: Intl.DateTimeFormatPartTypes): number =>
    Number(parts.find((part) => part.type === type)?.value ?? NaN);
  const era = parts.find((part) => part.type === 'era')?.value;
  const year = era === 'BC' ? 1 - get('year') : get('year');
  const wall = new Date(0);
  wall.setUTCFullYear(year, get('month') - 1, get('day'));
  wall.setUTCHours(get('hour'), get('minute'), get('second'), 0);
  return wall.getTime() + (instantMs - whole);
}

/**
 * The first instant strictly after `afterMs` whose wall-clock time in `zone` is `wallMs`. A wall time the
 * clock shows twice (set back) is the first of its instants after `afterMs`; one it skips (set forward,
 * a daylight saving gap) is the instant the gap ends (02:30 in a gap from 02:00 to 03:00 is 03:00), so a
 * schedule neither loses nor doubles a launch. `undefined` when that instant is not after `afterMs`.
 *
 * @internal
 */
export function instantOfWall(zone: string, wallMs: number, afterMs: number): number | undefined {
  // The zone's offsets a day before and after the wall time: at most one transition lies between.
  const early = wallMs - (wallTime(zone, wallMs - DAY) - (wallMs - DAY));
  const late = wallMs - (wallTime(zone, wallMs + DAY) - (wallMs + DAY));
  const lo = Math.min(early, late);
  const hi = Math.max(early, late);
  for (const candidate of lo === hi ? [lo] : [lo, hi])
    if (candidate > afterMs && wallTime(zone, candidate) === wallMs) return candidate;
  if (lo === hi || wallTime(zone, lo) >= wallMs || wallTime(zone, hi) <= wallMs) return undefined;
  // A gap: the first second whose wall time is past `wallMs` (the transition), by bisection.
  let below = Math.floor(lo / SECOND);
  let above = Math.ceil(hi / SECOND);
  while (above - below > 1) {
    const mid = Math.floor((below + above) / 2);
    if (wallTime(zone, mid * SECOND) > wallMs) above = mid;
    else below = mid;
  }
  const end = above * SECOND;
  return end > afterMs ? end : undefined;
}
