/**
 * The grammar of one clause: `selector op value`, `value in selector`, selectors (dotted names,
 * `.N` indexes, bracketed keys, JSON Pointers) and literals, built directly into AST nodes.
 * @internal
 * @packageDocumentation
 */
import { EOF, type IToken, type TokenType } from 'chevrotain';
import type { MatchNode, MatchOperator, SelectorNode, Span, ValueNode } from './ast.js';
import { FilterSyntaxErrorCode } from './errors.js';
import { goUnquote } from './internal/go-strconv.js';
import { describeToken, ParseFailure } from './parser-errors.js';
import { isPointerImage, LookaheadParser, pointerPath } from './parser-lookahead.js';
import {
  Contains,
  DotSegment,
  DoubleQuoted,
  Empty,
  Equal,
  In,
  Is,
  LBracket,
  Matches,
  Name,
  Nil,
  Not,
  NotEqual,
  NumberLiteral,
  RawString,
  RBracket,
} from './tokens.js';

/** go-bexpr's `Selector.String()`: how a selector used as a value becomes a raw string. */
function selectorRaw(path: readonly string[], pointer: boolean): string {
  return path.join(pointer ? '/' : '.');
}

/** The span from the first token to the end of the last. @internal */
export function spanOf(first: IToken, last: IToken): Span {
  return { start: first.startOffset, end: last.startOffset + last.image.length };
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

/** The rules of one clause (match expressions and selectors). @internal */
export class MatchParser extends LookaheadParser {
  protected match = this.RULE('match', (): MatchNode =>
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
    /**
     * `operator value` after the selector. `consumeIdx`/`valueIdx` are chevrotain's occurrence
     * indexes (CONSUME2 is consume(2, ...)); `wsBefore` is undefined for `==`/`!=`, which need no
     * whitespace, else whether the operator needs it before as well as after.
     */
    const binary = (
      consumeIdx: number,
      token: TokenType,
      valueIdx: number,
      operator: MatchOperator,
      wsBefore: boolean | undefined,
    ) => ({
      ALT: (): MatchNode => {
        const op = this.consume(consumeIdx, token);
        if (wsBefore !== undefined) this.ACTION(() => this.requireWs(op, wsBefore, true));
        const v = this.subrule(valueIdx, this.value);
        return make(operator, own, () => v);
      },
    });
    return this.OR([
      binary(0, Equal, 0, 'equal', undefined),
      binary(0, NotEqual, 2, 'not-equal', undefined),
      binary(0, Contains, 3, 'in', true),
      binary(0, Matches, 4, 'matches', true),
      {
        ALT: () => {
          const not = this.CONSUME(Not);
          this.ACTION(() => this.requireWs(not, true, true));
          return this.OR2([
            binary(2, Contains, 5, 'not-in', false),
            binary(2, Matches, 6, 'not-matches', false),
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

  protected selector = this.RULE('selector', (): Parsed<SelectorNode> =>
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
}
