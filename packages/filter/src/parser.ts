import {
  EmbeddedActionsParser,
  EOF,
  tokenMatcher,
  type IParserErrorMessageProvider,
  type IToken,
  type TokenType,
} from 'chevrotain';
import type {
  Binding,
  CollectionNode,
  Expression,
  MatchNode,
  MatchOperator,
  SelectorNode,
  Span,
  ValueNode,
} from './ast.js';
import { FilterSyntaxErrorCode } from './errors.js';
import { goUnquote } from './internal/go-strconv.js';
import {
  All,
  allTokens,
  And,
  Any,
  As,
  Comma,
  Contains,
  DotSegment,
  DoubleQuoted,
  Empty,
  Equal,
  In,
  Is,
  LBrace,
  LBracket,
  LParen,
  Matches,
  Name,
  Nil,
  Not,
  NotEqual,
  NumberLiteral,
  Or,
  RawString,
  RBrace,
  RBracket,
  RParen,
  Underscore,
} from './tokens.js';

/**
 * The chevrotain parser. Rules mirror go-bexpr's PEG grammar; where the PEG's ordered choice
 * depends on arbitrary lookahead (`not` as an operator or as a field name, `any` as a field name or
 * a collection), gates call a small non-recursive recogniser of match expressions, so parsing
 * stays linear. `and`/`or` chains and `not` runs are loops, so only `(` and `{` recurse.
 *
 * @internal
 * @packageDocumentation
 */

/** A parse failure raised by our own checks (chevrotain's own errors land in `parser.errors`). @internal */
export class ParseFailure extends Error {
  constructor(
    readonly code: FilterSyntaxErrorCode,
    readonly reason: string,
    readonly offset: number,
    readonly length: number,
    readonly expected: readonly string[] = [],
  ) {
    super(reason);
  }
}

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

/** go-bexpr's `Selector.String()`: how a selector used as a value becomes a raw string. */
function selectorRaw(path: readonly string[], pointer: boolean): string {
  return path.join(pointer ? '/' : '.');
}

/** Describes a token for messages. @internal */
export function describeToken(token: IToken): string {
  if (token.tokenType === EOF) return 'the end of the filter';
  const oneLine = token.image.replaceAll('\r', '\\r').replaceAll('\n', '\\n');
  const image = oneLine.length > 40 ? `${oneLine.slice(0, 37)}...` : oneLine;
  return `"${image}"`;
}

function label(t: TokenType): string {
  return t.LABEL ?? t.name;
}

/** Expected labels recorded by the error message provider for the last chevrotain error. */
let lastExpected: string[] = [];

const messages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual }) {
    lastExpected = [label(expected)];
    return `Expected ${label(expected)} but found ${describeToken(actual)}.`;
  },
  buildNotAllInputParsedMessage({ firstRedundant }) {
    lastExpected = ['"and"', '"or"', 'the end of the filter'];
    return `Unexpected ${describeToken(firstRedundant)} after a complete expression; expected "and", "or" or the end of the filter.`;
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, actual }) {
    const labels = new Set<string>();
    for (const alt of expectedPathsPerAlt) for (const path of alt) if (path[0]) labels.add(label(path[0]));
    lastExpected = [...labels];
    const first = actual[0];
    return `Expected ${joinOr(lastExpected)} but found ${first ? describeToken(first) : 'the end of the filter'}.`;
  },
  buildEarlyExitMessage({ expectedIterationPaths, actual }) {
    const labels = new Set<string>();
    for (const path of expectedIterationPaths) if (path[0]) labels.add(label(path[0]));
    lastExpected = [...labels];
    const first = actual[0];
    return `Expected ${joinOr(lastExpected)} but found ${first ? describeToken(first) : 'the end of the filter'}.`;
  },
};

