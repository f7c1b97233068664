import { HclError, parseHcl as parseHclText } from '@sked/hcl';

import { badRequest } from '../errors.js';
import type { Json, Obj } from './json.js';

/** Parses HCL2 text into its JSON form; bad or too deeply nested HCL is a 400 with its position. */
export async function parseHcl(name: string, text: string): Promise<Obj> {
  try {
    return (await parseHclText(name, text)) as Obj;
  } catch (error) {
    // The parser failing (not the file) stays a 500.
    if (HclError.is(error) && error.kind !== 'parser')
      throw badRequest(`Failed to parse ${name}: ${error.message}`);
    throw error;
  }
}

/** A variable flag's text as the declared default's type (number, bool) when it reads as one. */
export function parseVarValue(text: string): Json {
  const t = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (t === 'true' || t === 'false') return t === 'true';
  return text;
}
