/**
 * The grammar of the filter language: one chevrotain parser, rules as fields, building AST nodes
 * with embedded actions. It mirrors go-bexpr's PEG (`FILTER.md` section 2):
 *
 * ```
 * filter      := or
 * or          := orOperand ("or" orOperand)*         // a bare collection only as the last operand
 * orOperand   := collection | and
 * and         := not ("and" not)*
 * not         := "not"* ("(" or ")" | match)         // "not" only where it is the operator
 * collection  := ("any" | "all") selector "as" binding "{" or "}"
 * binding     := Name ["," (Name | "_")] | "_" "," Name
 * match       := selector ("==" | "!=" | "contains" | "matches") value
 *              | selector "not" ("contains" | "matches") value
 *              | selector "is" ["not"] ("empty" | "nil")
 *              | selector ["not"] "in" selector | literal ["not"] "in" selector
 * value       := selector | literal
 * selector    := Name (".seg" | "[" string "]")* | PointerString
 * ```
 *
 * Two of the PEG's ordered choices need more than one token of lookahead, because keywords are not
 * reserved: `not` is the operator or a field name (`not == 1`), and `any`/`all` start a collection
 * or a clause on a field of that name (`any == 1`). Both are decided by chevrotain's backtracking
 * over the same grammar: a gate tries `match` (or `"not"` and the first token of its operand) and
 * rewinds. The attempt never enters a parenthesis, so parsing stays linear. Whitespace is not a
 * token; where the language requires or forbids it, the rules compare the offsets of adjacent
 * tokens. `and`/`or` chains and `not` runs are loops, so only `(` and `{` recurse (their depth is
 * bounded before parsing).
 *
 * @internal
 * @packageDocumentation
 */
import {
  EmbeddedActionsParser,
  EOF,
  type IOrAlt,
  type IRecognitionException,
  isRecognitionException,
  type IToken,
  tokenMatcher,
} from 'chevrotain';
import type { Binding, CollectionNode, Expression, MatchNode, SelectorNode, Span, ValueNode } from './ast.js';
import { FilterSyntaxErrorCode } from './errors.js';
import { describeToken, errorMessages, FilterRecognitionError } from './parser-errors.js';
import {
  clause,
  fold,
  literalNode,
  type ParsedSelector,
  pointerPath,
  selectorAsValue,
  spanOf,
  unquoted,
} from './parser-nodes.js';
import * as T from './tokens.js';

interface OrOperand {
  readonly expr: Expression;
  /** A collection not wrapped in parentheses: it may only be the last operand of `or`. */
  readonly bare: boolean;
}

/** The filter parser. One instance parses many texts (`parse` resets it). @internal */
export class FilterParser extends EmbeddedActionsParser {
  /** Expected-token labels of chevrotain's errors in the current parse, by message. */
  private readonly expectedByMessage: Map<string, readonly string[]>;
  private maxClauses = Number.POSITIVE_INFINITY;
  private clauses = 0;
  /** Completion: an attempt that fails only at the end of the input counts as a success. */
  private partial = false;
  /** Depth of backtracking attempts (clauses are counted only outside them). */
  private attempts = 0;
  /** Length of the text being parsed (errors at the end of input point there). */
  private textLength = 0;
  /**
   * The selector of the clause being parsed, read by the operators after it (a field, not a
   * variable the alternatives close over: the alternatives are built once, not on every clause).
   * Nothing between a clause's selector and its operator parses another clause.
   */
  private lhs: ParsedSelector | undefined;
  /** The path of the selector being parsed (selectors do not nest). */
  private path: string[] = [];
  /**
   * The alternatives of each choice, built on first use and reused by every parse: a choice given
   * a new array of alternatives each time cost an array, its objects and their closures per clause.
   */
  private readonly alts = {} as {
    orOperand?: IOrAlt<OrOperand>[];
    operand?: IOrAlt<Expression>[];
    notOperator?: IOrAlt<unknown>[];
    quantifier?: IOrAlt<IToken>[];
    match?: IOrAlt<MatchNode>[];
    operator?: IOrAlt<MatchNode>[];
    literal?: IOrAlt<IToken>[];
    emptyOrNil?: IOrAlt<IToken>[];
    afterNot?: IOrAlt<MatchNode>[];
    value?: IOrAlt<ValueNode>[];
    selector?: IOrAlt<ParsedSelector>[];
    segment?: IOrAlt<void>[];
    key?: IOrAlt<IToken>[];
  };

