/**
 * The base of the chevrotain parser: per-parse state and the lookahead that decides go-bexpr's
 * ordered choices. Where the PEG's choice depends on arbitrary lookahead (`not` as an operator or as
 * a field name, `any` as a field name or a collection), gates call a small non-recursive recogniser
 * of match expressions (`matchAt`), so parsing stays linear.
 * @internal
 * @packageDocumentation
 */
import { EmbeddedActionsParser, EOF, tokenMatcher, type IToken, type TokenType } from 'chevrotain';
import type { Span } from './ast.js';
import { FilterSyntaxErrorCode } from './errors.js';
import { messages, ParseFailure, resetExpected } from './parser-errors.js';
import * as T from './tokens.js';

/** The JSON Pointer shape of a double-quoted selector: zero or more `/segment`. */
const POINTER_BODY = /^(?:\/[\p{L}\p{N}\-_.~:|]+)*$/u;

/** Whether a double-quoted token's text has the JSON Pointer shape. @internal */
export function isPointerImage(image: string): boolean {
  return POINTER_BODY.test(image.slice(1, -1));
}

/** Path segments of a pointer-shaped double-quoted token (RFC 6901 decoding; `""` is `[""]`). @internal */
export function pointerPath(image: string): string[] {
  const body = image.slice(1, -1);
  return body
    .slice(1)
    .split('/')
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
}

const isToken = (t: IToken, type: TokenType): boolean => tokenMatcher(t, type);

/** Per-parse state and lookahead helpers (pure, non-recursive) of the filter parser. @internal */
export class LookaheadParser extends EmbeddedActionsParser {
  /** Most clauses accepted by the current parse. */
  maxClauses = Number.POSITIVE_INFINITY;
  /** Lookahead treats the end of input as "could still match" (completion). */
  partial = false;
  private clauses = 0;

  constructor() {
    super(T.allTokens, { maxLookahead: 1, recoveryEnabled: false, errorMessageProvider: messages });
  }

  /** Resets per-parse state and sets the tokens. */
  prepare(tokens: IToken[], maxClauses: number, partial: boolean): void {
    this.input = tokens;
    this.clauses = 0;
    this.maxClauses = maxClauses;
    this.partial = partial;
    resetExpected();
  }

  protected isEof(k: number): boolean {
    return this.LA(k).tokenType === EOF;
  }

  /** Whether whitespace separates LA(k-1) and LA(k) (true at both ends of the input). */
  protected gap(k: number): boolean {
    const tok = this.LA(k);
    const prev = this.LA(k - 1);
    if (tok.tokenType === EOF || prev.tokenType === EOF) return true;
    return tok.startOffset > prev.startOffset + prev.image.length;
  }

  /** Strict whitespace before LA(k): end of input does not count (except in completion mode). */
  protected ws(k: number): boolean {
    if (this.isEof(k)) return this.partial;
    return this.gap(k);
  }

  protected selectorStartsAt(k: number): boolean {
    const t = this.LA(k);
    return isToken(t, T.Name) || (t.tokenType === T.DoubleQuoted && isPointerImage(t.image));
  }

  /** Index after a selector starting at k, -1 if none, -2 if the input ended inside it. */
  protected selectorEnd(k: number): number {
    const t = this.LA(k);
    if (t.tokenType === EOF) return -2;
    if (t.tokenType === T.DoubleQuoted) return isPointerImage(t.image) ? k + 1 : -1;
    if (!isToken(t, T.Name)) return -1;
    let j = k + 1;
    for (;;) {
      const n = this.LA(j);
      if (n.tokenType === EOF || this.gap(j)) return j;
      if (n.tokenType === T.DotSegment) {
        j++;
        continue;
      }
      if (n.tokenType !== T.LBracket) return j;
      const s = this.LA(j + 1);
      if (s.tokenType === EOF) return -2;
      if (s.tokenType !== T.DoubleQuoted && s.tokenType !== T.RawString) return -1;
      const r = this.LA(j + 2);
      if (r.tokenType === EOF) return -2;
      if (r.tokenType !== T.RBracket) return -1;
      j += 3;
    }
  }

  protected valueEnd(k: number): number {
    const s = this.selectorEnd(k);
    if (s !== -1) return s;
    const t = this.LA(k);
    if (t.tokenType === T.NumberLiteral || t.tokenType === T.DoubleQuoted || t.tokenType === T.RawString)
      return k + 1;
    return -1;
  }

