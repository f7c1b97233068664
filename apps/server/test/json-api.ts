/** A JSON call to a listener over real HTTP (fetch), for the end-to-end tests. */

/**
 * Sends `body` as JSON (when given) and reads the answer whole.
 * @param base - The listener's base URL.
 * @param method - The method.
 * @param path - The path and query.
 * @param body - A value sent as JSON, if any.
 * @returns The status and the body: parsed JSON, undefined when empty, the text when not JSON
 *   (a plain-text error).
 */
export async function callJson(
  base: string | URL,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(new URL(path, base), {
    method,
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const text = await response.text();
  if (text === '') return { status: response.status, json: undefined };
  try {
    return { status: response.status, json: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, json: text };
  }
}
