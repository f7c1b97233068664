const invalidRequestBrand = Symbol.for('@sked/http/InvalidRequestError');

/**
 * Thrown (or rejected with) by the sked service clients before any request is sent, when the
 * client can tell that the service would refuse the call: an empty or malformed ID or name, a
 * filter together with a prefix, a bad `wait`, a peering token that is not a token, and the like.
 *
 * @remarks
 * One class for every client, so code using several clients (the `sked` CLI) handles them with one
 * {@link InvalidRequestError.is}. Where the check mirrors a 400 answer of the service, the message
 * is the service's own wording, so code that matches on messages behaves the same whichever side
 * refused.
 *
 * @example
 * ```ts
 * try {
 *   await client.allocations.read('abc');
 * } catch (error) {
 *   if (InvalidRequestError.is(error)) console.log(error.parameter, error.message);
 * }
 * ```
 * @since 0.1.0
 */
export class InvalidRequestError extends Error {
  /** Always `"InvalidRequestError"`. */
  override readonly name = 'InvalidRequestError' as const;
  /** The parameter at fault, as the caller named it (for example `"allocId"` or `"PeerName"`). */
  readonly parameter: string;
  /** The offending value, as given (never a credential: clients put a description instead). */
  readonly value: unknown;

  /**
   * Creates the error.
   * @param message - A whole sentence saying what is wrong and where.
   * @param parameter - The parameter at fault.
   * @param value - The offending value.
   * @param options - Standard error options: a refused request body carries the model's
   *   `ValidationError` (every problem, each at its JSON Pointer) as `cause`.
   */
  constructor(message: string, parameter: string, value?: unknown, options?: ErrorOptions) {
    super(message, options);
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
