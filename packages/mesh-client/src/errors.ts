const invalidRequestBrand = Symbol.for('@sked/mesh-client/InvalidRequestError');

/**
 * Thrown before any request is sent when the client can tell that the mesh service would refuse
 * the call: a peer name that is not a lowercase DNS label, a peering token that is not base64 of
 * a JSON object, a malformed server address, a `Meta` value that is not a string, a bad `wait`.
 *
 * @remarks
 * Calls return promises, so the error arrives as a rejection (never a synchronous throw); the
 * `watch` iterables reject their first `next()`.
 *
 * @since 0.1.0
 */
export class InvalidRequestError extends Error {
  /** Always `"InvalidRequestError"`. */
  override readonly name = 'InvalidRequestError' as const;
  /** The parameter at fault, as the caller named it (for example `"PeerName"` or `"wait"`). */
  readonly parameter: string;
  /** The offending value, as given (never a peering token: that is replaced by its length). */
  readonly value: unknown;

  /**
   * Creates the error.
   * @param message - A whole sentence saying what is wrong and where.
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
