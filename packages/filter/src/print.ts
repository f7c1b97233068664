import type { Binding, CollectionNode, Expression, MatchNode } from './ast.js';
import { NUMBER_LITERAL } from './internal/go-strconv.js';
import { IDENTIFIER, isKeyword } from './internal/lexicon.js';

const DIGITS = /^[0-9]+$/;
const POINTER_SEGMENT = /^[\p{L}\p{N}\-_.~:|]+$/u;

/**
 * Quotes a string as a double-quoted filter literal that Go's unquoting turns back into exactly
 * `text` (`"` is written `\x22`, since a double-quoted literal ends at the first `"`).
 *
 * @param text - Any string without lone surrogates.
 * @returns The literal, quotes included.
 * @example
 * ```ts
 * quoteFilterString('say "hi"\n'); // '"say \\x22hi\\x22\\n"'
 * ```
 * @since 0.1.0
 */
export function quoteFilterString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) out += '\\x22';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (i === 0 && c === 0x2f)
      out += '\\x2f'; // keeps "/a/b" from reading as a JSON Pointer
    else out += text[i];
  }
  return `${out}"`;
}

/** Prints a raw value so that it parses back to the same raw text. */
function printValue(raw: string): string {
  return NUMBER_LITERAL.test(raw) ? raw : quoteFilterString(raw);
}

/**
 * Prints a selector path in canonical form: `Meta.owner`, `Datacenters.0`, `Meta["a b"]`, or the
 * JSON Pointer form `"/not"` when the first segment is a keyword or not an identifier.
 *
 * @param path - Path segments.
 * @returns The selector text.
 * @throws RangeError when no selector form of the language can express the path (for
 *   example a first segment with a space that is also not a JSON Pointer segment).
 * @example
 * ```ts
 * printSelector(['Meta', 'with space']); // 'Meta["with space"]'
 * ```
 * @since 0.1.0
 */
export function printSelector(path: readonly string[]): string {
  const first = path[0];
  if (first === undefined) throw new RangeError('A selector needs at least one path segment.');
  if (path.length === 1 && first === '') return '""';
  if (IDENTIFIER.test(first) && (path.length > 1 || !isKeyword(first))) {
    let out = first;
    for (let i = 1; i < path.length; i++) {
      const seg = path[i] as string;
      if (IDENTIFIER.test(seg) || DIGITS.test(seg)) out += `.${seg}`;
      else out += `[${quoteFilterString(seg)}]`;
    }
    return out;
  }
  const encoded = path.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1'));
  if (encoded.every((s) => POINTER_SEGMENT.test(s))) return `"/${encoded.join('/')}"`;
  throw new RangeError(
    `The selector path ${JSON.stringify(path)} cannot be written in the filter language: its first segment ${JSON.stringify(first)} is not an identifier and some segment is not a JSON Pointer segment.`,
  );
}

function printName(name: string): string {
  if (!IDENTIFIER.test(name)) {
    throw new RangeError(
      `The binding name ${JSON.stringify(name)} is not an identifier ([a-zA-Z][a-zA-Z0-9_/]*).`,
    );
  }
  return name;
}

function printBinding(b: Binding): string {
  if (b.form === 'single') return printName(b.name);
  if (b.index === null && b.value === null) throw new RangeError('A binding cannot be "_, _".');
  return `${b.index === null ? '_' : printName(b.index)}, ${b.value === null ? '_' : printName(b.value)}`;
}

function printMatch(m: MatchNode): string {
  const sel = printSelector(m.selector.path);
  const value = (): string => {
    if (m.value === null) throw new RangeError(`The "${m.operator}" operator needs a value.`);
    return printValue(m.value.raw);
  };
  switch (m.operator) {
    case 'equal':
      return `${sel} == ${value()}`;
    case 'not-equal':
      return `${sel} != ${value()}`;
    case 'in':
      return `${value()} in ${sel}`;
    case 'not-in':
      return `${value()} not in ${sel}`;
    case 'matches':
      return `${sel} matches ${value()}`;
    case 'not-matches':
      return `${sel} not matches ${value()}`;
    case 'is-empty':
      return `${sel} is empty`;
    case 'is-not-empty':
      return `${sel} is not empty`;
    case 'is-nil':
      return `${sel} is nil`;
    case 'is-not-nil':
      return `${sel} is not nil`;
  }
}

function printCollection(c: CollectionNode): string {
  return `${c.quantifier} ${printSelector(c.selector.path)} as ${printBinding(c.binding)} { ${printExpr(c.body, 'top')} }`;
}

type Context = 'top' | 'or-left' | 'or-right' | 'and-left' | 'and-right' | 'not';

function needsParens(node: Expression, ctx: Context): boolean {
  switch (node.kind) {
    case 'or':
      return ctx !== 'top' && ctx !== 'or-right';
    case 'and':
      return ctx === 'and-left' || ctx === 'not';
    case 'collection':
      return ctx !== 'top' && ctx !== 'or-right';
    case 'not':
    case 'match':
      return false;
  }
}

function printExpr(node: Expression, ctx: Context): string {
  if (needsParens(node, ctx)) return `(${printExpr(node, 'top')})`;
  switch (node.kind) {
    case 'or':
    case 'and': {
      // Walk the right spine iteratively: parsed chains are as deep as they are long.
      const kind = node.kind;
      const parts: string[] = [];
      let cur: Expression = node;
      while (cur.kind === kind) {
        parts.push(printExpr(cur.left, kind === 'or' ? 'or-left' : 'and-left'));
        cur = cur.right;
      }
      parts.push(printExpr(cur, kind === 'or' ? 'or-right' : 'and-right'));
      return parts.join(` ${kind} `);
    }
    case 'not':
      return `not ${printExpr(node.operand, 'not')}`;
    case 'match':
      return printMatch(node);
    case 'collection':
      return printCollection(node);
  }
}

/**
 * Prints an AST as canonical filter text that parses back to the same tree (spans aside).
 *
 * Values are double-quoted unless they are number literals; `contains` is printed as the
 * equivalent `in`; parentheses appear only where precedence or the collection rules need them.
 *
 * @param ast - An expression from {@link parseFilter} or the builder.
 * @returns The filter text.
 * @throws RangeError when a node cannot be expressed (see {@link printSelector}), or a
 *   binding name is not an identifier.
 * @example
 * ```ts
 * printFilter(filter.and(filter.eq('Status', 'running'), filter.contains('Datacenters', 'dc1')));
 * // 'Status == "running" and "dc1" in Datacenters'
 * ```
 * @since 0.1.0
 */
export function printFilter(ast: Expression): string {
  return printExpr(ast, 'top');
}
