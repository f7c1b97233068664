/** The error of an exec session that ended without an exit code. */

const execErrorBrand = Symbol.for('@sked/scheduler-client/ExecError');

/**
 * An exec session that ended without an exit code: refused by the server (close code 1008 for
 * a client-side problem such as an unknown task or a missing permission, 1011 for a server fault,
 * with the server's message), refused at the upgrade (an HTTP status), or a lost connection.
 * @since 0.1.0
 */
export class ExecError extends Error {
  /** Always `"ExecError"`. */
  override readonly name = 'ExecError' as const;
  /** The WebSocket close code (1008, 1011, 1006 for a lost connection), or 0 when the upgrade failed. */
  readonly code: number;
  /** The close reason sent by the server (its message), or `""`. */
  readonly reason: string;
  /** The HTTP status of a refused upgrade, or 0. */
  readonly status: number;

  /**
   * Creates the error.
   * @param message - A sentence.
   * @param details - Close code, reason and HTTP status.
   */
  constructor(
    message: string,
    details: { code: number; reason: string; status?: number },
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.code = details.code;
    this.reason = details.reason;
    this.status = details.status ?? 0;
    Object.defineProperty(this, execErrorBrand, { value: true });
  }

  /**
   * Tells whether a value is an {@link ExecError}, even from another copy of this package.
   * @param value - Any value.
   * @returns `true` for an {@link ExecError}.
   */
  static is(value: unknown): value is ExecError {
    return typeof value === 'object' && value !== null && execErrorBrand in value;
  }
}