  constructor() {
    const expected = new Map<string, readonly string[]>();
    super(T.allTokens, {
      maxLookahead: 1,
      recoveryEnabled: false,
      errorMessageProvider: errorMessages(expected),
    });
    this.expectedByMessage = expected;
    this.performSelfAnalysis();
  }

  /**
   * Parses the lexed tokens of a text of `textLength` characters: the AST, or the first
   * recognition exception (chevrotain's own, or a {@link FilterRecognitionError}).
   */
  parse(
    tokens: IToken[],
    textLength: number,
    maxClauses: number,
    partial: boolean,
  ): { ast: Expression } | { error: IRecognitionException } {
    this.input = tokens;
    this.expectedByMessage.clear();
    this.textLength = textLength;
    this.clauses = 0;
    this.attempts = 0;
    this.maxClauses = maxClauses;
    this.partial = partial;
    const result = this.filter();
    const error = this.errors[0] ?? ('kind' in result ? undefined : result);
    return error === undefined ? { ast: result as Expression } : { error };
  }

  /** The expected-token labels of one of chevrotain's own errors of the last parse. */
  expectedOf(message: string): readonly string[] {
    return this.expectedByMessage.get(message) ?? [];
  }

  /** The whole input. A recognition exception ends the parse and is this rule's value. */
  private filter = this.RULE(
    'filter',
    (): Expression | IRecognitionException => this.SUBRULE(this.orExpression),
    { recoveryValueFunc: (e) => e },
  );

  private orExpression = this.RULE('orExpression', (): Expression => {
    const operands: Expression[] = [];
    let last = this.SUBRULE(this.orOperand);
    this.ACTION(() => operands.push(last.expr));
    this.MANY(() => {
      const op = this.CONSUME(T.Or);
      this.ACTION(() => {
        if (last.bare) throw this.unparenthesized(last.expr, 'or');
        this.requireWs(op, true, true);
      });
      last = this.SUBRULE2(this.orOperand);
      this.ACTION(() => operands.push(last.expr));
    });
    return this.ACTION(() => {
      if (last.bare && this.LA(1).tokenType === T.And) throw this.unparenthesized(last.expr, 'and');
      return fold('or', operands);
    });
  });

  private orOperand = this.RULE('orOperand', (): OrOperand =>
    this.OR(
      (this.alts.orOperand ??= [
        {
          GATE: () => this.collectionAhead(),
          ALT: () => ({ expr: this.SUBRULE(this.collection), bare: true }),
        },
        { ALT: () => ({ expr: this.SUBRULE(this.andExpression), bare: false }) },
      ]),
    ),
  );

  private andExpression = this.RULE('andExpression', (): Expression => {
    const operands: Expression[] = [];
    const first = this.SUBRULE(this.notExpression);
    this.ACTION(() => operands.push(first));
    this.MANY(() => {
      const op = this.CONSUME(T.And);
      this.ACTION(() => this.requireWs(op, true, true));
      const next = this.SUBRULE2(this.notExpression);
      this.ACTION(() => operands.push(next));
    });
    return this.ACTION(() => fold('and', operands));
  });

  private notExpression = this.RULE('notExpression', (): Expression => {
    const nots: IToken[] = [];
    this.MANY({
      GATE: () => this.LA(1).tokenType === T.Not && this.attempt(this.notOperator),
      DEF: () => {
        const t = this.CONSUME(T.Not);
        this.ACTION(() => nots.push(t));
      },
    });
    // The operand: a parenthesized expression or a clause (a collection here is an error).
    const operand = this.OR(
      (this.alts.operand ??= [
        {
          ALT: () => {
            const open = this.CONSUME(T.LParen);
            const inner = this.SUBRULE(this.orExpression);
            this.ACTION(() => {
              if (this.LA(1).tokenType !== T.RParen) {
                throw this.failure(
                  FilterSyntaxErrorCode.UnmatchedParenthesis,
                  `Expected ")" to close the "(" at offset ${open.startOffset} but found ${describeToken(this.LA(1))}.`,
                  ['")"', '"and"', '"or"'],
                );
              }
            });
            this.CONSUME(T.RParen);
            return inner;
          },
        },
        {
          GATE: () => this.collectionAhead(),
          ALT: () => {
            this.ACTION(() => {
              const t = this.LA(1);
              throw this.failure(
                FilterSyntaxErrorCode.UnparenthesizedCollection,
                `A collection expression ("${t.image} ...") must be wrapped in parentheses after "not" or as the right operand of "and".`,
                ['"("'],
              );
            });
            return this.SUBRULE(this.collection);
          },
        },
        { ALT: () => this.SUBRULE(this.match) },
      ]),
    );
    return this.ACTION(() => {
      let result = operand;
      for (let i = nots.length - 1; i >= 0; i--) {
        const t = nots[i] as IToken;
        if (result.kind === 'not') result = result.operand;
        else result = { kind: 'not', operand: result, span: { start: t.startOffset, end: result.span.end } };
      }
      return result;
    });
  });

