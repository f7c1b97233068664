/**
 * Durations as the services write and read them: Go's `time.ParseDuration` and `Duration.String`,
 * the secrets service's "seconds or a duration", and the longest wait a JavaScript timer holds.
 * The one duration grammar of every package (the blocking `wait`, job and HCL durations, the mock
 * driver, `sked-server`'s flags, the LDAP configuration, the CLI's `--timeout`).
 *
 * @packageDocumentation
 */

/**
 * Result of {@link parseGoDuration} and {@link parseSecondsOrDuration}.
 * @since 0.3.0
 */
export type DurationResult =
  | {
      /** The text is a duration. */
      readonly ok: true;
      /** The duration in nanoseconds (negative when the text starts with `-`). */
      readonly ns: number;
    }
  | {
      /** The text is not a duration. */
      readonly ok: false;
      /** Go's message, such as `time: unknown unit "d" in duration "1d"`. */
      readonly message: string;
    };

/**
 * The longest delay a JavaScript timer (`setTimeout`) waits: 2^31-1 ms, about 24.8 days. A longer
 * delay fires at once, so a duration a timer waits for is checked against it
 * ({@link timerLimitProblem}).
 * @since 0.3.0
 */
export const MAX_TIMER_MS: number = 2 ** 31 - 1;

// A Map, not an object literal: a unit read from input must not find a prototype member.
const UNIT_NS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1_000n],
  ['\u00b5s', 1_000n], // µ, MICRO SIGN
  ['\u03bcs', 1_000n], // μ, GREEK SMALL LETTER MU
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
]);
const MAX_NS = 2n ** 63n;

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/**
 * Parses a duration exactly as Go's `time.ParseDuration`: an optional sign, then one or more
 * `<number><unit>` parts (`"300ms"`, `"-1.5h"`, `"2h45m"`, `".5s"`), units `ns`, `us` (or `µs`),
 * `ms`, `s`, `m`, `h`; `"0"` alone needs no unit. Nothing else: no spaces, no `d`, no bare number.
 *
 * @param text - The text.
 * @returns `{ ok: true, ns }`, or `{ ok: false, message }` with Go's message.
 * @example
 * ```ts
 * parseGoDuration('1h30m'); // { ok: true, ns: 5_400_000_000_000 }
 * parseGoDuration('1d'); // { ok: false, message: 'time: unknown unit "d" in duration "1d"' }
 * ```
 * @since 0.3.0
 */
export function parseGoDuration(text: string): DurationResult {
  const invalid = { ok: false, message: `time: invalid duration ${JSON.stringify(text)}` } as const;
  let s = text;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return { ok: true, ns: 0 };
  if (s === '') return invalid;
  let total = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) return invalid;
    let i = 0;
    while (isDigit(s[i])) i++;
    const whole = s.slice(0, i);
    let fraction = '';
    if (s[i] === '.') {
      const start = ++i;
      while (isDigit(s[i])) i++;
      fraction = s.slice(start, i);
    }
    if (whole === '' && fraction === '') return invalid;
    s = s.slice(i);
    let u = 0;
    while (u < s.length && s[u] !== '.' && !isDigit(s[u])) u++;
    if (u === 0) return { ok: false, message: `time: missing unit in duration ${JSON.stringify(text)}` };
    const unitText = s.slice(0, u);
    s = s.slice(u);
    const unit = UNIT_NS.get(unitText);
    if (unit === undefined) {
      const message = `time: unknown unit ${JSON.stringify(unitText)} in duration ${JSON.stringify(text)}`;
      return { ok: false, message };
    }
    const v = BigInt(whole === '' ? '0' : whole);
    if (v > MAX_NS / unit) return invalid;
    // Go keeps the fraction's digits while they fit and scales them in floating point.
    const digits = fraction.replace(/0+$/, '').slice(0, 18);
    const part =
      digits === '' ? 0n : BigInt(Math.trunc(Number(digits) * (Number(unit) / 10 ** digits.length)));
    total += v * unit + part;
    if (total > MAX_NS) return invalid;
  }
  if (!negative && total > MAX_NS - 1n) return invalid;
  return { ok: true, ns: negative ? -Number(total) : Number(total) };
}

