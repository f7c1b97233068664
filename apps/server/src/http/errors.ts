/**
 * HTTP-level errors of the sample server.
 *
 * @packageDocumentation
 */

const httpErrorBrand = Symbol.for('@sked/server/HttpError');

/**
 * A request failure with the status code and the plain-text message the client receives.
 *
 * Route handlers throw it; the app's error handler turns it into a `text/plain` answer.
 */
export class HttpError extends Error {
  /** Literal class name. */
  override readonly name = 'HttpError' as const;
  /** The HTTP status code of the answer (400, 403, 404, 405, 413, ...). */
  readonly status: number;
  readonly [httpErrorBrand] = true;

  /**
   * @param status - HTTP status code of the answer.
   * @param message - The body of the answer: one sentence, no secrets.
   * @param options - Standard error options (`cause`).
   */
  constructor(status: number, message: string, options?: ErrorOptions) {
    super(message, options);
    this.status = status;
  }

  /**
   * Whether a value is an {@link HttpError}, across copies of the package.
   * @param value - Anything.
   * @returns True for an {@link HttpError}.
   */
  static is(value: unknown): value is HttpError {
    return typeof value === 'object' && value !== null && httpErrorBrand in value;
  }
}

/**
 * Shorthand for a 400 {@link HttpError}.
 * @param message - The answer's body.
 * @returns The error, to be thrown.
 */
export function badRequest(message: string): HttpError {
  return new HttpError(400, message);
}

/**
 * Shorthand for a 404 {@link HttpError}.
 * @param message - The answer's body, e.g. `job not found`.
 * @returns The error, to be thrown.
 */
export function notFound(message: string): HttpError {
  return new HttpError(404, message);
}

/**
 * Shorthand for a 403 {@link HttpError}.
 * @param message - `ACL token not found` or `Permission denied`.
 * @returns The error, to be thrown.
 */
export function forbidden(message: string): HttpError {
  return new HttpError(403, message);
}
