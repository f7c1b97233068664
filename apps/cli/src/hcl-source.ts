/**
 * HCL text for the CLI's own parsing: `@sked/hcl` (the reference HCL library compiled to
 * WebAssembly) loaded only when a file needs it, the lines of the keys it names in errors, and
 * size strings.
 */
import { CliError } from './errors.js';

/** Where a value sits in an HCL file: the path people read, and the keys to find its line by. */
export interface HclPlace {
  /** Dotted path as written in the file, e.g. `capability[1].access_mode`. */
  readonly path: string;
  /** Keys from the top, each optionally followed by which occurrence of a repeated block it is. */
  readonly keys: readonly (string | number)[];
}

/** The place of `key` inside `parent` (the `occurrence`-th block of that name, when repeated). */
export function childPlace(parent: HclPlace | undefined, key: string, occurrence?: number): HclPlace {
  const path = parent === undefined ? key : `${parent.path}.${key}`;
  const keys = [...(parent?.keys ?? []), key];
  if (occurrence === undefined) return { path, keys };
  return { path: `${path}[${occurrence}]`, keys: [...keys, occurrence] };
}

/** The place of item `index` of the list at `place` (on the list's line). */
export function itemPlace(place: HclPlace, index: number): HclPlace {
  return { path: `${place.path}[${index}]`, keys: place.keys };
}

/** Each line's bracket depth at its start and the attribute or block name it begins with, if any. */
function outline(text: string): { depth: number; key: string | undefined }[] {
  const lines: { depth: number; key: string | undefined }[] = [];
  const keyOf = (start: number): string | undefined =>
    /^[ \t]*"?([A-Za-z_][\w-]*)"?[ \t]*[={"]/.exec(text.slice(start, start + 200))?.[1];
  let depth = 0;
  lines.push({ depth, key: keyOf(0) });
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"' && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
      if (text[i] === '\n') i--;
    } else if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (let j = i; j < stop; j++) if (text[j] === '\n') lines.push({ depth, key: undefined });
      i = stop - 1;
    } else if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') depth = Math.max(0, depth - 1);
    else if (c === '\n') lines.push({ depth, key: keyOf(i + 1) });
  }
  return lines;
}

/** The outline of the last text asked about: an error names several places of one file. */
let lastOutline: { text: string; lines: ReturnType<typeof outline> } | undefined;
function outlineOf(text: string): ReturnType<typeof outline> {
  if (lastOutline?.text !== text) lastOutline = { text, lines: outline(text) };
  return lastOutline.lines;
}

/** The 1-based line of `place` in `text`: the deepest of its keys found, or undefined. */
export function lineOf(text: string, place: HclPlace): number | undefined {
  const lines = outlineOf(text);
  let from = 0;
  let depth = 0;
  let found: number | undefined;
  for (let k = 0; k < place.keys.length; k++) {
    const key = place.keys[k];
    if (typeof key === 'number') continue;
    const next = place.keys[k + 1];
    const nth = typeof next === 'number' ? next : 0;
    let seen = 0;
    let hit: number | undefined;
    for (let i = from; i < lines.length; i++) {
      const line = lines[i];
      if (line === undefined) break;
      if (line.depth < depth) break; // left the enclosing block
      if (line.depth === depth && line.key === key && seen++ === nth) {
        hit = i;
        break;
      }
    }
    if (hit === undefined) break;
    found = hit;
    from = hit + 1;
    depth++;
  }
  return found === undefined ? undefined : found + 1;
}

/**
 * Parses HCL text into hcl2json's JSON form (blocks become arrays of objects, expressions `${...}`
 * strings) with `@sked/hcl`, as the server parses job files. A syntax error is a CliError with the
 * parser's position (`name:line,column-column`); text nested too deeply, one with its line.
 */
export async function parseHclText(text: string, name: string, hint: string): Promise<unknown> {
  // Loaded here only: the WebAssembly parser takes a while to load and only HCL files need it.
  const { HclError, parseHcl } = await import('@sked/hcl');
  try {
    return await parseHcl(name, text);
  } catch (error) {
    if (!HclError.is(error)) throw error;
    const message =
      error.kind === 'parser'
        ? `${error.message} (on ${name})`
        : `${name} is not valid HCL: ${error.message}`;
    throw new CliError(message, { hint, cause: error });
  }
}
