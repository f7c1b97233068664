import { CliError } from './errors.js';

/**
 * Default request timeout: 60 s, as the secrets service's own CLI (its client timeout variable
 * defaults to 60 s).
 */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Longest timeout a Node.js timer holds (2^31-1 ms, about 24.8 days). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;
/** The variable that sets the timeout when `--timeout` is not given. */
export const TIMEOUT_VAR = 'SKED_CLIENT_TIMEOUT'; // errors.ts names it too

const UNITS: ReadonlyMap<string, number> = new Map([
  ['ms', 1],
  ['s', 1000],
  ['m', 60_000],
  ['h', 3_600_000],
]);

/**
 * Reads a timeout: seconds (`30`), or a number with a unit (`500ms`, `90s`, `2m`, `1h`); `0` is none.
 * @param text - The value as given.
 * @param where - `--timeout` or the variable, for the error.
 * @returns Milliseconds; 0 for none.
 * @throws {@link CliError} naming `where` and what is accepted.
 */
export function parseTimeout(text: string, where: string): number {
  const match = /^\s*(\d{1,15}(?:\.\d{1,6})?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (match === null) {
    throw new CliError(`${where} ${JSON.stringify(text)} is not a duration.`, {
      hint: 'Give seconds (30) or a number with ms, s, m or h (500ms, 90s, 2m); 0 means no timeout.',
    });
  }
  const ms = Math.round(Number(match[1]) * (UNITS.get(match[2] ?? 's') ?? 1000));
  if (ms > MAX_TIMEOUT_MS) {
    throw new CliError(
      `${where} ${JSON.stringify(text)} is longer than ${MAX_TIMEOUT_MS} ms, the most a timer holds.`,
      {
        hint: 'Use 0 for no timeout.',
      },
    );
  }
  return ms;
}

let current = DEFAULT_TIMEOUT_MS;

/**
 * The request timeout of this run: `--timeout`, then `SKED_CLIENT_TIMEOUT`, then 60 s. Every
 * client the command creates gets it; the waits of blocking queries stay below it.
 * @param flag - The `--timeout` flag, when given.
 * @returns Milliseconds; 0 for none.
 */
export function requestTimeout(flag: string | undefined): number {
  const env = process.env[TIMEOUT_VAR];
  if (flag !== undefined) current = parseTimeout(flag, '--timeout');
  else if (env !== undefined && env !== '') current = parseTimeout(env, TIMEOUT_VAR);
  else current = DEFAULT_TIMEOUT_MS;
  return current;
}

/**
 * The `wait` of a blocking query (30 s, or half the request timeout when that is shorter), so the
 * server answers before the timeout cuts the request.
 * @returns Milliseconds.
 */
export function blockingWaitMs(): number {
  return current === 0 ? 30_000 : Math.max(1, Math.min(30_000, Math.floor(current / 2)));
}
