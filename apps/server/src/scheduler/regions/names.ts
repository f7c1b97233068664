/**
 * Region names and member addresses as federation reads them from flags, options, peers and the
 * data dir: checked before they are used, so that a hostile name is never a key of a plain object
 * nor a path, and a member address is always an origin (`http://HOST:PORT`, nothing after it).
 */

/** Longest region name accepted. */
export const MAX_REGION_NAME = 128;

/**
 * What is wrong with a region name: letters, digits, `-`, `_` and `.`, 1-128 characters, and not
 * `.` or `..` (it is no path, nor a plain object's key, anywhere).
 * @param name - The name.
 * @returns The problem as a sentence, or undefined for a good name.
 */
export function regionNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return 'a region name must be a string';
  if (
    name.length === 0 ||
    name.length > MAX_REGION_NAME ||
    !/^[A-Za-z0-9_.-]+$/.test(name) ||
    name === '.' ||
    name === '..'
  ) {
    return `a region name is 1-${MAX_REGION_NAME} letters, digits, "-", "_" or "." (not "." or ".."), not ${JSON.stringify(name.slice(0, 200))}`;
  }
  return undefined;
}

/**
 * Reads a member's address: an `http:` or `https:` URL naming a host and a port, with no user,
 * query, fragment or path beyond `/`.
 * @param text - The address as given (`--join`, a peer's table, the data dir).
 * @returns The origin (`http://127.0.0.1:4646`), or the problem as a sentence.
 */
export function parseMemberAddress(text: unknown): { address: string } | { error: string } {
  const shown = typeof text === 'string' ? JSON.stringify(text.slice(0, 200)) : String(typeof text);
  const error = {
    error: `a member address is the scheduling address of another sked-server, such as http://127.0.0.1:4646, not ${shown}`,
  };
  if (typeof text !== 'string' || text.length > 2048) return error;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return error;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return error;
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return error;
  if (url.pathname !== '/' && url.pathname !== '') return error;
  if (url.hostname === '') return error;
  return { address: url.origin };
}
