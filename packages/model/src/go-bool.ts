/**
 * Booleans written as text, read as the services read them (Go's `strconv.ParseBool`): query
 * parameters, `key=value` pairs, environment variables.
 *
 * @packageDocumentation
 */

const TRUE: ReadonlySet<string> = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE: ReadonlySet<string> = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/**
 * Reads a boolean exactly as Go's `strconv.ParseBool`: `1 t T TRUE true True` are true,
 * `0 f F FALSE false False` are false; anything else (`yes`, `tRuE`, `" true"`, `""`) is not a boolean.
 *
 * @param text - The text.
 * @returns The boolean, or `undefined` when the text is not one.
 * @example
 * ```ts
 * parseGoBool('T'); // true
 * parseGoBool('yes'); // undefined
 * ```
 * @since 0.3.0
 */
export function parseGoBool(text: string): boolean | undefined {
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  return undefined;
}
