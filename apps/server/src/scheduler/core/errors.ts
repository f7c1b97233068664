const brand = Symbol.for('@sked/server/ClusterError');

/** A user mistake found by a cluster write: carries the HTTP status and the exact message to answer. */
export class ClusterError extends Error {
  override readonly name = 'ClusterError' as const;
  /** HTTP status: 400 (bad request / conflict of a check-and-set), 404 (unknown resource) or 409. */
  readonly status: 400 | 404 | 409;
  readonly [brand] = true;

  constructor(status: 400 | 404 | 409, message: string, options?: ErrorOptions) {
    super(message, options);
    this.status = status;
  }

  /** Whether `value` is a ClusterError (from any copy of this module). */
  static is(value: unknown): value is ClusterError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  }
}

/** Shorthand: a 400 ClusterError. */
export function badRequest(message: string): ClusterError {
  return new ClusterError(400, message);
}

/** Shorthand: a 404 ClusterError. */
export function notFound(message: string): ClusterError {
  return new ClusterError(404, message);
}
