/**
 * JSON Pointers (RFC 6901) of problems: parsed, escaped, followed into a value, and their ancestors.
 *
 * @packageDocumentation
 */

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

export function escapeSegment(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

export function valueAt(root: unknown, pointer: string): unknown {
  let current: unknown = root;
  for (const segment of parsePointer(pointer)) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

export function ancestors(pointer: string): string[] {
  const out = [pointer];
  let current = pointer;
  while (current !== '') {
    current = current.slice(0, current.lastIndexOf('/'));
    out.push(current);
  }
  return out;
}
