import { createRequire } from 'node:module';

import { badRequest } from '../errors.js';
import { isObj, type Json, type Obj } from './json.js';
import { hclNesting, MAX_HCL_NESTING } from './nesting.js';

type HclParse = (name: string, text: string) => Promise<unknown>;
const require = createRequire(import.meta.url);
let hclParse: HclParse | undefined;

/** Loads (or reloads, after the WebAssembly runtime died) the HCL parser. */
function parser(fresh = false): HclParse {
  if (fresh || !hclParse) {
    if (fresh) {
      for (const key of Object.keys(require.cache))
        if (key.includes('@cdktf/hcl2json')) delete require.cache[key];
    }
    const mod = require('@cdktf/hcl2json') as { parse: HclParse };
    hclParse = mod.parse;
  }
  return hclParse;
}

/** Parses HCL2 text into its JSON form; bad HCL is a 400 with the parser's position. */
export async function parseHcl(name: string, text: string): Promise<Obj> {
  const nesting = hclNesting(text);
  if (nesting.depth > MAX_HCL_NESTING)
    throw badRequest(
      `Failed to parse ${name}: line ${nesting.line} is nested ${nesting.depth} levels deep; at most ${MAX_HCL_NESTING} are accepted.`,
    );
  let result: unknown;
  try {
    result = await parser()(name, text);
  } catch (error) {
    const raw = error instanceof Error ? error.message : String(error);
    if (!raw.startsWith('parse config:')) {
      // Not a diagnostic of the file: the parser itself failed; start a fresh one for the next call.
      parser(true);
      throw new Error(`The HCL parser failed: ${raw}`, { cause: error });
    }
    const message = raw.replace(/^parse config: \[/, '').replace(/\]$/, '');
    throw badRequest(`Failed to parse ${name}: ${message}`);
  }
  return isObj(result) ? result : {};
}

/** A variable flag's text as the declared default's type (number, bool) when it reads as one. */
export function parseVarValue(text: string): Json {
  const t = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (t === 'true' || t === 'false') return t === 'true';
  return text;
}
