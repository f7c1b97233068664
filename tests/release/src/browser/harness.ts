/**
 * A small test harness for code bundled into a page: named checks, run in order, results left on
 * `globalThis.skedResults` for the driver to read. No Node API is used here.
 */

/** One check's outcome. */
export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly error?: string;
}

/** Throws unless the two values have the same JSON text. */
export function assertEqual(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

/** Throws unless `run` throws an error whose message contains `fragment`. */
export function assertThrows(run: () => unknown, fragment: string, what: string): void {
  try {
    run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!message.includes(fragment))
      throw new Error(`${what}: message ${JSON.stringify(message)} lacks ${JSON.stringify(fragment)}`);
    return;
  }
  throw new Error(`${what}: expected an error`);
}

/** Runs every check and publishes the results on `globalThis.skedResults`. */
export function runChecks(checks: Readonly<Record<string, () => void>>): void {
  const results: CheckResult[] = [];
  for (const [name, check] of Object.entries(checks)) {
    try {
      check();
      results.push({ name, ok: true });
    } catch (error) {
      results.push({
        name,
        ok: false,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  }
  (globalThis as { skedResults?: CheckResult[] }).skedResults = results;
}
