/**
 * Names and host paths as the scheduling service validates them: namespace names, control
 * characters in IDs, and the paths of a job that must stay inside the task directory.
 *
 * @packageDocumentation
 */

/**
 * What a namespace name may be: letters, digits and `-`, 1 to 128 characters (the service's rule).
 *
 * @since 0.3.0
 */
export const NAMESPACE_NAME_PATTERN = /^[a-zA-Z0-9-]{1,128}$/;

/**
 * Why `name` is not a valid namespace name, as the service says it.
 *
 * @param name - A namespace name.
 * @returns The sentence (`Invalid namespace name "a.b": must match regex ^[a-zA-Z0-9-]{1,128}$.`), or
 *   undefined when the name is valid.
 * @example
 * ```ts
 * namespaceNameProblem('team-a'); // undefined
 * ```
 * @since 0.3.0
 */
export function namespaceNameProblem(name: string): string | undefined {
  if (NAMESPACE_NAME_PATTERN.test(name)) return undefined;
  return `Invalid namespace name ${JSON.stringify(name)}: must match regex ${NAMESPACE_NAME_PATTERN.source}.`;
}

/**
 * Whether a string holds a control character (U+0000-U+001F, U+007F-U+009F), which no ID or name
 * may hold.
 *
 * @param value - Any string.
 * @returns True when it holds one.
 * @since 0.3.0
 */
export function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/**
 * Whether a path a job names, taken relative to `base` inside the task directory (`local` for a
 * dispatch payload file, `''` for template and artifact destinations), leaves the task directory:
 * after `.` and `..` are resolved it climbs above the task directory. An absolute path is taken
 * inside the task directory (as in the task's own root), so only `..` can escape; a NUL byte is
 * refused too (no file system accepts it).
 *
 * @param base - Where the path starts, relative to the task directory (`local`, or `''`).
 * @param path - The path as written in the job.
 * @returns True when the path escapes the task directory.
 * @example
 * ```ts
 * pathEscapesTaskDir('local', '../../../../tmp/x'); // true
 * pathEscapesTaskDir('local', 'input.json'); // false
 * ```
 * @since 0.3.0
 */
export function pathEscapesTaskDir(base: string, path: string): boolean {
  if (path.includes('\u0000')) return true;
  const parts = path.startsWith('/') ? [] : base.split('/').filter((p) => p !== '' && p !== '.');
  for (const part of path.split(/[/\\]/)) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return true;
      parts.pop();
    } else parts.push(part);
  }
  return false;
}
