import { parseSecondsOrDuration, timerLimitProblem } from '@sked/model';

import { CliError } from './errors.js';

/**
 * Default request timeout: 60 s, as the secrets service's own CLI (its client timeout variable
 * defaults to 60 s).
 */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** The variable that sets the timeout when `--timeout` is not given. */
export const TIMEOUT_VAR = 'SKED_CLIENT_TIMEOUT'; // errors.ts names it too

/**
 * Reads a timeout as the secrets service's CLI reads its client timeout (`parseSecondsOrDuration`
 * of `@sked/model`): seconds (`30`), days (`2d`) or a Go duration (`500ms`, `90s`, `2m`, `1h30m`);
 * `0` is none.
 * @param text - The value as given.
 * @param where - `--timeout` or the variable, for the error.
 * @returns Milliseconds; 0 for none.
 * @throws {@link CliError} naming `where` and what is accepted, or the timer limit (2^31-1 ms).
 */
export function parseTimeout(text: string, where: string): number {
  const parsed = parseSecondsOrDuration(text);
  if (!parsed.ok || parsed.ns < 0) {
    throw new CliError(`${where} ${JSON.stringify(text)} is not a duration.`, {
      hint: 'Give seconds (30) or a duration (500ms, 90s, 2m, 1h30m); 0 means no timeout.',
    });
  }
  const tooLong = timerLimitProblem(parsed.ns);
  if (tooLong !== undefined) {
    throw new CliError(`${where} ${JSON.stringify(text)} ${tooLong}.`, { hint: 'Use 0 for no timeout.' });
  }
  return Math.ceil(parsed.ns / 1e6);
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
