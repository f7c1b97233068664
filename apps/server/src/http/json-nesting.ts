/**
 * The nesting guard of every JSON body the three listeners accept: text nested deeper than
 * {@link MAX_JSON_NESTING} is refused before it is parsed, so that no later recursive step (a
 * decoder, a copy, `JSON.stringify` of an error message) meets a value deep enough to overflow the
 * stack. One linear scan; strings are skipped.
 */

/** Deepest nesting of arrays and objects accepted in a request body. */
export const MAX_JSON_NESTING = 256;

/** Where a JSON text first goes deeper than the limit. */
export interface JsonNestingProblem {
  /** Offset (UTF-16 code units) of the bracket that went over the limit. */
  readonly position: number;
  /** Line of that bracket (1-based). */
  readonly line: number;
  /** Column of that bracket (1-based). */
  readonly column: number;
  /** The top-level property holding it, when the text is an object. */
  readonly property: string | undefined;
}

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;

function decodeKey(text: string, start: number, end: number): string {
  let key: string;
  try {
    key = JSON.parse(text.slice(start, end + 1)) as string;
  } catch {
    key = text.slice(start + 1, end);
  }
  return key.length > 60 ? `${key.slice(0, 57)}...` : key;
}

/**
 * Finds where a JSON text nests deeper than `max` arrays and objects (brackets inside strings do
 * not count). Malformed text is not judged here: `JSON.parse` does that afterwards.
 * @param text - The body.
 * @param max - Deepest nesting accepted.
 * @returns Where it first goes deeper, or undefined.
 */
export function jsonNestingProblem(text: string, max = MAX_JSON_NESTING): JsonNestingProblem | undefined {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  let topIsObject = false;
  let lastTopString: [number, number] | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
      if (depth === 1) lastTopString = [start, i];
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === 0) topIsObject = c === OPEN_OBJECT;
      depth++;
      if (depth > max) {
        const property =
          topIsObject && lastTopString !== undefined
            ? decodeKey(text, lastTopString[0], lastTopString[1])
            : undefined;
        return { position: i, line, column: i - lineStart + 1, property };
      }
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth = Math.max(0, depth - 1);
    } else if (c === NEWLINE) {
      line++;
      lineStart = i + 1;
    }
  }
  return undefined;
}

/**
 * The message of a {@link JsonNestingProblem}: what was wrong and where.
 * @param problem - The problem found.
 * @param max - The limit applied.
 * @returns One sentence.
 */
export function describeJsonNesting(problem: JsonNestingProblem, max = MAX_JSON_NESTING): string {
  const where = problem.property === undefined ? '' : ` in property ${JSON.stringify(problem.property)}`;
  return `nested more than ${max} levels deep${where} at position ${problem.position} (line ${problem.line} column ${problem.column})`;
}
