/** How the console writes IDs, times and counts. */
import type { JobSummary } from '@sked/model';

/**
 * An ID as the service's CLI shows it: its first 8 characters.
 * @param id - A full ID (a UUID).
 * @returns The short form.
 */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/**
 * A time in Unix nanoseconds as `YYYY-MM-DD HH:MM:SS` (UTC).
 * @param nanos - Unix time in nanoseconds; 0 or absent means none.
 * @returns The text, or an empty string.
 */
export function formatNanos(nanos: number | undefined | null): string {
  if (nanos === undefined || nanos === null || nanos <= 0) return '';
  return new Date(Math.floor(nanos / 1e6)).toISOString().replace('T', ' ').slice(0, 19);
}

/** The allocation counts of a summary, in the order the service's CLI lists them. */
const COUNTS = ['Queued', 'Starting', 'Running', 'Complete', 'Failed', 'Lost', 'Unknown'] as const;

/**
 * The allocations of a job summed over its groups, as text (`2 running, 1 failed`).
 * @param summary - The job's summary (a list item's `JobSummary`), or null.
 * @returns The non-zero counts, or `none`.
 */
export function allocationSummary(summary: JobSummary | null | undefined): string {
  if (summary === null || summary === undefined) return 'none';
  const totals = new Map<string, number>();
  for (const group of Object.values(summary.Summary)) {
    for (const name of COUNTS) totals.set(name, (totals.get(name) ?? 0) + (group[name] ?? 0));
  }
  const parts = COUNTS.filter((name) => (totals.get(name) ?? 0) > 0).map(
    (name) => `${totals.get(name)} ${name === 'Starting' ? 'starting' : name.toLowerCase()}`,
  );
  return parts.length === 0 ? 'none' : parts.join(', ');
}
