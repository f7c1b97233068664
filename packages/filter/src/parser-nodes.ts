/**
 * The AST nodes the parser builds from tokens: spans, literal values, selectors used as values,
 * and/or chains and clauses. The grammar (`parser.ts`) calls these; they know tokens and nodes,
 * not the grammar.
 * @internal
 * @packageDocumentation
 */
import type { IToken } from 'chevrotain';
import type { Expression, MatchNode, MatchOperator, SelectorNode, Span, ValueNode } from './ast.js';
import { goUnquote } from './internal/go-strconv.js';
import * as T from './tokens.js';

/** A selector with how it was written (the pointer form reads differently as a value). */
export interface ParsedSelector {
  readonly node: SelectorNode;
  readonly pointer: boolean;
}

/** Path segments of a pointer-shaped double-quoted token (RFC 6901 decoding; `""` is `[""]`). */
export function pointerPath(image: string): string[] {
  return image
    .slice(2, -1)
    .split('/')
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
}

export function spanOf(first: IToken, last: IToken): Span {
  return { start: first.startOffset, end: last.startOffset + last.image.length };
}

export function unquoted(image: string): string {
  const r = goUnquote(image);
  return r.ok ? r.value : '';
}

/** go-bexpr's `Selector.String()`: how a selector used as a value becomes a raw string. */
export function selectorAsValue(sel: ParsedSelector): ValueNode {
  const path = sel.node.path;
  const raw = sel.pointer && path.length === 1 && path[0] === '' ? '' : path.join(sel.pointer ? '/' : '.');
  return { kind: 'value', raw, span: sel.node.span };
}

/** A number or string literal as a value (numbers stay text; strings are unquoted). */
export function literalNode(t: IToken): ValueNode {
  return {
    kind: 'value',
    raw: t.tokenType === T.NumberLiteral ? t.image : unquoted(t.image),
    span: spanOf(t, t),
  };
}

export function fold(kind: 'and' | 'or', operands: readonly Expression[]): Expression {
  let result = operands[operands.length - 1] as Expression;
  for (let i = operands.length - 2; i >= 0; i--) {
    const left = operands[i] as Expression;
    result = { kind, left, right: result, span: { start: left.span.start, end: result.span.end } };
  }
  return result;
}

export function clause(
  operator: MatchOperator,
  selector: SelectorNode,
  value: ValueNode | null,
  end: IToken,
): MatchNode {
  const start = Math.min(selector.span.start, value?.span.start ?? selector.span.start);
  return {
    kind: 'match',
    operator,
    selector,
    value,
    span: { start, end: end.startOffset + end.image.length },
  };
}