  /**
   * What decides that `not` is the operator (tried by backtracking, never for the AST): `not`,
   * whitespace, and the start of its operand. `not any ...` counts, so that the error names the
   * collection's position rather than a clause on a field named `not`.
   */
  private notOperator = this.RULE('notOperator', (): void =>
    this.tolerant(() => {
      const not = this.CONSUME(T.Not);
      this.ACTION(() => this.requireWs(not, false, true));
      this.OR({
        IGNORE_AMBIGUITIES: true,
        DEF: (this.alts.notOperator ??= [
          { ALT: () => this.CONSUME2(T.Not) },
          { ALT: () => this.CONSUME(T.LParen) },
          { ALT: () => this.CONSUME(T.Any) },
          { ALT: () => this.CONSUME(T.All) },
          { ALT: () => this.SUBRULE(this.match) },
        ]),
      });
    }),
  );

  /** Whether a clause starts at LA(1) (tried by backtracking, never for the AST). */
  private clauseAhead = this.RULE('clauseAhead', (): void => this.tolerant(() => this.SUBRULE(this.match)));

  private collection = this.RULE('collection', (): CollectionNode => {
    const q = this.OR(
      (this.alts.quantifier ??= [{ ALT: () => this.CONSUME(T.Any) }, { ALT: () => this.CONSUME(T.All) }]),
    );
    this.ACTION(() => this.requireWs(q, false, true));
    const sel = this.SUBRULE(this.selector);
    const as = this.CONSUME(T.As);
    this.ACTION(() => this.requireWs(as, true, true));
    const binding = this.SUBRULE(this.binding);
    this.CONSUME(T.LBrace);
    const body = this.SUBRULE(this.orExpression);
    const close = this.CONSUME(T.RBrace);
    return this.ACTION(() => {
      const node: CollectionNode = {
        kind: 'collection',
        quantifier: q.tokenType === T.Any ? 'any' : 'all',
        selector: sel.node,
        binding,
        body,
        span: spanOf(q, close),
      };
      return this.counted(node);
    });
  });

  private binding = this.RULE('binding', (): Binding =>
    this.OR([
      {
        ALT: () => {
          const a = this.CONSUME(T.Name);
          let second: IToken | undefined;
          this.OPTION(() => {
            this.CONSUME(T.Comma);
            second = this.OR2([
              { ALT: () => this.CONSUME2(T.Name) },
              { ALT: () => this.CONSUME(T.Underscore) },
            ]);
          });
          return this.ACTION((): Binding => {
            if (second === undefined) return { form: 'single', name: a.image };
            return {
              form: 'pair',
              index: a.image,
              value: second.tokenType === T.Underscore ? null : second.image,
            };
          });
        },
      },
      {
        ALT: () => {
          this.CONSUME2(T.Underscore);
          this.CONSUME2(T.Comma);
          const v = this.CONSUME3(T.Name);
          return this.ACTION((): Binding => ({ form: 'pair', index: null, value: v.image }));
        },
      },
    ]),
  );

