import { styleText } from 'node:util';

import Table from 'cli-table3';

/** Where a command writes, and whether it writes for a person or for a script. */
export interface Output {
  /** `--json`: print the API's JSON instead of tables. */
  readonly json: boolean;
  /** Writes a line (or lines) to stdout. */
  out(text: string): void;
  /** Writes a line (or lines) to stderr. */
  err(text: string): void;
}

/** The process's own streams. */
export function processOutput(json: boolean): Output {
  return {
    json,
    out: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  };
}

type Style = Parameters<typeof styleText>[0];

/**
 * Colours `text` when `stream` is a terminal that takes colours and neither `NO_COLOR` nor
 * `NODE_DISABLE_COLORS` is set (`FORCE_COLOR` forces it): node's own `styleText` decides.
 */
export function paint(style: Style, text: string, stream: NodeJS.WriteStream = process.stdout): string {
  if (process.env['NO_COLOR'] !== undefined && process.env['NO_COLOR'] !== '') return text;
  return styleText(style, text, { stream });
}

/** JSON as the service's CLI prints it for scripts: indented by 4 spaces. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, null, 4);
}

const NO_BORDER = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '',
};

/**
 * An aligned table without borders, as the service's CLI prints lists: a header row, then one row
 * per item, columns separated by two spaces, no trailing spaces.
 */
export function table(head: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const t = new Table({
    head: [...head],
    chars: NO_BORDER,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 2, compact: true },
    wordWrap: false,
  });
  for (const row of rows) t.push(row.map((cell) => cellText(cell)));
  return t
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '')
    .join('\n');
}

function cellText(cell: unknown): string {
  if (cell === undefined || cell === null || cell === '') return '<none>';
  if (typeof cell === 'object') return JSON.stringify(cell);
  return String(cell as string | number | boolean | bigint);
}

/**
 * `Key = value` lines with the keys padded to one width, as the service's CLI prints one object.
 */
export function keyValues(pairs: readonly (readonly [string, unknown])[]): string {
  const width = Math.max(0, ...pairs.map(([key]) => key.length));
  return pairs.map(([key, value]) => `${key.padEnd(width)} = ${cellText(value)}`).join('\n');
}

/** Unix nanoseconds as an ISO 8601 UTC time without fractions (`2026-11-24T05:06:39Z`). */
export function formatNanos(nanos: number | null | undefined): string {
  if (nanos === null || nanos === undefined || nanos <= 0) return '<none>';
  return formatDate(new Date(Math.floor(nanos / 1e6)));
}

/** A date as an ISO 8601 UTC time without fractions. */
export function formatDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return '<none>';
  return `${date.toISOString().slice(0, 19)}Z`;
}

/** How long ago Unix nanoseconds `nanos` was, as `42s ago`, `5m ago`, `3h12m ago`, `2d ago`. */
export function ago(nanos: number | null | undefined, now: number = Date.now()): string {
  if (nanos === null || nanos === undefined || nanos <= 0) return '<none>';
  const seconds = Math.max(0, Math.round((now - nanos / 1e6) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${seconds % 60}s ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h${minutes % 60}m ago`;
  return `${Math.floor(hours / 24)}d${hours % 24}h ago`;
}

/** The first 8 characters of an ID, as the service's CLI shows IDs in tables. */
export function short(id: string | null | undefined): string {
  if (id === null || id === undefined || id === '') return '<none>';
  return id.slice(0, 8);
}
