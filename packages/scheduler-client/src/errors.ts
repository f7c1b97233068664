const invalidRequestBrand = Symbol.for('@sked/scheduler-client/InvalidRequestError');

/**
 * Thrown before any request is sent when the client can tell that the service would refuse it:
 * an empty ID, a short allocation ID, an odd-length hexadecimal prefix, `filter` together with
 * `prefix`, a dispatch payload over the size limit, and the like.
 *
 * @remarks
 * Where the check mirrors a 400 answer of the service, the message is the service's own wording
 * (for example `Filter expression cannot be used with other filter parameters`), so code that
 * matches on messages behaves the same whether the client or the server refused.
 *
 * @since 0.1.0
 */
export class InvalidRequestError extends Error {
  /** Always `"InvalidRequestError"`. */
  override readonly name = 'InvalidRequestError' as const;
  /** The parameter at fault, as the caller named it (for example `"allocId"` or `"prefix"`). */
  readonly parameter: string;
  /** The offending value, as given. */
  readonly value: unknown;

  /**
   * Creates the error.
   * @param message - A whole sentence quoting the offending value.
   * @param parameter - The parameter at fault.
   * @param value - The offending value.
   */
  constructor(message: string, parameter: string, value: unknown) {
    super(message);
    this.parameter = parameter;
    this.value = value;
    Object.defineProperty(this, invalidRequestBrand, { value: true });
  }

  /**
   * Tells whether a value is an {@link InvalidRequestError}, even one thrown by another copy of
   * this package.
   * @param value - Any value.
   * @returns `true` when `value` is an {@link InvalidRequestError}.
   */
  static is(value: unknown): value is InvalidRequestError {
    return typeof value === 'object' && value !== null && invalidRequestBrand in value;
  }
}
