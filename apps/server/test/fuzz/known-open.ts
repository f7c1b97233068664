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

/** The classes excluded from the verdict until their fixes are merged: none open now (the JSON
 * content type, issue 21 item 3, and deep nesting, item 4, are fixed). */
export const KNOWN_OPEN: readonly KnownOpen[] = [];

/**
 * The known open class of a problem.
 * @param problem - A defect the fuzzer saw.
 * @returns The class, or undefined for a new defect.
 */
export function knownOpen(problem: Problem): KnownOpen | undefined {
  return KNOWN_OPEN.find((known) => known.matches(problem));
}
