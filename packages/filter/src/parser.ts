/**
 * The chevrotain parser. Rules mirror go-bexpr's PEG grammar; this file holds the boolean
 * structure (`or`, `and`, `not`, groups, collections), `parser-match.ts` the clauses and
 * selectors, `parser-lookahead.ts` the gates. `and`/`or` chains and `not` runs are loops, so only
 * `(` and `{` recurse.
 *
 * @internal
 * @packageDocumentation
 */
import { EOF, type IToken } from 'chevrotain';
import type { Binding, CollectionNode, Expression } from './ast.js';
import { FilterSyntaxErrorCode } from './errors.js';
import { describeToken, ParseFailure, unparenthesized } from './parser-errors.js';
import { MatchParser, spanOf } from './parser-match.js';
import {
  All,
  And,
  Any,
  As,
  Comma,
  LBrace,
  LParen,
  Name,
  Not,
  Or,
  RBrace,
  RParen,
  Underscore,
} from './tokens.js';

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
export class FilterParser extends MatchParser {
  constructor() {
    super();
    this.performSelfAnalysis();
  }

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
