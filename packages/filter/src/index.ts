/**
 * The scheduling service's filter-expression language (go-bexpr v0.1.16 on JSON data): parse,
 * compile, evaluate, print, build and complete filters, with the reference's exact answers.
 *
 * See the package README for the language by example, limits and deliberate differences.
 *
 * @packageDocumentation
 */

// AST
export type {
  AndNode,
  Binding,
  CollectionNode,
  Expression,
  MatchNode,
  NotNode,
  OrNode,
  SelectorNode,
  Span,
  ValueNode,
} from './ast.js';
export { MatchOperator } from './ast.js';

// Parsing and printing
export { parseFilter, type ParseResult } from './parse.js';
export { printFilter, printSelector, quoteFilterString } from './print.js';

// Compiling and evaluating
export { compileFilter, evaluateFilter, filterItems, type FilterPredicate } from './compile.js';
export { createFilterCache, type FilterCache, type FilterCacheOptions } from './cache.js';

// Options
export { FilterLimits, type CompileOptions, type ParseOptions } from './options.js';

// Builder
export {
  filter,
  filterBuilder,
  type FilterBuilder,
  type FilterElement,
  type FilterPath,
  type FilterPathDepths,
  type FilterPathValue,
  type FilterQuantifier,
  type FilterSelector,
  type FilterValue,
} from './builder.js';

// Completion
export {
  completeFilter,
  type CompletionItem,
  type CompletionOptions,
  type CompletionResult,
} from './complete.js';

// Errors
export {
  FilterEvaluationError,
  FilterEvaluationErrorCode,
  FilterSyntaxError,
  FilterSyntaxErrorCode,
  formatCaret,
  formatDiagnostic,
  type FilterDiagnostic,
  type FilterEvaluationErrorInit,
  type ValueKind,
} from './errors.js';
