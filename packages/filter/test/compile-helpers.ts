/**
 * Helpers of the compiler tests: a job with every kind of field, and the outcome of a filter on it.
 */
import { compileFilter } from '../src/compile.js';
import { FilterEvaluationError, FilterSyntaxError } from '../src/errors.js';

export const job = {
  ID: 'web',
  Name: 'web-00042',
  Slashy: '/a/b',
  Status: 'running',
  Priority: 50,
  Float: 0.5,
  Bool: true,
  Role: 'dbadmin',
  Empty: '',
  Null: null,
  Meta: { owner: 'team-a', 'a/b': 'slash', 'with space': 'yes', '': 'empty-key', nested: { deep: 1 } },
  EmptyMeta: {},
  Datacenters: ['dc1', 'dc2'],
  Ints: [1, 2, 3],
  Mixed: ['foobar', 1, true],
  WithNull: ['a', null, 'b'],
  WithObject: [1, { x: 1 }],
  EmptyList: [],
  TaskGroups: [
    { Name: 'web', Count: 2, Tasks: [{ Name: 'server', Driver: 'mock' }] },
    { Name: 'db', Count: 1, Tasks: [{ Name: 'pg', Driver: 'raw_exec' }] },
  ],
};

export type Outcome = boolean | string;

export function run(text: string, datum: unknown = job, options = {}): Outcome {
  try {
    return compileFilter(text, options)(datum);
  } catch (e) {
    if (FilterEvaluationError.is(e)) return `error:${e.code}`;
    if (FilterSyntaxError.is(e)) return `syntax:${e.code}`;
    throw e;
  }
}