/** `v / 10^digits` written with the fraction's trailing zeros dropped. */
function decimal(v: bigint, digits: number): string {
  const scale = 10n ** BigInt(digits);
  const rest = (v % scale).toString().padStart(digits, '0').replace(/0+$/, '');
  return rest === '' ? `${v / scale}` : `${v / scale}.${rest}`;
}

/**
 * Writes nanoseconds as Go's `Duration.String` does: `"1h30m0s"`, `"1.5s"`, `"500ms"`, `"1.5µs"`,
 * `"0s"`; what {@link parseGoDuration} reads back to the same value.
 *
 * @param ns - Nanoseconds (truncated to an integer).
 * @returns The duration text.
 * @example
 * ```ts
 * formatGoDuration(5_400_000_000_000); // '1h30m0s'
 * ```
 * @since 0.3.0
 */
export function formatGoDuration(ns: number): string {
  let u = BigInt(Math.trunc(ns));
  const sign = u < 0n ? '-' : '';
  if (u < 0n) u = -u;
  if (u === 0n) return '0s';
  if (u < 1_000n) return `${sign}${u}ns`;
  if (u < 1_000_000n) return `${sign}${decimal(u, 3)}µs`;
  if (u < 1_000_000_000n) return `${sign}${decimal(u, 6)}ms`;
  const hours = u / 3_600_000_000_000n;
  u %= 3_600_000_000_000n;
  const minutes = u / 60_000_000_000n;
  const seconds = `${decimal(u % 60_000_000_000n, 9)}s`;
  if (hours > 0n) return `${sign}${hours}h${minutes}m${seconds}`;
  if (minutes > 0n) return `${sign}${minutes}m${seconds}`;
  return `${sign}${seconds}`;
}

const DAYS = /^(\d{1,10})d$/;

/**
 * Reads a duration the way the secrets service and its CLI do (`ParseDurationSecond`): a
 * non-negative number or string of digits is seconds (`90`, `"90"`); `"<n>d"` is days; anything else
 * is a Go duration ({@link parseGoDuration}). Surrounding spaces are ignored; an empty string is 0.
 *
 * @param value - A number of seconds or the text.
 * @returns `{ ok: true, ns }` or `{ ok: false, message }`.
 * @example
 * ```ts
 * parseSecondsOrDuration('90'); // { ok: true, ns: 90_000_000_000 }
 * parseSecondsOrDuration('2d'); // { ok: true, ns: 172_800_000_000_000 }
 * ```
 * @since 0.3.0
 */
export function parseSecondsOrDuration(value: string | number): DurationResult {
  if (typeof value === 'number') {
    if (Number.isFinite(value) && value >= 0) return { ok: true, ns: value * 1e9 };
    return { ok: false, message: `time: invalid duration ${JSON.stringify(String(value))}` };
  }
  const text = value.trim();
  if (text === '') return { ok: true, ns: 0 };
  if (/^\d{1,16}$/.test(text)) return { ok: true, ns: Number(text) * 1e9 };
  const days = DAYS.exec(text);
  if (days !== null) return { ok: true, ns: Number(days[1]) * 86_400e9 };
  return parseGoDuration(text);
}

/**
 * Why a duration cannot be waited for by a timer, or `undefined` when it can: more than
 * {@link MAX_TIMER_MS}. The sentence names the limit, for the caller's message (which names the
 * field).
 *
 * @param ns - The duration in nanoseconds.
 * @returns For example `is longer than 2147483647 ms (about 24.8 days), the longest a timer waits`.
 * @since 0.3.0
 */
export function timerLimitProblem(ns: number): string | undefined {
  if (ns / 1e6 <= MAX_TIMER_MS) return undefined;
  return `is longer than ${MAX_TIMER_MS} ms (about 24.8 days), the longest a timer waits`;
}
