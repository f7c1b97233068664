import { parseGoDuration } from '@sked/model';

/**
 * A duration of a job field or a task's config in nanoseconds: a non-negative number is nanoseconds
 * already, a string is read by Go's grammar (`parseGoDuration` of `@sked/model`: `30s`, `1h30m`,
 * `100ms`, `1.5s`), surrounding spaces ignored. The one grammar of durations; this only says which
 * values of a job may be one.
 * @returns nanoseconds, or undefined when the value is not a non-negative duration.
 */
export function durationNs(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined;
  if (typeof v !== 'string') return undefined;
  const parsed = parseGoDuration(v.trim());
  return parsed.ok && parsed.ns >= 0 ? parsed.ns : undefined;
}
