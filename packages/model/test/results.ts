import type { ValidationProblem, ValidationResult } from '../src/index.js';

/** The problems of a failed result; throws (failing the test) when the value was valid. */
export function problemsOf(result: ValidationResult<unknown>): readonly ValidationProblem[] {
  if (result.ok) throw new Error('expected validation problems, but the value is valid');
  return result.problems;
}

/** The value of a successful result; throws with the problems when it was invalid. */
export function valueOf<T>(result: ValidationResult<T>): T {
  if (!result.ok) throw new Error(`expected a valid value, got: ${JSON.stringify(result.problems)}`);
  return result.value;
}