  /** Whether a match expression parses at LA(k) (the PEG's `MatchExpression`, without recursion). */
  protected matchAt(k: number): boolean {
    const partial = this.partial;
    const j = this.selectorEnd(k);
    if (j === -2) return partial;
    if (j >= 0) {
      const t = this.LA(j);
      if (t.tokenType === EOF) return partial;
      if (t.tokenType === T.Equal || t.tokenType === T.NotEqual) {
        const v = this.valueEnd(j + 1);
        if (v >= 0 || (v === -2 && partial)) return true;
      } else if (this.gap(j)) {
        if (t.tokenType === T.Contains || t.tokenType === T.Matches) {
          if (this.isEof(j + 1)) return partial;
          const v = this.valueEnd(j + 1);
          if (this.ws(j + 1) && (v >= 0 || (v === -2 && partial))) return true;
        } else if (t.tokenType === T.Not) {
          const u = this.LA(j + 1);
          if (u.tokenType === EOF) return partial;
          if ((u.tokenType === T.Contains || u.tokenType === T.Matches) && this.ws(j + 1)) {
            if (this.isEof(j + 2)) return partial;
            const v = this.valueEnd(j + 2);
            if (this.ws(j + 2) && (v >= 0 || (v === -2 && partial))) return true;
          }
        } else if (t.tokenType === T.Is && this.ws(j + 1)) {
          const u = this.LA(j + 1);
          if (u.tokenType === EOF) return partial;
          if (u.tokenType === T.Empty || u.tokenType === T.Nil) return true;
          if (u.tokenType === T.Not && this.ws(j + 2)) {
            const w = this.LA(j + 2);
            if (w.tokenType === EOF) return partial;
            if (w.tokenType === T.Empty || w.tokenType === T.Nil) return true;
          }
        }
      }
    }
    const v = this.valueEnd(k);
    if (v === -2) return partial;
    if (v < 0) return false;
    if (this.isEof(v)) return partial;
    if (!this.gap(v)) return false;
    let i = v;
    if (this.LA(i).tokenType === T.Not) {
      if (this.isEof(i + 1)) return partial;
      if (!this.gap(i + 1)) return false;
      i++;
    }
    if (this.LA(i).tokenType !== T.In) return false;
    if (this.isEof(i + 1)) return partial;
    if (!this.gap(i + 1)) return false;
    const s = this.selectorEnd(i + 1);
    return s >= 0 || (s === -2 && partial);
  }

  /** `not` at LA(1) is the operator (the PEG's first alternative of NotExpression succeeds). */
  protected notIsOperator(): boolean {
    if (this.LA(1).tokenType !== T.Not) return false;
    if (this.isEof(2)) return this.partial;
    if (!this.gap(2)) return false;
    const t = this.LA(2).tokenType;
    // `not any L as x {..}` is an error either way; taking "not" as the operator gives the clearer message.
    return t === T.Not || t === T.LParen || this.matchAt(2) || t === T.Any || t === T.All;
  }

  protected collectionAhead(): boolean {
    const t = this.LA(1).tokenType;
    return (t === T.Any || t === T.All) && !this.matchAt(1);
  }

  protected requireWs(token: IToken, before: boolean, after: boolean, nextIndex = 1): void {
    const next = this.LA(nextIndex);
    const missingBefore = before && !(token.startOffset > 0 && this.precededByWs(token));
    const missingAfter =
      after && next.tokenType !== EOF && !(next.startOffset > token.startOffset + token.image.length);
    if (missingBefore || missingAfter) {
      throw new ParseFailure(
        FilterSyntaxErrorCode.MissingWhitespace,
        `The operator "${token.image}" needs whitespace ${missingBefore && missingAfter ? 'on both sides' : missingBefore ? 'before it' : 'after it'}.`,
        token.startOffset,
        token.image.length,
        ['whitespace'],
      );
    }
  }

  protected source = '';
  /** Sets the source text (used to check whitespace before a token). */
  setSource(text: string): void {
    this.source = text;
  }
  protected precededByWs(token: IToken): boolean {
    const c = this.source.charCodeAt(token.startOffset - 1);
    return c === 32 || c === 9 || c === 10 || c === 13;
  }

  protected countClause(span: Span): void {
    this.clauses++;
    if (this.clauses > this.maxClauses) {
      throw new ParseFailure(
        FilterSyntaxErrorCode.TooManyClauses,
        `The filter has more than ${this.maxClauses} clauses, the limit.`,
        span.start,
        span.end - span.start,
      );
    }
  }
}
