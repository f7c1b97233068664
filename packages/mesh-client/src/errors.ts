/**
 * The error of input refused before any request: one class shared by every sked client, defined in
 * `@sked/http`. This client rejects with it for a peer name that is not a lowercase DNS label, a
 * peering token that is not base64 of a JSON object (its `value` is then the token's length, never
 * the token), a malformed address, a `Meta` value that is not a string, a bad `index`, `wait` or
 * `partition`. Calls return promises, so it arrives as a rejection; `watch` iterables reject their
 * first `next()`.
 */
export { InvalidRequestError } from '@sked/http';
