const invalidRequestBrand = Symbol.for('@sked/secrets-client/InvalidRequestError');

/**
 * Thrown before any request is sent when the input cannot be right: an empty or malformed name,
 * an unknown configuration parameter, a value of the wrong type, a password that is not a string.
 *
 * @since 0.1.0
 */
export class InvalidRequestError extends Error {
  /** Always `"InvalidRequestError"`. */
  override readonly name = 'InvalidRequestError' as const;
  /** The parameter at fault (for example `"name"`, `"password"` or `"config.starttls"`). */
  readonly parameter: string;

  /**
   * Creates the error.
   * @param message - A whole sentence saying what is wrong (never quoting a password).
   * @param parameter - The parameter at fault.
   */
  constructor(message: string, parameter: string) {
    super(message);
    this.parameter = parameter;
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
