import { nullRecord } from '@sked/model';
import { InvalidArgumentError, type Command } from 'commander';

import { globalsOf } from './context.js';
import { CliError, isAbort, reportError, type ErrorContext } from './errors.js';
import { INTERRUPTED } from './interrupt.js';
import { processOutput } from './output.js';
import { errorContext, resolvedAddress } from './service-config.js';

/** The error words of a service, from the flags and the environment of the command. */
export type ErrorContextOf = (command: Command) => ErrorContext;

/** The scheduling service's error words. */
export const schedulerErrors: ErrorContextOf = (command) =>
  errorContext('scheduler', resolvedAddress('scheduler', globalsOf(command)));

/**
 * Wraps a command's work for commander: the work returns the exit code (nothing means 0); any
 * error is printed on stderr (message, HTTP status, what to try) and becomes exit code 1, or
 * `failureCode` (255 for `job plan`); Ctrl-C while a request is out (an aborted signal) is 130.
 */
export function handler(
  work: (command: Command) => Promise<number | void>,
  errors: ErrorContextOf = schedulerErrors,
  failureCode = 1,
): (...args: unknown[]) => Promise<void> {
  return async (...args) => {
    const command = args.at(-1) as Command;
    try {
      process.exitCode = (await work(command)) ?? 0;
    } catch (error) {
      if (isAbort(error)) {
        // Ctrl-C before the server answered: whether a write took effect is not known.
        process.stderr.write(
          'Interrupted by Ctrl-C before the server answered; a change may or may not have been made.\n' +
            '  Try: the status commands show what the server has now (sked job status ID, sked alloc status ID).\n',
        );
        process.exitCode = INTERRUPTED;
        return;
      }
      process.exitCode = reportError(error, processOutput(false), errors(command), failureCode);
    }
  };
}

/** `key=value` pairs (repeatable flags or arguments) as a record; `key=` is an empty value. */
export function parsePairs(pairs: readonly string[], what: string): Record<string, string> {
  // A null prototype: a key named __proto__ (or toString, ...) is a key like any other.
  const out = nullRecord<string>();
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0)
      throw new CliError(`${what} "${pair}" is not key=value.`, { hint: 'Write each as key=value.' });
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

/** Collects a repeatable flag's values. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Parses a non-negative integer flag or argument (a usage error otherwise). */
export function integer(value: string): number {
  if (!/^\d{1,15}$/.test(value)) throw new InvalidArgumentError('Expected a non-negative integer.');
  return Number(value);
}
