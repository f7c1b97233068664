/**
 * The filter box's checks, all in the page with `@sked/filter`: an expression is compiled against
 * the model's `Job` schema, as the server compiles it for `/v1/jobs` (typed mode), so what it
 * refuses the server would refuse too, and is never sent; completion offers what the filter's
 * completion API finds valid at the cursor, with the fields of the schema and of the jobs shown.
 */
import { compileFilter, completeFilter, FilterSyntaxError, type CompletionItem } from '@sked/filter';
import { Job } from '@sked/model';

/** The result of checking an expression. */
export type FilterCheck =
  | { readonly ok: true }
  | {
      readonly ok: false;
      /** `line:column: sentence`. */
      readonly message: string;
      /** The diagnostic as `@sked/filter` formats it: the sentence, the expression and a caret line. */
      readonly formatted: string;
      /** Where the problem starts (UTF-16 offset) and how long it is. */
      readonly offset: number;
      readonly length: number;
    };

/**
 * Checks an expression as the server would. The empty expression is fine (no filter).
 * @param text - The expression.
 * @returns ok, or the diagnostic.
 */
export function checkFilter(text: string): FilterCheck {
  if (text.trim() === '') return { ok: true };
  try {
    compileFilter(text, { schema: Job });
    return { ok: true };
  } catch (error) {
    if (!FilterSyntaxError.is(error)) throw error;
    return {
      ok: false,
      message: error.message,
      formatted: error.format(),
      offset: error.offset,
      length: error.length,
    };
  }
}

/** Suggestions for the word at the cursor. */
export interface Suggestions {
  /** The range of the text they replace. */
  readonly from: number;
  readonly to: number;
  /** Field names first, then keywords and operators; at most {@link MAX_SUGGESTIONS}. */
  readonly items: readonly CompletionItem[];
}

/** Most suggestions shown at once. */
export const MAX_SUGGESTIONS = 12;

/**
 * Suggestions at the cursor: fields of the `Job` schema (and keys of the sample jobs, such as Meta
 * keys), keywords and operators valid there. Only while a word is being typed, or when asked.
 * @param text - The expression.
 * @param cursor - The cursor's offset.
 * @param samples - Jobs shown in the table (their map keys become suggestions).
 * @param always - Suggest even with no word at the cursor (Ctrl+Space).
 * @returns The suggestions (none when nothing fits).
 */
export function suggest(
  text: string,
  cursor: number,
  samples: readonly unknown[],
  always = false,
): Suggestions {
  const result = completeFilter(text, cursor, { schema: Job, samples });
  const typed = text.slice(result.from, result.to);
  const none = { from: result.from, to: result.to, items: [] };
  if (!always && typed === '' && !text.slice(0, cursor).endsWith('.')) return none;
  const items = result.items.filter((item) => item.insertText !== typed);
  return { from: result.from, to: result.to, items: items.slice(0, MAX_SUGGESTIONS) };
}

/**
 * Puts a suggestion in the expression.
 * @param text - The expression.
 * @param at - The suggestions' range.
 * @param item - The chosen one.
 * @returns The new expression and the cursor after the inserted text.
 */
export function accept(
  text: string,
  at: Pick<Suggestions, 'from' | 'to'>,
  item: CompletionItem,
): { text: string; cursor: number } {
  const next = text.slice(0, at.from) + item.insertText + text.slice(at.to);
  return { text: next, cursor: at.from + item.insertText.length };
}
