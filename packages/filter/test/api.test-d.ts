// Public API type tests, checked by `tsc` (the package's typecheck includes test/).
import { expectTypeOf } from 'vitest';
import {
  compileFilter,
  filterBuilder,
  parseFilter,
  type Expression,
  type FilterDiagnostic,
  type FilterPath,
  type FilterPredicate,
} from '../src/index.js';

interface Job {
  ID: string;
  Meta: Record<string, string>;
  TaskGroups: { Name: string; Tasks: { Driver: string }[] }[];
}

expectTypeOf(compileFilter('a == 1')).toEqualTypeOf<FilterPredicate>();
expectTypeOf(compileFilter).parameter(0).toEqualTypeOf<string | Expression>();
const r = parseFilter('a == 1');
if (r.ok) expectTypeOf(r.ast).toEqualTypeOf<Expression>();
else expectTypeOf(r.diagnostics).toEqualTypeOf<readonly FilterDiagnostic[]>();

expectTypeOf<'ID'>().toExtend<FilterPath<Job>>();
expectTypeOf<'Meta.anything'>().toExtend<FilterPath<Job>>();
expectTypeOf<'TaskGroups.0.Tasks.1.Driver'>().toExtend<FilterPath<Job>>();
expectTypeOf<'Nope'>().not.toExtend<FilterPath<Job>>();
expectTypeOf(filterBuilder<Job>().eq('ID', 'x')).toHaveProperty('kind');
