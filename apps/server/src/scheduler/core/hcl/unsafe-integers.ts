import type { ValidationProblem } from '@sked/model';

/** Most problems listed: a hostile file with a million huge numbers gets a short answer. */
const MAX_PROBLEMS = 10;

/**
 * Every number in a parsed job file beyond what both sides carry exactly (|n| > 2^53 - 1: beyond a
 * JavaScript number's exact integers, `1e23` also beyond the service's 64-bit integers), as model
 * problems with their JSON Pointer. The file's fields as written are not checked against the model
 * (the service's parse does not), but such a number is never echoed rounded or as `1e+23`.
 */
export function unsafeIntegers(
  value: unknown,
  path = '',
  out: ValidationProblem[] = [],
): ValidationProblem[] {
  if (out.length >= MAX_PROBLEMS) return out;
  if (typeof value === 'number') {
    if (!(Math.abs(value) <= Number.MAX_SAFE_INTEGER))
      out.push({
        path,
        message: `expected a number of at most ${Number.MAX_SAFE_INTEGER} in magnitude but got the number ${String(value)}`,
      });
  } else if (Array.isArray(value)) value.forEach((item, i) => unsafeIntegers(item, `${path}/${i}`, out));
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value))
      unsafeIntegers(item, `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, out);
  return out;
}
