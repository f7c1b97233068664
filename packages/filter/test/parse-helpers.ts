/**
 * Helpers of the parser tests: the AST of a text without spans, its match node, its first diagnostic.
 */
import type { MatchNode } from '../src/ast.js';
import { parseFilter } from '../src/parse.js';
import { stripSpans } from './arbitraries.js';

export function ast(text: string): unknown {
  const r = parseFilter(text);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(text)} to parse: ${r.diagnostics[0]?.message}`);
  return stripSpans(r.ast);
}

export function match(text: string): MatchNode {
  const r = parseFilter(text);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(text)} to parse: ${r.diagnostics[0]?.message}`);
  if (r.ast.kind !== 'match') throw new Error(`expected a match, got ${r.ast.kind}`);
  return r.ast;
}

export function firstError(text: string): { code: string; offset: number; message: string } {
  const r = parseFilter(text);
  if (r.ok) throw new Error(`expected ${JSON.stringify(text)} to fail`);
  const d = r.diagnostics[0]!;
  return { code: d.code, offset: d.offset, message: d.message };
}

export const sel = (...path: string[]): unknown => ({ kind: 'selector', path });
export const val = (raw: string): unknown => ({ kind: 'value', raw });
