import type { Expression, Span } from './ast.js';
import { compileExpr } from './closures.js';
import { type FilterDiagnostic, FilterSyntaxError, FilterSyntaxErrorCode } from './errors.js';
import { compileRegex } from './internal/regex.js';
import { walk } from './internal/walk.js';
import { EMPTY_SCOPE, type Context } from './lookup.js';
import { type CompileOptions, resolveLimits } from './options.js';
import { lex, parseText, sourceOf } from './parse.js';
import { instantiate } from './runtime.js';
import { fromShape, rememberShape, type Shaped, shapeOfTokens } from './shapes.js';
import { shapeOf } from './schema.js';

import { canGenerate } from './codegen.js';
import { generateShaped } from './generate.js';

export { setCodegen } from './codegen.js';

/**
 * A compiled filter: `true` to keep the datum.
 * @since 0.1.0
 */
export type FilterPredicate = (datum: unknown) => boolean;

function limitError(
  source: string,
  code: FilterSyntaxErrorCode,
  message: string,
  span: Span,
): FilterSyntaxError {
  const diag: FilterDiagnostic = {
    kind: 'limit',
    code,
    message,
    offset: span.start,
    length: span.end - span.start,
    line: 1,
    column: span.start + 1,
    expected: [],
  };
  return new FilterSyntaxError(source, [diag]);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object')
    return `an object with kind ${JSON.stringify((value as { kind?: unknown }).kind) ?? 'undefined'}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return `${typeof value} ${value}`;
  return typeof value;
}

function children(node: Expression): unknown[] {
  switch (node.kind) {
    case 'and':
    case 'or':
      return [node.left, node.right];
    case 'not':
      return [node.operand];
    case 'collection':
      return [node.body];
    default:
      return [];
  }
}

/** Checks an AST that did not come from parseFilter against the limits (iteratively). */
function checkAst(ast: Expression, options: CompileOptions | undefined): void {
  const limits = resolveLimits(options);
  const maxNodeDepth = 3 * limits.maxDepth + 3;
  let clauses = 0;
  let problem: FilterSyntaxError | undefined;
  const kinds = new Set(['and', 'or', 'not', 'match', 'collection']);
  if (typeof ast !== 'object' || ast === null || !kinds.has((ast as { kind?: unknown }).kind as string)) {
    throw new TypeError(`compileFilter needs filter text or an expression AST but got ${describe(ast)}.`);
  }
  walk(ast, (node, depth) => {
    if (problem !== undefined) return;
    for (const child of children(node)) {
      if (
        typeof child !== 'object' ||
        child === null ||
        !kinds.has((child as { kind?: unknown }).kind as string)
      ) {
        throw new TypeError(
          `The expression AST has an invalid node under a "${node.kind}" node: ${describe(child)}.`,
        );
      }
    }
    if ((node.kind === 'match' || node.kind === 'collection') && !Array.isArray(node.selector?.path)) {
      throw new TypeError(`The expression AST has a "${node.kind}" node without a selector path.`);
    }
    if (depth > maxNodeDepth) {
      problem = limitError(
        '',
        FilterSyntaxErrorCode.TooDeep,
        `The expression nests more than ${maxNodeDepth} operators deep, the limit for ASTs (3 × maxDepth + 3).`,
        node.span,
      );
    } else if (node.kind === 'match' || node.kind === 'collection') {
      clauses++;
      if (clauses > limits.maxClauses) {
        problem = limitError(
          '',
          FilterSyntaxErrorCode.TooManyClauses,
          `The expression has more than ${limits.maxClauses} clauses, the limit.`,
          node.span,
        );
      }
      if (
        options?.strictRegex === true &&
        node.kind === 'match' &&
        node.value !== null &&
        (node.operator === 'matches' || node.operator === 'not-matches')
      ) {
        const r = compileRegex(node.value.raw);
        if (!r.ok) {
          problem = limitError(
            '',
            FilterSyntaxErrorCode.InvalidRegex,
            `The regular expression ${JSON.stringify(node.value.raw)} is invalid: ${r.reason}.`,
            node.value.span,
          );
        }
      }
    }
  });
  if (problem !== undefined) throw problem;
}

/** Texts whose predicates {@link compileFilter} remembers (compiled without options). @internal */
export const TEXT_CACHE_SIZE = 256;
/**
 * How many of the last texts compiled once are kept on probation: a text compiled again while on
 * probation gets the same predicate and is remembered from then on. @internal
 */
export const TEXT_PROBATION_SIZE = 8;
/** The predicates of texts compiled at least twice, least recently used first. */
const byText = new Map<string, FilterPredicate>();
/**
 * The predicates of the last texts compiled once, oldest first. A text seen once is not put in
 * `byText` straight away: a remembered predicate (its AST, constants and closures) outlives the
 * young generation of the garbage collector, and when every text is new (a server's filters
 * written by hand, each once) the 256 remembered ones made each compile copy and later mark its
 * predicate: a cold 20-clause compile cost 42 µs instead of 33 µs.
 */
const probationTexts: (string | undefined)[] = Array.from({ length: TEXT_PROBATION_SIZE }, () => undefined);
const probationPredicates: (FilterPredicate | undefined)[] = Array.from(
  { length: TEXT_PROBATION_SIZE },
  () => undefined,
);
/** The slot of the next text put on probation (a ring: it replaces the oldest). */
let probationNext = 0;

/**
 * The predicate of a text on probation, taken off it. Eight string comparisons: a `Map` of the
 * eight, whose entries come and go on every compile, cost about 0.3 µs a compile.
 */
function offProbation(text: string): FilterPredicate | undefined {
  for (let i = 0; i < TEXT_PROBATION_SIZE; i++) {
    if (probationTexts[i] === text) {
      const predicate = probationPredicates[i];
      probationTexts[i] = undefined;
      probationPredicates[i] = undefined;
      return predicate;
    }
  }
  return undefined;
}

function remember(text: string, predicate: FilterPredicate): void {
  if (byText.size >= TEXT_CACHE_SIZE) byText.delete(byText.keys().next().value as string);
  byText.set(text, predicate);
}

/**
 * Compiles a filter into a reusable predicate.
 *
 * Parsing and all static checks happen here; the predicate only evaluates. It answers exactly as
 * the reference (go-bexpr v0.1.16 on JSON data) does, and throws a {@link FilterEvaluationError}
 * where the reference returns an error (for example a missing top-level key). The predicate is
 * pure and can be shared; regular expressions are compiled the first time their clause is reached.
 * Text compiled without options is remembered while code generation is on: the same text gives
 * the same predicate again without parsing it when it comes back within the next 8 texts
 * compiled, and from then on it stays among the 256 remembered texts (least recently used first
 * out). A text compiled only once is not kept beyond those 8. A server with options of its own (a
 * schema) keeps a {@link createFilterCache} per option set.
 *
 * @param textOrAst - Filter text, or an AST from {@link parseFilter} or the builder.
 * @param options - Limits, `strictRegex` and `unknownValue`.
 * @returns `(datum) => boolean`.
 * @throws {@link FilterSyntaxError} when the text does not parse or exceeds a limit (never
 *   anything else for text); a TypeError when given something that is neither text nor an AST.
 * @example
 * ```ts
 * const keep = compileFilter('Status == "running" and Meta.owner == "team-a"');
 * keep({ Status: 'running', Meta: { owner: 'team-a' } }); // true
 * ```
 * @since 0.1.0
 */
export function compileFilter(textOrAst: string | Expression, options?: CompileOptions): FilterPredicate {
  // Only generated predicates are remembered: with code generation off (a test of the closures,
  // a strict Content-Security-Policy) every call compiles, so a text is never answered by the
  // other path.
  if (typeof textOrAst !== 'string' || options !== undefined || !canGenerate()) {
    return compileUncached(textOrAst, options);
  }
  const hit = byText.get(textOrAst);
  if (hit !== undefined) {
    byText.delete(textOrAst); // moved to the most recently used end
    byText.set(textOrAst, hit);
    return hit;
  }
  const again = offProbation(textOrAst);
  if (again !== undefined) {
    remember(textOrAst, again);
    return again;
  }
  const compiled = compileText(textOrAst);
  probationTexts[probationNext] = textOrAst;
  probationPredicates[probationNext] = compiled;
  probationNext = (probationNext + 1) % TEXT_PROBATION_SIZE;
  return compiled;
}

/**
 * Text compiled without options: from the factory of its shape when a filter of the same shape
 * was compiled before (shapes.ts), otherwise in full, remembering its shape.
 */
const DEFAULT_LIMITS = resolveLimits(undefined);

function compileText(text: string): FilterPredicate {
  const limits = DEFAULT_LIMITS;
  const lexed = text.length <= limits.maxLength ? lex(text, limits.maxDepth) : undefined;
  if (lexed === undefined || lexed.diagnostics.length > 0 || lexed.tokens.length === 0) {
    return compileUncached(text, undefined); // its diagnostics
  }
  const shaped = shapeOfTokens(text, lexed.tokens);
  return fromShape(text, shaped) ?? compileUncached(text, undefined, { lexed, shaped });
}

/**
 * Parses (unless given an AST), checks and compiles. `known`: the text's tokens, already lexed
 * without problems, and its shape, remembered when the filter is generated.
 */
function compileUncached(
  textOrAst: string | Expression,
  options: CompileOptions | undefined,
  known?: { lexed: ReturnType<typeof lex>; shaped: Shaped },
): FilterPredicate {
  let ast: Expression;
  let source: string | undefined;
  if (typeof textOrAst === 'string') {
    const result = parseText(textOrAst, options, known?.lexed);
    if (!result.ok) throw new FilterSyntaxError(textOrAst, result.diagnostics);
    ast = result.ast;
    source = textOrAst;
  } else {
    ast = textOrAst;
    source = sourceOf(ast);
    if (source === undefined || options?.strictRegex === true) checkAst(ast, options);
  }
  const unknownSet = options !== undefined && 'unknownValue' in options && options.unknownValue !== undefined;
  const schema = options?.schema;
  if (
    schema !== undefined &&
    (typeof schema !== 'object' || schema === null) &&
    typeof schema !== 'boolean'
  ) {
    throw new TypeError(`The schema option needs a JSON Schema object but got ${describe(schema)}.`);
  }
  const ctx: Context = {
    source,
    unknownSet,
    unknownValue: unknownSet ? options.unknownValue : undefined,
    schema: schema === undefined ? undefined : { root: schema, shape: shapeOf(schema, schema) },
  };
  if (canGenerate()) {
    const made = generateShaped(ast, ctx);
    if (made !== undefined) {
      if (known !== undefined) rememberShape(known.shaped, made.factory, made.steps);
      return instantiate(made.factory, made.consts);
    }
  }
  // The closures read `env` only below a collection, where it is their own: the top-level closure
  // is the predicate itself (one call less per item).
  return compileExpr(ast, EMPTY_SCOPE, ctx) as unknown as FilterPredicate;
}

/**
 * Evaluates a filter against one datum.
 *
 * @param textOrAst - Filter text or AST.
 * @param datum - JSON-like data (objects, arrays, strings, numbers, booleans, null).
 * @param options - As for {@link compileFilter}.
 * @returns Whether the datum passes.
 * @throws {@link FilterSyntaxError} for invalid text; {@link FilterEvaluationError} where evaluation fails.
 * @example
 * ```ts
 * evaluateFilter('"dc1" in Datacenters', { Datacenters: ['dc1', 'dc2'] }); // true
 * ```
 * @since 0.1.0
 */
export function evaluateFilter(
  textOrAst: string | Expression,
  datum: unknown,
  options?: CompileOptions,
): boolean {
  return compileFilter(textOrAst, options)(datum);
}

/**
 * Keeps the items a filter accepts, in order. The first evaluation error aborts the whole call,
 * as the reference server's paginator does. An empty text (`""`) keeps everything, like
 * go-bexpr's `CreateFilter("")`; whitespace-only text is a syntax error.
 *
 * @param textOrAst - Filter text or AST.
 * @param items - Any iterable of JSON-like items.
 * @param options - As for {@link compileFilter}.
 * @returns A new array.
 * @throws {@link FilterSyntaxError} for invalid text; {@link FilterEvaluationError} from the first failing
 *   item; a TypeError when `items` is not iterable.
 * @example
 * ```ts
 * filterItems('Priority != 50', [{ Priority: 50 }, { Priority: 70 }]); // [{ Priority: 70 }]
 * ```
 * @since 0.1.0
 */
export function filterItems<T>(
  textOrAst: string | Expression,
  items: Iterable<T>,
  options?: CompileOptions,
): T[] {
  if (typeof (items as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] !== 'function') {
    throw new TypeError(`filterItems needs an iterable of items but got ${describe(items)}.`);
  }
  if (textOrAst === '') return [...items];
  const keep = compileFilter(textOrAst, options);
  const out: T[] = [];
  for (const item of items) if (keep(item)) out.push(item);
  return out;
}
