/**
 * Outcome of one evaluation for differential tests: the answer, or `'error'` when the filter or the
 * reference evaluator reports an evaluation error (anything else is rethrown).
 */
import { FilterEvaluationError } from '../src/errors.js';
import { RefError } from './reference.js';

export function outcome(f: () => boolean): boolean | 'error' {
  try {
    return f();
  } catch (e) {
    if (FilterEvaluationError.is(e) || e instanceof RefError) return 'error';
    throw e;
  }
}