  /**
   * One clause. A selector comes first unless the clause is `value [not] in selector` with a
   * literal value; a pointer-shaped string is a selector here (the lexer's `PointerString`, which
   * the first alternative claims before `literal` can). The operators after a selector are inline
   * (one rule call less per clause).
   */
  private match = this.RULE('match', (): MatchNode =>
    this.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: (this.alts.match ??= [
        {
          ALT: () => {
            const sel = this.SUBRULE(this.selector);
            this.ACTION(() => {
              this.lhs = sel;
            });
            return this.OR2((this.alts.operator ??= this.operatorAlternatives()));
          },
        },
        {
          ALT: () => {
            const t = this.OR3(
              (this.alts.literal ??= [
                { ALT: () => this.CONSUME(T.NumberLiteral) },
                { ALT: () => this.CONSUME(T.DoubleQuoted) },
                { ALT: () => this.CONSUME(T.RawString) },
              ]),
            );
            const value = this.ACTION(() => literalNode(t));
            return this.SUBRULE(this.inTail, { ARGS: [value] });
          },
        },
      ]),
    }),
  );

  /** The selector of the clause being parsed (set by `match` before its operator). */
  private own(): ParsedSelector {
    return this.lhs as ParsedSelector;
  }

  /** What may follow a clause's selector (`match`); each reads the selector from {@link lhs}. */
  private operatorAlternatives(): IOrAlt<MatchNode>[] {
    return [
      {
        ALT: () => {
          this.CONSUME(T.Equal);
          const v = this.SUBRULE(this.value);
          return this.ACTION(() => this.counted(clause('equal', this.own().node, v, this.LA(0))));
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.NotEqual);
          const v = this.SUBRULE2(this.value);
          return this.ACTION(() => this.counted(clause('not-equal', this.own().node, v, this.LA(0))));
        },
      },
      {
        ALT: () => {
          const op = this.CONSUME(T.Contains);
          this.ACTION(() => this.requireWs(op, true, true));
          const v = this.SUBRULE3(this.value);
          return this.ACTION(() => this.counted(clause('in', this.own().node, v, this.LA(0))));
        },
      },
      {
        ALT: () => {
          const op = this.CONSUME(T.Matches);
          this.ACTION(() => this.requireWs(op, true, true));
          const v = this.SUBRULE4(this.value);
          return this.ACTION(() => this.counted(clause('matches', this.own().node, v, this.LA(0))));
        },
      },
      {
        ALT: () => {
          const not = this.CONSUME(T.Not);
          this.ACTION(() => this.requireWs(not, true, true));
          return this.SUBRULE(this.afterSelectorNot);
        },
      },
      { ALT: () => this.SUBRULE(this.isTail) },
      {
        ALT: () => {
          const op = this.CONSUME(T.In);
          this.ACTION(() => this.requireWs(op, true, true));
          const target = this.SUBRULE(this.inTarget);
          return this.ACTION(() =>
            this.counted(clause('in', target, selectorAsValue(this.own()), this.LA(0))),
          );
        },
      },
    ];
  }

  /** `is [not] (empty | nil)` after a selector. */
  private isTail = this.RULE('isTail', (): MatchNode => {
    const is = this.CONSUME(T.Is);
    this.ACTION(() => this.requireWs(is, true, true));
    let negated = false;
    this.OPTION(() => {
      const n = this.CONSUME(T.Not);
      this.ACTION(() => this.requireWs(n, false, true));
      negated = true;
    });
    const t = this.OR(
      (this.alts.emptyOrNil ??= [{ ALT: () => this.CONSUME(T.Empty) }, { ALT: () => this.CONSUME(T.Nil) }]),
    );
    return this.ACTION(() => {
      const nil = t.tokenType === T.Nil;
      const operator = negated ? (nil ? 'is-not-nil' : 'is-not-empty') : nil ? 'is-nil' : 'is-empty';
      return this.counted(clause(operator, this.own().node, null, t));
    });
  });

  /** After `selector not`: `contains`, `matches` or `in`. */
  private afterSelectorNot = this.RULE('afterSelectorNot', (): MatchNode =>
    this.OR(
      (this.alts.afterNot ??= [
        {
          ALT: () => {
            const op = this.CONSUME(T.Contains);
            this.ACTION(() => this.requireWs(op, false, true));
            const v = this.SUBRULE(this.value);
            return this.ACTION(() => this.counted(clause('not-in', this.own().node, v, this.LA(0))));
          },
        },
        {
          ALT: () => {
            const op = this.CONSUME(T.Matches);
            this.ACTION(() => this.requireWs(op, false, true));
            const v = this.SUBRULE2(this.value);
            return this.ACTION(() => this.counted(clause('not-matches', this.own().node, v, this.LA(0))));
          },
        },
        {
          ALT: () => {
            const op = this.CONSUME(T.In);
            this.ACTION(() => this.requireWs(op, false, true));
            const target = this.SUBRULE(this.inTarget);
            return this.ACTION(() =>
              this.counted(clause('not-in', target, selectorAsValue(this.own()), this.LA(0))),
            );
          },
        },
      ]),
    ),
  );

  /** `[not] in selector` after a literal value. */
  private inTail = this.RULE('inTail', (value?: ValueNode): MatchNode => {
    let negated = false;
    this.OPTION(() => {
      const n = this.CONSUME(T.Not);
      this.ACTION(() => this.requireWs(n, true, true));
      negated = true;
    });
    const op = this.CONSUME(T.In);
    this.ACTION(() => this.requireWs(op, !negated, true));
    const target = this.SUBRULE(this.inTarget);
    return this.ACTION(() =>
      this.counted(clause(negated ? 'not-in' : 'in', target, value as ValueNode, this.LA(0))),
    );
  });

  /** The selector after `in`: anything else is go-bexpr's "Invalid selector". */
  private inTarget = this.RULE('inTarget', (): SelectorNode => {
    this.ACTION(() => {
      const t = this.LA(1).tokenType;
      if (!(tokenMatcher(this.LA(1), T.Name) || t === T.PointerString)) {
        throw this.failure(
          FilterSyntaxErrorCode.InvalidSelector,
          `Expected a selector after "in" but found ${describeToken(this.LA(1))}; the right side of "in" must be a field.`,
          ['a selector'],
        );
      }
    });
    return this.SUBRULE(this.selector).node;
  });

  /** The operand of `==`, `!=`, `contains`, `matches`: a selector read as text, or a literal. */
  private value = this.RULE('value', (): ValueNode =>
    this.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: (this.alts.value ??= [
        {
          ALT: () => {
            const s = this.SUBRULE(this.selector);
            return this.ACTION(() => selectorAsValue(s));
          },
        },
        {
          ALT: () => {
            const t = this.CONSUME(T.NumberLiteral);
            return this.ACTION(() => literalNode(t));
          },
        },
        {
          ALT: () => {
            const t = this.CONSUME(T.DoubleQuoted);
            return this.ACTION(() => literalNode(t));
          },
        },
        {
          ALT: () => {
            const t = this.CONSUME(T.RawString);
            return this.ACTION(() => literalNode(t));
          },
        },
      ]),
    }),
  );

  private selector = this.RULE('selector', (): ParsedSelector =>
    this.OR(
      (this.alts.selector ??= [
        {
          ALT: () => {
            const first = this.CONSUME(T.Name);
            this.ACTION(() => {
              this.path = [first.image];
            });
            this.MANY({ GATE: this.adjacent, DEF: this.segment });
            return this.ACTION(() => ({
              node: { kind: 'selector' as const, path: this.path, span: spanOf(first, this.LA(0)) },
              pointer: false,
            }));
          },
        },
        {
          ALT: () => {
            const t = this.CONSUME(T.PointerString);
            return this.ACTION(() => ({
              node: { kind: 'selector' as const, path: pointerPath(t.image), span: spanOf(t, t) },
              pointer: true,
            }));
          },
        },
      ]),
    ),
  );

  /** One `.seg` or `["key"]` of a selector, added to {@link path}. */
  private segment = (): void => {
    this.OR2(
      (this.alts.segment ??= [
        {
          ALT: () => {
            const d = this.CONSUME(T.DotSegment);
            this.ACTION(() => this.path.push(d.image.slice(1)));
          },
        },
        {
          ALT: () => {
            const key = this.SUBRULE(this.indexKey);
            this.ACTION(() => this.path.push(key));
          },
        },
      ]),
    );
  };

  /** `["key"]` or ``[`key`]`` in a selector. */
  private indexKey = this.RULE('indexKey', (): string => {
    const open = this.CONSUME(T.LBracket);
    this.ACTION(() => {
      if (!tokenMatcher(this.LA(1), T.DoubleQuoted) && this.LA(1).tokenType !== T.RawString) {
        throw this.failure(
          FilterSyntaxErrorCode.InvalidIndex,
          `Expected a quoted key after "[" but found ${describeToken(this.LA(1))}; write Meta["key"] or use ".0" for an index.`,
          ['a string'],
        );
      }
    });
    const key = this.OR(
      (this.alts.key ??= [
        { ALT: () => this.CONSUME(T.DoubleQuoted) },
        { ALT: () => this.CONSUME(T.RawString) },
      ]),
    );
    this.ACTION(() => {
      if (this.LA(1).tokenType !== T.RBracket) {
        throw this.failure(
          FilterSyntaxErrorCode.UnclosedIndex,
          `Expected "]" to close the "[" at offset ${open.startOffset} but found ${describeToken(this.LA(1))}.`,
          ['"]"'],
        );
      }
    });
    this.CONSUME(T.RBracket);
    return this.ACTION(() => unquoted(key.image));
  });

  /** Whether LA(1) touches LA(0) (no whitespace between them; the end of input never touches). */
  private adjacent = (): boolean => {
    const next = this.LA(1);
    const prev = this.LA(0);
    return next.tokenType !== EOF && next.startOffset === prev.startOffset + prev.image.length;
  };

  /** `any`/`all` at LA(1) starts a collection: it does not start a clause on a field of that name. */
  private collectionAhead(): boolean {
    const t = this.LA(1).tokenType;
    return (t === T.Any || t === T.All) && !this.attempt(this.clauseAhead);
  }

  /**
   * Tries a rule by backtracking (chevrotain's `BACKTRACK`) and rewinds. In completion mode an
   * attempt that only ran out of input also succeeds: the text may still be completed that way.
   */
  private attempt(rule: () => void): boolean {
    this.attempts++;
    try {
      return this.BACKTRACK(rule).call(this);
    } finally {
      this.attempts--;
    }
  }

  /** Runs an attempt's body; in completion mode, running out of input is not a failure. */
  private tolerant(body: () => unknown): void {
    try {
      body();
    } catch (e) {
      const endOfInput =
        isRecognitionException(e as Error) && (e as IRecognitionException).token.tokenType === EOF;
      if (!(this.partial && endOfInput)) throw e;
    }
  }

  /** Requires whitespace before (after) the token just consumed; the end of input counts as after. */
  private requireWs(token: IToken, before: boolean, after: boolean): void {
    const prev = this.LA(-1);
    const next = this.LA(1);
    const missingBefore =
      before &&
      !(prev.tokenType === EOF
        ? token.startOffset > 0
        : token.startOffset > prev.startOffset + prev.image.length);
    const missingAfter =
      after && next.tokenType !== EOF && !(next.startOffset > token.startOffset + token.image.length);
    if (missingBefore || missingAfter) {
      const where =
        missingBefore && missingAfter ? 'on both sides' : missingBefore ? 'before it' : 'after it';
      throw this.failure(
        FilterSyntaxErrorCode.MissingWhitespace,
        `The operator "${token.image}" needs whitespace ${where}.`,
        ['whitespace'],
        token,
      );
    }
  }

  /** A collection used as the left operand of `and`/`or`. */
  private unparenthesized(expr: Expression, op: 'and' | 'or'): FilterRecognitionError {
    return this.failure(
      FilterSyntaxErrorCode.UnparenthesizedCollection,
      `A collection expression cannot be the left operand of "${op}"; wrap it in parentheses.`,
      ['the end of the filter', '")"', '"}"'],
      this.LA(1),
      expr.span,
    );
  }

  /** Counts a finished clause against the limit (not while backtracking: the attempt rewinds). */
  private counted<N extends MatchNode | CollectionNode>(node: N): N {
    if (this.attempts === 0 && ++this.clauses > this.maxClauses) {
      throw this.failure(
        FilterSyntaxErrorCode.TooManyClauses,
        `The filter has more than ${this.maxClauses} clauses, the limit.`,
        [],
        this.LA(0),
        node.span,
      );
    }
    return node;
  }

  /**
   * Our own recognition error (thrown: an attempt takes it as a failure, a parse ends with it as
   * the `filter` rule's value). It points at `token` (LA(1) unless given), or at `span`; at the end
   * of input it is empty, at the text's end.
   */
  private failure(
    code: FilterSyntaxErrorCode,
    message: string,
    expected: readonly string[],
    token: IToken = this.LA(1),
    span?: Span,
  ): FilterRecognitionError {
    const atEnd = token.tokenType === EOF;
    const offset = span?.start ?? (atEnd ? this.textLength : token.startOffset);
    const length = span ? span.end - span.start : atEnd ? 0 : token.image.length;
    return new FilterRecognitionError(code, message, token, offset, length, expected);
  }
}
