/**
 * The tokens the console was given, kept in the tab's session storage (gone when the tab closes,
 * never in an address, a cookie or a log): the ACL token of the scheduling and mesh services, and
 * the secrets service's token.
 */
import { useEffect, useState } from 'preact/hooks';

/** Which token. */
export type TokenKind = 'acl' | 'secrets';

const KEYS: Readonly<Record<TokenKind, string>> = {
  acl: 'sked.console.acl-token',
  secrets: 'sked.console.secrets-token',
};
const CHANGED = 'sked:token';

/**
 * Reads a token.
 * @param kind - Which token.
 * @returns The token, or undefined when none was given in this tab.
 */
export function readToken(kind: TokenKind): string | undefined {
  try {
    return sessionStorage.getItem(KEYS[kind]) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps a token for this tab, or forgets it.
 * @param kind - Which token.
 * @param token - The token; undefined or empty forgets it.
 */
export function saveToken(kind: TokenKind, token: string | undefined): void {
  if (token === undefined || token.trim() === '') sessionStorage.removeItem(KEYS[kind]);
  else sessionStorage.setItem(KEYS[kind], token.trim());
  dispatchEvent(new Event(CHANGED));
}

/**
 * A token, updated when it is given or forgotten.
 * @param kind - Which token.
 * @returns The token or undefined.
 */
export function useToken(kind: TokenKind): string | undefined {
  const [token, setToken] = useState(() => readToken(kind));
  useEffect(() => {
    const update = (): void => setToken(readToken(kind));
    addEventListener(CHANGED, update);
    return () => removeEventListener(CHANGED, update);
  }, [kind]);
  return token;
}

/**
 * Whether the server checks ACL tokens: it says so in the page's head
 * (`<meta name="sked-acl" content="on">`), so the console asks for a token before its first request.
 * @returns Whether a token is needed.
 */
export function aclRequired(): boolean {
  return document.querySelector('meta[name="sked-acl"]')?.getAttribute('content') === 'on';
}
