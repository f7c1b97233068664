/**
 * Whether code generation (`new Function`) is allowed here, and the cache of generated factories.
 * Without code generation (a strict Content-Security-Policy) filters run as closures; answers are
 * identical either way.
 * @internal
 * @packageDocumentation
 */

let codegenAvailable: boolean | undefined;
export function canGenerate(): boolean {
  if (codegenAvailable === undefined) {
    try {
      // oxlint-disable-next-line typescript/no-implied-eval -- deliberate: feature detection of code generation
      codegenAvailable = (new Function('return 1') as () => number)() === 1;
    } catch {
      codegenAvailable = false;
    }
  }
  return codegenAvailable;
}

/**
 * Forces code generation on or off (`undefined` detects again). For tests of both paths.
 * @internal
 */
export function setCodegen(enabled: boolean | undefined): void {
  codegenAvailable = enabled;
}

/** Most generated factories kept (by source text); beyond it each filter gets its own, uncached. */
export const FACTORY_CACHE_LIMIT = 512;
const factories = new Map<string, unknown>();

/**
 * The factory of a generated source, made once per distinct source (the constants of a filter are
 * its parameters, so filters that differ only in their values share one factory).
 */
export function cachedFactory<F>(source: string, make: () => F): F {
  const hit = factories.get(source);
  if (hit !== undefined) return hit as F;
  const made = make();
  if (factories.size < FACTORY_CACHE_LIMIT) factories.set(source, made);
  return made;
}
