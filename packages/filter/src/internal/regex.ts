import { RE2JS } from 're2js';

/**
 * Regular expressions with RE2 syntax and linear-time matching (re2js), unanchored as in the
 * reference. Patterns that are plain literals with optional `^`/`$` anchors and a trailing `.*`
 * (for example `^web-.*`) are answered with `startsWith`/`endsWith`/`includes`, which gives the
 * same answer as RE2 for such patterns and is much faster.
 *
 * @internal
 * @packageDocumentation
 */

/** A compiled pattern, or why it does not compile. @internal */
export type CompiledRegex =
  | { readonly ok: true; readonly test: (input: string) => boolean }
  | { readonly ok: false; readonly reason: string };

const META = new Set(['\\', '.', '+', '*', '?', '(', ')', '|', '[', ']', '{', '}', '^', '$']);
const ESCAPABLE_LITERAL = /^[!-/:-@[-`{-~]$/;

/** The literal text of a pattern made only of literal characters, or undefined. */
function literalOf(body: string): string | undefined {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === '\\') {
      const n = body[i + 1];
      if (n === undefined || !ESCAPABLE_LITERAL.test(n)) return undefined;
      out += n;
      i++;
    } else if (META.has(c)) {
      return undefined;
    } else {
      out += c;
    }
  }
  return out;
}

function literalFastPath(pattern: string): ((input: string) => boolean) | undefined {
  let body = pattern;
  let start = false;
  let end = false;
  if (body.startsWith('^')) {
    start = true;
    body = body.slice(1);
  }
  if (body.endsWith('.*') && !body.endsWith('\\.*')) {
    body = body.slice(0, -2);
  } else if (body.endsWith('$') && !body.endsWith('\\$')) {
    end = true;
    body = body.slice(0, -1);
  }
  if (!start && body.startsWith('.*')) body = body.slice(2);
  const lit = literalOf(body);
  if (lit === undefined) return undefined;
  if (start && end) return (s) => s === lit;
  if (start) return (s) => s.startsWith(lit);
  if (end) return (s) => s.endsWith(lit);
  return (s) => s.includes(lit);
}

/**
 * Compiles a pattern with Go's RE2 syntax.
 * @internal
 */
export function compileRegex(pattern: string): CompiledRegex {
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
  const fast = literalFastPath(pattern);
  if (fast !== undefined) return { ok: true, test: fast };
  return { ok: true, test: (s) => re.test(s) };
}
