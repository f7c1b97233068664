/**
 * The error of input refused before any request: one class shared by every sked client, defined in
 * `@sked/http`, so `InvalidRequestError.is` recognises it whichever client threw it.
 *
 * @remarks
 * This client throws it for an empty ID, a short allocation ID, an odd-length hexadecimal prefix,
 * `filter` together with `prefix`, a dispatch payload over the size limit, and the like, in the
 * service's own wording where the check mirrors one of its 400 answers.
 */
export { InvalidRequestError } from '@sked/http';
