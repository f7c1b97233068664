/**
 * KNOWN_OPEN: defect classes the fuzzer finds on today's code that other changes are fixing at the
 * same time. Each entry names its issue item; a problem it matches is counted as "known open" and
 * does not fail the run. Delete an entry once its fix is merged (the run then proves the fix), and
 * run `pnpm --filter @sked/server fuzz --strict` to see every class regardless of this list.
 *
 * @packageDocumentation
 */
import type { Problem } from './check.js';

/** A known, open defect class. */
export interface KnownOpen {
  /** The issue item that fixes it. */
  readonly item: string;
  /** What is wrong, for the summary. */
  readonly what: string;
  /** Whether a problem is of this class. */
  readonly matches: (problem: Problem) => boolean;
}

/** The classes excluded from the verdict until their fixes are merged. */
export const KNOWN_OPEN: readonly KnownOpen[] = [
  {
    // Every JSON answer of the three listeners says `application/json; charset=utf-8`; the real
    // services send `application/json` exactly (design/BEHAVIOUR.md, "Content types").
    item: 'issue 21 item 3',
    what: 'JSON answers typed "application/json; charset=utf-8"',
    matches: (problem) => problem.kind === 'content-type',
  },
  {
    // A body nested 10,000 deep is a 500 ("internal error" on the secrets listener, "Maximum call
    // stack size exceeded" inside a job on the scheduler listener) instead of a 400 saying where.
    item: 'issue 21 item 4',
    what: 'deeply nested JSON bodies answered 5xx',
    matches: (problem) => problem.kind === 'server-error' && problem.fuzzCase.mutation === 'deep-nesting',
  },
];

/**
 * The known open class of a problem.
 * @param problem - A defect the fuzzer saw.
 * @returns The class, or undefined for a new defect.
 */
export function knownOpen(problem: Problem): KnownOpen | undefined {
  return KNOWN_OPEN.find((known) => known.matches(problem));
}
