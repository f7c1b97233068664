/**
 * HCL2 text to the JSON form of the reference HCL library (`@cdktf/hcl2json`, compiled to
 * WebAssembly): blocks become arrays of objects, expressions `${...}` strings. The parser runs in a
 * worker thread started on the first call, and terminated (all its memory freed) after it failed.
 */
import { hclNesting, MAX_HCL_NESTING } from './nesting.js';
import { parseInWorker } from './parser-host.js';

/** Why {@link parseHcl} refused a text. */
export type HclErrorKind =
  /** The text is not HCL: `message` is the parser's diagnostic, with its position (`name:3,7-8: ...`). */
  | 'syntax'
  /** Nested deeper than {@link MAX_HCL_NESTING}: `line` is where, `message` says it. */
  | 'nesting'
  /** The parser failed or did not answer in time (not the text's fault): a failed worker is terminated, the next call starts another. */
  | 'parser';

/** A text {@link parseHcl} could not turn into JSON; `message` is a sentence without the caller's prefix. */
export class HclError extends Error {
  /** Literal class name. */
  override readonly name = 'HclError';

  constructor(
    /** What went wrong ({@link HclErrorKind}). */
    readonly kind: HclErrorKind,
    message: string,
    /** The 1-based line the error is on, when known. */
    readonly line?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** Whether `value` is an HclError (by its name: works across copies of this package). */
  static is(value: unknown): value is HclError {
    return value instanceof Error && value.name === 'HclError' && 'kind' in value;
  }
}

/**
 * Parses HCL2 `text` (named `name` in diagnostics) into its JSON form, an object (`{}` for a text
 * of comments only). Text nested deeper than {@link MAX_HCL_NESTING} is refused before the parser
 * sees it: the WebAssembly parser overflows its stack on thousands of levels and dies.
 * @throws {@link HclError} of kind `syntax`, `nesting` or `parser`.
 */
export async function parseHcl(name: string, text: string): Promise<Record<string, unknown>> {
  const nesting = hclNesting(text);
  if (nesting.depth > MAX_HCL_NESTING)
    throw new HclError(
      'nesting',
      `line ${nesting.line} is nested ${nesting.depth} levels deep; at most ${MAX_HCL_NESTING} are accepted.`,
      nesting.line,
    );
  return parseUnguarded(name, text);
}

/** {@link parseHcl} without the nesting guard (internal: tests make the parser fail with it). */
export async function parseUnguarded(name: string, text: string): Promise<Record<string, unknown>> {
  const outcome = await parseInWorker(name, text);
  if (!outcome.ok) {
    const raw = outcome.message;
    if (outcome.fatal || !raw.startsWith('parse config:'))
      throw new HclError('parser', `The HCL parser failed: ${raw}`);
    const diagnostic = raw.replace(/^parse config: \[/, '').replace(/\]$/, '');
    const line = new RegExp(`^${escape(name)}:(\\d+),`).exec(diagnostic)?.[1];
    throw new HclError('syntax', diagnostic, line === undefined ? undefined : Number(line));
  }
  const result = outcome.value;
  return typeof result === 'object' && result !== null && !Array.isArray(result)
    ? (result as Record<string, unknown>)
    : {};
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
