import { parseGoDuration } from '@sked/model';

/**
 * Default blocking time when a request names no `wait`: 5 minutes, in milliseconds.
 * @since 0.1.0
 */
export const DEFAULT_WAIT_MS: number = 5 * 60_000;

/**
 * Longest blocking time a request may ask for: 10 minutes, in milliseconds.
 * @since 0.1.0
 */
export const MAX_WAIT_MS: number = 10 * 60_000;

/**
 * Result of {@link parseWait}.
 * @since 0.1.0
 */
export type ParseWaitResult =
  | {
      /** The text was a valid wait. */
      readonly ok: true;
      /** Blocking time in milliseconds, default applied and capped. */
      readonly ms: number;
    }
  | {
      /** The text was not a valid wait. */
      readonly ok: false;
      /** The service's error message. */
      readonly message: 'Invalid wait time';
    };

/**
 * Parses the `wait` query parameter of a blocking query, as the service does.
 *
 * @remarks
 * Accepts Go duration strings (`parseGoDuration` of `@sked/model`, Go's `time.ParseDuration`): one or more `<number><unit>` parts with units `ns`, `us`, `ms`, `s`,
 * `m`, `h` (`"10s"`, `"5m"`, `"1h30m"`, `"300ms"`, `"1.5s"`), and a bare `"0"`. Absent, empty, zero or
 * negative means the default of 5 minutes; more than 10 minutes is capped at 10 minutes. Anything
 * else (spaces, unknown units, a number without a unit) is `Invalid wait time`. The random extra
 * delay of up to wait/16 is added by {@link IndexWatch.waitFor}, not here.
 *
 * @param text - The parameter's value, or `undefined` when absent.
 * @returns `{ ok: true, ms }` with the blocking time in milliseconds, or `{ ok: false, message }`.
 * @example
 * ```ts
 * parseWait('1h30m'); // { ok: true, ms: 600000 } (capped)
 * parseWait('10s');   // { ok: true, ms: 10000 }
 * parseWait('soon');  // { ok: false, message: 'Invalid wait time' }
 * ```
 * @since 0.1.0
 */
export function parseWait(text: string | undefined): ParseWaitResult {
  if (text === undefined || text === '') return { ok: true, ms: DEFAULT_WAIT_MS };
  const parsed = parseGoDuration(text);
  if (!parsed.ok) return { ok: false, message: 'Invalid wait time' };
  if (parsed.ns <= 0) return { ok: true, ms: DEFAULT_WAIT_MS };
  return { ok: true, ms: Math.min(parsed.ns / 1e6, MAX_WAIT_MS) };
}

/**
 * Formats milliseconds as a duration string that {@link parseWait} (and the service) accepts.
 *
 * @param ms - A non-negative number of milliseconds.
 * @returns For example `"300000ms"`; fractions are rounded up to whole milliseconds.
 * @throws RangeError when `ms` is negative or not finite.
 * @since 0.1.0
 */
export function formatWait(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) {
    throw new RangeError(`A wait must be a non-negative number of milliseconds, got ${String(ms)}.`);
  }
  return `${Math.ceil(ms)}ms`;
}