function joinOr(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? 'something else';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1] as string}`;
}

/** Takes the expected labels of the last chevrotain error. @internal */
export function takeExpected(): string[] {
  const e = lastExpected;
  lastExpected = [];
  return e;
}

const isToken = (t: IToken, type: TokenType): boolean => tokenMatcher(t, type);

function spanOf(first: IToken, last: IToken): Span {
  return { start: first.startOffset, end: last.startOffset + last.image.length };
}

function fold(kind: 'and' | 'or', operands: readonly Expression[]): Expression {
  let result = operands[operands.length - 1] as Expression;
  for (let i = operands.length - 2; i >= 0; i--) {
    const left = operands[i] as Expression;
    result = { kind, left, right: result, span: { start: left.span.start, end: result.span.end } };
  }
  return result;
}

interface OrOperand {
  readonly expr: Expression;
  readonly bare: boolean;
}

/** The filter parser (one module-level instance, reset per call). @internal */
export class FilterParser extends EmbeddedActionsParser {
  /** Most clauses accepted by the current parse. */
  maxClauses = Number.POSITIVE_INFINITY;
  /** Lookahead treats the end of input as "could still match" (completion). */
  partial = false;
  private clauses = 0;

  constructor() {
    super(allTokens, { maxLookahead: 1, recoveryEnabled: false, errorMessageProvider: messages });
    this.performSelfAnalysis();
  }

  /** Resets per-parse state and sets the tokens. */
  prepare(tokens: IToken[], maxClauses: number, partial: boolean): void {
    this.input = tokens;
    this.clauses = 0;
    this.maxClauses = maxClauses;
    this.partial = partial;
    lastExpected = [];
  }

  // ---- lookahead helpers (pure, non-recursive) ----

  private isEof(k: number): boolean {
    return this.LA(k).tokenType === EOF;
  }

  /** Whether whitespace separates LA(k-1) and LA(k) (true at both ends of the input). */
  private gap(k: number): boolean {
    const tok = this.LA(k);
    const prev = this.LA(k - 1);
    if (tok.tokenType === EOF || prev.tokenType === EOF) return true;
    return tok.startOffset > prev.startOffset + prev.image.length;
  }

  /** Strict whitespace before LA(k): end of input does not count (except in completion mode). */
  private ws(k: number): boolean {
    if (this.isEof(k)) return this.partial;
    return this.gap(k);
  }

  private selectorStartsAt(k: number): boolean {
    const t = this.LA(k);
    return isToken(t, Name) || (t.tokenType === DoubleQuoted && isPointerImage(t.image));
  }

  /** Index after a selector starting at k, -1 if none, -2 if the input ended inside it. */
  private selectorEnd(k: number): number {
    const t = this.LA(k);
    if (t.tokenType === EOF) return -2;
    if (t.tokenType === DoubleQuoted) return isPointerImage(t.image) ? k + 1 : -1;
    if (!isToken(t, Name)) return -1;
    let j = k + 1;
    for (;;) {
      const n = this.LA(j);
      if (n.tokenType === EOF || this.gap(j)) return j;
      if (n.tokenType === DotSegment) {
        j++;
        continue;
      }
      if (n.tokenType !== LBracket) return j;
      const s = this.LA(j + 1);
      if (s.tokenType === EOF) return -2;
      if (s.tokenType !== DoubleQuoted && s.tokenType !== RawString) return -1;
      const r = this.LA(j + 2);
      if (r.tokenType === EOF) return -2;
      if (r.tokenType !== RBracket) return -1;
      j += 3;
    }
  }

  private valueEnd(k: number): number {
    const s = this.selectorEnd(k);
    if (s !== -1) return s;
    const t = this.LA(k);
    if (t.tokenType === NumberLiteral || t.tokenType === DoubleQuoted || t.tokenType === RawString)
      return k + 1;
    return -1;
  }

  /** Whether a match expression parses at LA(k) (the PEG's `MatchExpression`, without recursion). */
  private matchAt(k: number): boolean {
    const partial = this.partial;
    const j = this.selectorEnd(k);
    if (j === -2) return partial;
    if (j >= 0) {
      const t = this.LA(j);
      if (t.tokenType === EOF) return partial;
      if (t.tokenType === Equal || t.tokenType === NotEqual) {
        const v = this.valueEnd(j + 1);
        if (v >= 0 || (v === -2 && partial)) return true;
      } else if (this.gap(j)) {
        if (t.tokenType === Contains || t.tokenType === Matches) {
          if (this.isEof(j + 1)) return partial;
          const v = this.valueEnd(j + 1);
          if (this.ws(j + 1) && (v >= 0 || (v === -2 && partial))) return true;
        } else if (t.tokenType === Not) {
          const u = this.LA(j + 1);
          if (u.tokenType === EOF) return partial;
          if ((u.tokenType === Contains || u.tokenType === Matches) && this.ws(j + 1)) {
            if (this.isEof(j + 2)) return partial;
            const v = this.valueEnd(j + 2);
            if (this.ws(j + 2) && (v >= 0 || (v === -2 && partial))) return true;
          }
        } else if (t.tokenType === Is && this.ws(j + 1)) {
          const u = this.LA(j + 1);
          if (u.tokenType === EOF) return partial;
          if (u.tokenType === Empty || u.tokenType === Nil) return true;
          if (u.tokenType === Not && this.ws(j + 2)) {
            const w = this.LA(j + 2);
            if (w.tokenType === EOF) return partial;
            if (w.tokenType === Empty || w.tokenType === Nil) return true;
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
    if (this.LA(i).tokenType === Not) {
      if (this.isEof(i + 1)) return partial;
      if (!this.gap(i + 1)) return false;
      i++;
    }
    if (this.LA(i).tokenType !== In) return false;
    if (this.isEof(i + 1)) return partial;
    if (!this.gap(i + 1)) return false;
    const s = this.selectorEnd(i + 1);
    return s >= 0 || (s === -2 && partial);
  }

  /** `not` at LA(1) is the operator (the PEG's first alternative of NotExpression succeeds). */
  private notIsOperator(): boolean {
    if (this.LA(1).tokenType !== Not) return false;
    if (this.isEof(2)) return this.partial;
    if (!this.gap(2)) return false;
    const t = this.LA(2).tokenType;
    // `not any L as x {..}` is an error either way; taking "not" as the operator gives the clearer message.
    return t === Not || t === LParen || this.matchAt(2) || t === Any || t === All;
  }

  private collectionAhead(): boolean {
    const t = this.LA(1).tokenType;
    return (t === Any || t === All) && !this.matchAt(1);
  }

  private requireWs(token: IToken, before: boolean, after: boolean, nextIndex = 1): void {
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

  private source = '';
  /** Sets the source text (used to check whitespace before a token). */
  setSource(text: string): void {
    this.source = text;
  }
  private precededByWs(token: IToken): boolean {
    const c = this.source.charCodeAt(token.startOffset - 1);
    return c === 32 || c === 9 || c === 10 || c === 13;
  }

  private countClause(span: Span): void {
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

  // ---- grammar ----

  filter = this.RULE('filter', (): Expression => this.SUBRULE(this.orExpression));

  private orExpression = this.RULE('orExpression', (): Expression => {
    const operands: Expression[] = [];
    let bare = false;
    const first = this.SUBRULE(this.orOperand);
    this.ACTION(() => {
      operands.push(first.expr);
      bare = first.bare;
    });
    this.MANY(() => {
      const op = this.CONSUME(Or);
      this.ACTION(() => {
        if (bare) throw unparenthesized(operands[operands.length - 1] as Expression, 'or');
        this.requireWs(op, true, true);
      });
      const next = this.SUBRULE2(this.orOperand);
      this.ACTION(() => {
        operands.push(next.expr);
        bare = next.bare;
      });
    });
    return this.ACTION(() => {
      if (bare && this.LA(1).tokenType === And) {
        throw unparenthesized(operands[operands.length - 1] as Expression, 'and');
      }
      return fold('or', operands);
    });
  });

  private orOperand = this.RULE('orOperand', (): OrOperand =>
    this.OR([
      {
        GATE: () => this.collectionAhead(),
        ALT: () => ({ expr: this.SUBRULE(this.collection), bare: true }),
      },
      { ALT: () => ({ expr: this.SUBRULE(this.andExpression), bare: false }) },
    ]),
  );

  private andExpression = this.RULE('andExpression', (): Expression => {
    const operands: Expression[] = [];
    const first = this.SUBRULE(this.notExpression);
    this.ACTION(() => operands.push(first));
    this.MANY(() => {
      const op = this.CONSUME(And);
      this.ACTION(() => this.requireWs(op, true, true));
      const next = this.SUBRULE2(this.notExpression);
      this.ACTION(() => operands.push(next));
    });
    return this.ACTION(() => fold('and', operands));
  });

  private notExpression = this.RULE('notExpression', (): Expression => {
    const nots: IToken[] = [];
    this.MANY({
      GATE: () => this.notIsOperator(),
      DEF: () => {
        const t = this.CONSUME(Not);
        this.ACTION(() => nots.push(t));
      },
    });
    const operand = this.SUBRULE(this.group);
    return this.ACTION(() => {
      let result = operand;
      for (let i = nots.length - 1; i >= 0; i--) {
        if (result.kind === 'not') result = result.operand;
        else {
          const t = nots[i] as IToken;
          result = { kind: 'not', operand: result, span: { start: t.startOffset, end: result.span.end } };
        }
      }
      return result;
    });
  });

  private group = this.RULE('group', (): Expression =>
    this.OR([
      {
        ALT: () => {
          const open = this.CONSUME(LParen);
          const inner = this.SUBRULE(this.orExpression);
          this.ACTION(() => {
            if (this.LA(1).tokenType !== RParen) {
              throw new ParseFailure(
                FilterSyntaxErrorCode.UnmatchedParenthesis,
                `Expected ")" to close the "(" at offset ${open.startOffset} but found ${describeToken(this.LA(1))}.`,
                this.LA(1).tokenType === EOF ? this.source.length : this.LA(1).startOffset,
                this.LA(1).tokenType === EOF ? 0 : this.LA(1).image.length,
                ['")"', '"and"', '"or"'],
              );
            }
          });
          this.CONSUME(RParen);
          return inner;
        },
      },
      {
        GATE: () => this.collectionAhead(),
        ALT: () => {
          this.ACTION(() => {
            const t = this.LA(1);
            throw new ParseFailure(
              FilterSyntaxErrorCode.UnparenthesizedCollection,
              `A collection expression ("${t.image} ...") must be wrapped in parentheses after "not" or as the right operand of "and".`,
              t.startOffset,
              t.image.length,
              ['"("'],
            );
          });
          return this.SUBRULE(this.collection);
        },
      },
      { ALT: () => this.SUBRULE(this.match) },
    ]),
  );

  private match = this.RULE('match', (): MatchNode =>
    this.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        {
          GATE: () => this.selectorStartsAt(1),
          ALT: () => {
            const sel = this.SUBRULE(this.selector);
            return this.SUBRULE(this.afterSelector, { ARGS: [sel] });
          },
        },
        {
          ALT: () => {
            const value = this.SUBRULE(this.literal);
            return this.SUBRULE(this.inTail, { ARGS: [value] });
          },
        },
      ],
    }),
  );

  private afterSelector = this.RULE('afterSelector', (sel?: Parsed<SelectorNode>): MatchNode => {
    const make = (
      operator: MatchOperator,
      getSelector: () => SelectorNode,
      getValue: () => ValueNode | null,
    ): MatchNode =>
      this.ACTION(() => {
        const selector = getSelector();
        const value = getValue();
        const end = this.LA(0).startOffset + this.LA(0).image.length;
        const start = Math.min(selector.span.start, value?.span.start ?? selector.span.start);
        const node: MatchNode = { kind: 'match', operator, selector, value, span: { start, end } };
        this.countClause(node.span);
        return node;
      });
    const own = (): SelectorNode => (sel as Parsed<SelectorNode>).node;
    const asValue = (): ValueNode => selectorAsValue(sel as Parsed<SelectorNode>);
    return this.OR([
      {
        ALT: () => {
          this.CONSUME(Equal);
          const v = this.SUBRULE(this.value);
          return make('equal', own, () => v);
        },
      },
      {
        ALT: () => {
          this.CONSUME(NotEqual);
          const v = this.SUBRULE2(this.value);
          return make('not-equal', own, () => v);
        },
      },
      {
        ALT: () => {
          const op = this.CONSUME(Contains);
          this.ACTION(() => this.requireWs(op, true, true));
          const v = this.SUBRULE3(this.value);
          return make('in', own, () => v);
        },
      },
      {
        ALT: () => {
          const op = this.CONSUME(Matches);
          this.ACTION(() => this.requireWs(op, true, true));
          const v = this.SUBRULE4(this.value);
          return make('matches', own, () => v);
        },
      },
      {
        ALT: () => {
          const not = this.CONSUME(Not);
          this.ACTION(() => this.requireWs(not, true, true));
          return this.OR2([
            {
              ALT: () => {
                const op = this.CONSUME2(Contains);
                this.ACTION(() => this.requireWs(op, false, true));
                const v = this.SUBRULE5(this.value);
                return make('not-in', own, () => v);
              },
            },
            {
              ALT: () => {
                const op = this.CONSUME2(Matches);
                this.ACTION(() => this.requireWs(op, false, true));
                const v = this.SUBRULE6(this.value);
                return make('not-matches', own, () => v);
              },
            },
            {
              ALT: () => {
                const op = this.CONSUME(In);
                this.ACTION(() => this.requireWs(op, false, true));
                const target = this.SUBRULE(this.inTarget);
                return make('not-in', () => target, asValue);
              },
            },
          ]);
        },
      },
      {
        ALT: () => {
          const is = this.CONSUME(Is);
          this.ACTION(() => this.requireWs(is, true, true));
          let negated = false;
          this.OPTION(() => {
            const n = this.CONSUME2(Not);
            this.ACTION(() => this.requireWs(n, false, true));
            negated = true;
          });
          return this.OR3([
            {
              ALT: () => {
                this.CONSUME(Empty);
                return make(negated ? 'is-not-empty' : 'is-empty', own, () => null);
              },
            },
            {
              ALT: () => {
                this.CONSUME(Nil);
                return make(negated ? 'is-not-nil' : 'is-nil', own, () => null);
              },
            },
          ]);
        },
      },
      {
        ALT: () => {
          const op = this.CONSUME2(In);
          this.ACTION(() => this.requireWs(op, true, true));
          const target = this.SUBRULE2(this.inTarget);
          return make('in', () => target, asValue);
        },
      },
    ]);
  });

  private inTail = this.RULE('inTail', (value?: ValueNode): MatchNode => {
    let negated = false;
    this.OPTION(() => {
      const n = this.CONSUME(Not);
      this.ACTION(() => this.requireWs(n, true, true));
      negated = true;
    });
    const op = this.CONSUME(In);
    this.ACTION(() => this.requireWs(op, !negated, true));
    const target = this.SUBRULE(this.inTarget);
    return this.ACTION(() => {
      const v = value as ValueNode;
      const node: MatchNode = {
        kind: 'match',
        operator: negated ? 'not-in' : 'in',
        selector: target,
        value: v,
        span: { start: v.span.start, end: target.span.end },
      };
      this.countClause(node.span);
      return node;
    });
  });

  /** The selector after `in`: anything else is go-bexpr's "Invalid selector". */
  private inTarget = this.RULE('inTarget', (): SelectorNode => {
    this.ACTION(() => {
      if (!this.selectorStartsAt(1)) {
        const t = this.LA(1);
        throw new ParseFailure(
          FilterSyntaxErrorCode.InvalidSelector,
          `Expected a selector after "in" but found ${describeToken(t)}; the right side of "in" must be a field.`,
          t.tokenType === EOF ? this.source.length : t.startOffset,
          t.tokenType === EOF ? 0 : t.image.length,
          ['a selector'],
        );
      }
    });
    const s = this.SUBRULE(this.selector);
    return this.ACTION(() => s.node);
  });

  private value = this.RULE('value', (): ValueNode =>
    this.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        {
          GATE: () => this.selectorStartsAt(1),
          ALT: () => {
            const s = this.SUBRULE(this.selector);
            return this.ACTION(() => selectorAsValue(s));
          },
        },
        { ALT: () => this.SUBRULE(this.literal) },
      ],
    }),
  );

  private literal = this.RULE('literal', (): ValueNode => {
    const t = this.OR([
      { ALT: () => this.CONSUME(NumberLiteral) },
      { ALT: () => this.CONSUME(DoubleQuoted) },
      { ALT: () => this.CONSUME(RawString) },
    ]);
    return this.ACTION(() => ({
      kind: 'value',
      raw: t.tokenType === NumberLiteral ? t.image : unquoted(t.image),
      span: spanOf(t, t),
    }));
  });

  private selector = this.RULE('selector', (): Parsed<SelectorNode> =>
    this.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        {
          ALT: () => {
            const first = this.CONSUME(Name);
            const path: string[] = [];
            this.ACTION(() => path.push(first.image));
            this.MANY({
              GATE: () => !this.gap(1),
              DEF: () => {
                this.OR2([
                  {
                    ALT: () => {
                      const d = this.CONSUME(DotSegment);
                      this.ACTION(() => path.push(d.image.slice(1)));
                    },
                  },
                  {
                    ALT: () => {
                      const open = this.CONSUME(LBracket);
                      this.ACTION(() => {
                        const s = this.LA(1).tokenType;
                        if (s !== DoubleQuoted && s !== RawString) {
                          const t = this.LA(1);
                          throw new ParseFailure(
                            FilterSyntaxErrorCode.InvalidIndex,
                            `Expected a quoted key after "[" but found ${describeToken(t)}; write Meta["key"] or use ".0" for an index.`,
                            t.tokenType === EOF ? this.source.length : t.startOffset,
                            t.tokenType === EOF ? 0 : t.image.length,
                            ['a string'],
                          );
                        }
                      });
                      const key = this.OR3([
                        { ALT: () => this.CONSUME2(DoubleQuoted) },
                        { ALT: () => this.CONSUME2(RawString) },
                      ]);
                      this.ACTION(() => {
                        path.push(unquoted(key.image));
                        if (this.LA(1).tokenType !== RBracket) {
                          const t = this.LA(1);
                          throw new ParseFailure(
                            FilterSyntaxErrorCode.UnclosedIndex,
                            `Expected "]" to close the "[" at offset ${open.startOffset} but found ${describeToken(t)}.`,
                            t.tokenType === EOF ? this.source.length : t.startOffset,
                            t.tokenType === EOF ? 0 : t.image.length,
                            ['"]"'],
                          );
                        }
                      });
                      this.CONSUME(RBracket);
                    },
                  },
                ]);
              },
            });
            return this.ACTION(() => ({
              node: { kind: 'selector' as const, path, span: spanOf(first, this.LA(0)) },
              pointer: false,
            }));
          },
        },
        {
          GATE: () => this.LA(1).tokenType === DoubleQuoted && isPointerImage(this.LA(1).image),
          ALT: () => {
            const t = this.CONSUME3(DoubleQuoted);
            return this.ACTION(() => ({
              node: { kind: 'selector' as const, path: pointerPath(t.image), span: spanOf(t, t) },
              pointer: true,
            }));
          },
        },
      ],
    }),
  );

  private collection = this.RULE('collection', (): CollectionNode => {
    const q = this.OR([{ ALT: () => this.CONSUME(Any) }, { ALT: () => this.CONSUME(All) }]);
    this.ACTION(() => this.requireWs(q, false, true));
    const sel = this.SUBRULE(this.selector);
    const as = this.CONSUME(As);
    this.ACTION(() => this.requireWs(as, true, true));
    const binding = this.SUBRULE(this.binding);
    this.CONSUME(LBrace);
    const body = this.SUBRULE(this.orExpression);
    const close = this.CONSUME(RBrace);
    return this.ACTION(() => {
      const node: CollectionNode = {
        kind: 'collection',
        quantifier: q.image === 'any' ? 'any' : 'all',
        selector: sel.node,
        binding,
        body,
        span: spanOf(q, close),
      };
      this.countClause(node.span);
      return node;
    });
  });

  private binding = this.RULE('binding', (): Binding =>
    this.OR([
      {
        ALT: () => {
          const a = this.CONSUME(Name);
          let second: IToken | undefined;
          this.OPTION(() => {
            this.CONSUME(Comma);
            second = this.OR2([{ ALT: () => this.CONSUME2(Name) }, { ALT: () => this.CONSUME(Underscore) }]);
          });
          return this.ACTION((): Binding => {
            if (second === undefined) return { form: 'single', name: a.image };
            return {
              form: 'pair',
              index: a.image,
              value: second.tokenType === Underscore ? null : second.image,
            };
          });
        },
      },
      {
        ALT: () => {
          this.CONSUME2(Underscore);
          this.CONSUME2(Comma);
          const v = this.CONSUME3(Name);
          return this.ACTION((): Binding => ({ form: 'pair', index: null, value: v.image }));
        },
      },
    ]),
  );
}

/** A selector with how it was written (pointer form changes how it reads as a value). @internal */
export interface Parsed<T> {
  readonly node: T;
  readonly pointer: boolean;
}

function selectorAsValue(sel: Parsed<SelectorNode>): ValueNode {
  const path = sel.node.path;
  const raw = sel.pointer && path.length === 1 && path[0] === '' ? '' : selectorRaw(path, sel.pointer);
  return { kind: 'value', raw, span: sel.node.span };
}

function unquoted(image: string): string {
  const r = goUnquote(image);
  return r.ok ? r.value : '';
}

function unparenthesized(expr: Expression, op: 'and' | 'or'): ParseFailure {
  return new ParseFailure(
    FilterSyntaxErrorCode.UnparenthesizedCollection,
    `A collection expression cannot be the left operand of "${op}"; wrap it in parentheses.`,
    expr.span.start,
    expr.span.end - expr.span.start,
    ['the end of the filter', '")"', '"}"'],
  );
}

// Re-exported so parse.ts can check token kinds without importing chevrotain helpers itself.
export { Comma, LBrace, LParen, RBrace, RParen, As };
