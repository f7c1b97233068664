/**
 * Errors thrown by `@sked/model`.
 *
 * @packageDocumentation
 */
import type { ValidationProblem } from './validate.js';

const brand = Symbol.for('@sked/model/ValidationError');

/**
 * Thrown by {@link assertValid} when a value does not match its schema; carries every problem.
 *
 * @example
 * ```ts
 * try {
 *   assertValid(JobRegisterRequest, body);
 * } catch (error) {
 *   if (ValidationError.is(error)) console.log(error.problems);
 * }
 * ```
 * @since 0.1.0
 */
export class ValidationError extends Error {
  /** Always `"ValidationError"`. */
  override readonly name = 'ValidationError' as const;
  /** The problems, as {@link validate} returns them (never empty). */
  readonly problems: readonly ValidationProblem[];
  /** What was validated, in words (for example `the job register body`), as used in the message. */
  readonly subject: string;

  /**
   * Creates the error; the message lists the problems one per line.
   *
   * @param subject - What was validated, in words.
   * @param problems - The problems (at least one).
   * @param options - Standard error options (`cause`).
   */
  constructor(subject: string, problems: readonly ValidationProblem[], options?: ErrorOptions) {
    const lines = problems.map((problem) => `${pointerLabel(problem.path)}: ${problem.message}`);
    super(`${capitalize(subject)} is not valid: ${lines.join('; ')}.`, options);
    this.problems = problems;
    this.subject = subject;
    Object.defineProperty(this, brand, { value: true });
  }

  /**
   * Whether a value is a {@link ValidationError}, also across copies of this package.
   *
   * @param value - Anything, typically a caught error.
   * @returns `true` for a `ValidationError`.
   */
  static is(value: unknown): value is ValidationError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  }
}

function pointerLabel(path: string): string {
  return path === '' ? '(root)' : path;
}

function capitalize(text: string): string {
  return text.length === 0 ? 'The value' : `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
