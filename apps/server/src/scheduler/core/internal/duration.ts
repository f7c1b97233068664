const UNITS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/**
 * Parses a duration in the service's syntax (`30s`, `1h30m`, `100ms`, `1.5s`) into nanoseconds.
 * A number is taken as nanoseconds already.
 * @returns nanoseconds, or undefined when the text is not a duration.
 */
export function parseDuration(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined;
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  if (s === '0') return 0;
  if (!/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(s)) return undefined;
  let total = 0;
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g))
    total += Number(m[1]) * (UNITS[m[2] ?? 's'] ?? 0);
  return Math.round(total);
}

/** Formats nanoseconds the way the service does (`30m0s`, `15s`, `1h0m0s`, `500ms`). */
export function formatDuration(ns: number): string {
  if (ns === 0) return '0s';
  if (ns < 1e9) return ns % 1e6 === 0 ? `${ns / 1e6}ms` : `${ns / 1e3}µs`;
  const h = Math.floor(ns / 3600e9);
  const m = Math.floor((ns % 3600e9) / 60e9);
  const s = (ns % 60e9) / 1e9;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}
