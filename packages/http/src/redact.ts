/**
 * What replaces a secret in URLs, messages and log lines: `"[REDACTED]"`.
 * @since 0.1.0
 */
export const REDACTED: string = '[REDACTED]';

const SECRET_PARAM =
  /^(?:x-[a-z]+-token|token|access_token|secret|secret_id|secretid|password|bindpass|client_token)$/i;

/**
 * Replaces every occurrence of the given secrets in a text by `[REDACTED]`.
 *
 * @param text - Any text.
 * @param secrets - Values to hide; empty strings are ignored.
 * @returns The text without the secrets (also without their URL-encoded forms).
 * @example
 * ```ts
 * redactText('token s3cr3t refused', ['s3cr3t']); // "token [REDACTED] refused"
 * ```
 * @since 0.1.0
 */
export function redactText(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret === undefined || secret === '') continue;
    for (const form of new Set([
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
    ])) {
      out = out.split(form).join(REDACTED);
    }
  }
  return out;
}

/**
 * Removes credentials from a URL: user info, token-like query parameters (`token`, `X-Svc-Token`,
 * `secret_id`, `password`, ...) and any of the given secrets wherever they appear.
 *
 * @param url - An absolute URL (a string that does not parse is only text-redacted).
 * @param secrets - Values to hide anywhere in the URL.
 * @returns The redacted URL as a string.
 * @example
 * ```ts
 * redactUrl('https://h:4646/v1/client/allocation/1/exec?token=abc&task=web');
 * // "https://h:4646/v1/client/allocation/1/exec?token=%5BREDACTED%5D&task=web"
 * ```
 * @since 0.1.0
 */
export function redactUrl(url: string | URL, secrets: readonly (string | undefined)[] = []): string {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    return redactText(String(url), secrets);
  }
  if (parsed.username !== '') parsed.username = REDACTED;
  if (parsed.password !== '') parsed.password = REDACTED;
  for (const name of new Set(parsed.searchParams.keys())) {
    if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, REDACTED);
  }
  return redactText(parsed.toString(), secrets);
}
