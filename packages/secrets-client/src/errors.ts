/**
 * The error of input refused before any request: one class shared by every sked client, defined in
 * `@sked/http`, so `InvalidRequestError.is` recognises it whichever client threw it.
 *
 * @remarks
 * This client throws it for an empty, over-long or control-character name, a list item with a
 * comma, an unknown configuration parameter or a value of the wrong type, a password that is not a
 * string, and a malformed mount. Its message never quotes a configuration value (it could be
 * `bindpass` or a private key), and `value` is left undefined.
 */
export { InvalidRequestError } from '@sked/http';
