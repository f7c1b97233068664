/** Reading a body with a size limit: it stops (and cancels the body) as soon as the limit is passed. */

/** Default limit of one answer's body: 64 MiB (after decompression). */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Thrown inside the transport when a body passes its limit; turned into an `ApiError` there. */
export class TooLargeError extends Error {
  override readonly name = 'TooLargeError';
  constructor(
    readonly limit: number,
    readonly seen: number,
    readonly declared: boolean,
  ) {
    super(`larger than ${limit} bytes`);
  }
}

/**
 * The body of a response as text, read at most `limit` bytes (`0`: no limit). A `Content-Length`
 * over the limit is refused before reading; a body that grows past it is cancelled at once, so it
 * costs no more memory than the limit.
 */
export async function readText(response: Response, limit: number): Promise<string> {
  const body = response.body;
  if (body === null) return '';
  if (limit > 0) {
    const declared = Number(response.headers.get('content-length') ?? '');
    if (Number.isFinite(declared) && declared > limit) {
      await body.cancel().catch(() => undefined);
      throw new TooLargeError(limit, declared, true);
    }
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let seen = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      seen += value.byteLength;
      if (limit > 0 && seen > limit) {
        await reader.cancel().catch(() => undefined);
        throw new TooLargeError(limit, seen, false);
      }
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
  return text + decoder.decode();
}
