import { IDENTIFIER, KEYWORDS, type Keyword } from './internal/lexicon.js';
import { lex, parseTokens } from './parse.js';

/**
 * A suggestion of {@link completeFilter}.
 * @since 0.1.0
 */
export interface CompletionItem {
  /** What to show. */
  readonly label: string;
  /** `keyword` (`and`, `is`...), `operator` (`==`, `!=`), `punctuation` (`(`, `{`...), `selector` (a field name). */
  readonly kind: 'keyword' | 'operator' | 'punctuation' | 'selector';
  /** Text that replaces `text.slice(from, to)`. */
  readonly insertText: string;
}

/**
 * Result of {@link completeFilter}.
 * @since 0.1.0
 */
export interface CompletionResult {
  /** Start of the text the suggestions replace (the word being typed). */
  readonly from: number;
  /** End of the replaced text (the cursor). */
  readonly to: number;
  /** Suggestions valid at the cursor, selectors first. */
  readonly items: readonly CompletionItem[];
}

/**
 * Options of {@link completeFilter}.
 * @since 0.1.0
 */
export interface CompletionOptions {
  /**
   * Sample items (for example the first page of a list); their keys become selector suggestions.
   * @defaultValue []
   */
  readonly samples?: readonly unknown[];
  /**
   * A JSON Schema (a TypeBox schema works) describing the items; `properties` become selector
   * suggestions, following `properties`, `items`, `anyOf`, `oneOf` and `allOf`.
   * @defaultValue undefined
   */
  readonly schema?: unknown;
}

const OPERATORS = ['==', '!='] as const;
/** Text that can follow each keyword used as a keyword, but never the same word used as a field name. */
const PROBES: Readonly<Record<Keyword, readonly string[]>> = {
  and: [' ('],
  or: [' ('],
  not: [' (', ' in x', ' contains 1', ' matches 1', ' empty', ' nil'],
  in: [' x'],
  contains: [' "v"'],
  matches: [' "v"'],
  is: [' nil'],
  empty: [' and x', ')', ' }'],
  nil: [' and x', ')', ' }'],
  any: [' x as'],
  all: [' x as'],
  as: [' x {'],
};
const PUNCTUATION = ['(', ')', '{', '}', ',', '_'] as const;
const WORD_AT_END = /[a-zA-Z][a-zA-Z0-9_/]*(?:\.[a-zA-Z0-9_/]*)*$|\.[a-zA-Z0-9_/]*$/;

/** Whether `text` is a valid filter or a valid prefix of one (the only error is at its end). */
function viable(text: string): boolean {
  const lexed = lex(text, Number.POSITIVE_INFINITY);
  if (lexed.diagnostics.length > 0) return false;
  const parsed = parseTokens(text, lexed.tokens, Number.POSITIVE_INFINITY, true);
  if (parsed.ast !== undefined) return true;
  const first = parsed.diagnostics[0];
  return first !== undefined && first.offset >= text.trimEnd().length;
}

function keysAt(value: unknown, path: readonly string[]): string[] {
  let cur = value;
  for (const seg of path) {
    if (Array.isArray(cur)) cur = cur[Number(seg)];
    else if (typeof cur === 'object' && cur !== null) cur = (cur as Record<string, unknown>)[seg];
    else return [];
  }
  if (typeof cur === 'object' && cur !== null && !Array.isArray(cur)) return Object.keys(cur);
  return [];
}

function schemaKeysAt(schema: unknown, path: readonly string[], depth = 0): string[] {
  if (typeof schema !== 'object' || schema === null || depth > 32) return [];
  const s = schema as Record<string, unknown>;
  const out: string[] = [];
  for (const k of ['anyOf', 'oneOf', 'allOf']) {
    const list = s[k];
    if (Array.isArray(list)) for (const sub of list) out.push(...schemaKeysAt(sub, path, depth + 1));
  }
  const [head, ...rest] = path;
  if (head === undefined) {
    const props = s['properties'];
    if (typeof props === 'object' && props !== null) out.push(...Object.keys(props));
    return out;
  }
  const props = s['properties'];
  if (typeof props === 'object' && props !== null && head in props) {
    out.push(...schemaKeysAt((props as Record<string, unknown>)[head], rest, depth + 1));
  } else if (/^[0-9]+$/.test(head) && s['items'] !== undefined) {
    out.push(...schemaKeysAt(s['items'], rest, depth + 1));
  } else if (typeof s['additionalProperties'] === 'object') {
    out.push(...schemaKeysAt(s['additionalProperties'], rest, depth + 1));
  }
  return out;
}

/**
 * Suggests what may come next at a cursor position: keywords, operators and punctuation that keep
 * the filter valid, and field names from sample objects or a schema where a selector may go. Each
 * candidate is checked by running the real parser on the text before the cursor plus the
 * candidate, so suggestions follow every rule of the grammar (whitespace around word operators,
 * the position of `any`/`all`, ...).
 *
 * @param text - The filter being edited.
 * @param offset - The cursor, as a 0-based UTF-16 offset (clamped to the text).
 * @param options - Samples and/or a schema for field names.
 * @returns The replaced range and the suggestions.
 * @example
 * ```ts
 * completeFilter('Status ', 7).items.map((i) => i.label); // ['==', '!=', 'contains', ...]
 * completeFilter('Met', 3, { samples: [{ Meta: {} }] }).items[0]; // { label: 'Meta', kind: 'selector', ... }
 * ```
 * @since 0.1.0
 */
export function completeFilter(text: string, offset: number, options?: CompletionOptions): CompletionResult {
  const to = Math.min(Math.max(0, Math.trunc(offset) || 0), text.length);
  if (to > 100_000) return { from: to, to, items: [] };
  const before = text.slice(0, to);
  const word = WORD_AT_END.exec(before)?.[0] ?? '';
  const dot = word.lastIndexOf('.');
  const wordStart = to - word.length;
  const partial = dot === -1 ? word : word.slice(dot + 1);
  const from = to - partial.length;
  const base = text.slice(0, wordStart);
  const items: CompletionItem[] = [];
  const seen = new Set<string>();
  const add = (item: CompletionItem): void => {
    if (seen.has(item.label) || !item.label.startsWith(partial) || item.label === partial) return;
    seen.add(item.label);
    items.push(item);
  };

  const parent = dot === -1 ? [] : word.slice(0, dot).split('.');
  const selectorBase = dot === -1 ? base : base + word.slice(0, dot);
  const selectorOk = dot === -1 ? viable(`${base}x`) : viable(`${selectorBase}.x`);
  if (selectorOk) {
    const names: string[] = [];
    for (const sample of options?.samples ?? []) names.push(...keysAt(sample, parent));
    if (options?.schema !== undefined) names.push(...schemaKeysAt(options.schema, parent));
    for (const name of [...new Set(names)].sort()) {
      if (IDENTIFIER.test(name) || (dot !== -1 && /^[0-9]+$/.test(name)))
        add({ label: name, kind: 'selector', insertText: name });
    }
  }
  if (dot === -1) {
    for (const op of OPERATORS)
      if (viable(`${base}${op}`)) add({ label: op, kind: 'operator', insertText: op });
    for (const kw of KEYWORDS) {
      // A keyword is also a valid field name; suggest it only where it works as the keyword.
      if (PROBES[kw].some((probe) => viable(`${base}${kw}${probe}`))) {
        add({ label: kw, kind: 'keyword', insertText: kw });
      }
    }
    if (partial === '') {
      for (const p of PUNCTUATION)
        if (viable(`${base}${p}`)) add({ label: p, kind: 'punctuation', insertText: p });
    }
  }
  return { from, to, items };
}
