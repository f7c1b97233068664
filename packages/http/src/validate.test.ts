import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import {
  InvalidRequestError,
  isObject,
  quote,
  requireBoolean,
  requireInteger,
  requireNonEmpty,
  requireObject,
  requireString,
  requireStringMap,
  requireWait,
} from './index.js';

/** What a check threw: its message, parameter and value (`accepted` and what it returned; `other` for another error). */
function outcome(check: () => unknown): unknown {
  try {
    return { accepted: check() };
  } catch (error) {
    if (!InvalidRequestError.is(error)) return { other: error };
    const { message, parameter, value } = error;
    return { message, parameter, value };
  }
}

describe('quote', () => {
  it.each<[unknown, string]>([
    ['a"b', '"a\\"b"'],
    [42, '42'],
    [false, 'false'],
    [10n, '10'],
    [null, 'null'],
    [undefined, 'undefined'],
    [[1], 'a value of type array'],
    [{ a: 1 }, 'a value of type object'],
    [() => 1, 'a value of type function'],
  ])('quotes %s as %s', (value, text) => {
    expect(quote(value)).toBe(text);
  });

  test.prop([fc.string({ maxLength: 300 })])('a string is its JSON, cut after 80 characters', (text) => {
    const quoted = JSON.parse(quote(text)) as string;
    expect(quoted).toBe(text.length > 80 ? `${text.slice(0, 80)}…` : text);
  });
});

describe('the checks', () => {
  it.each<[string, () => unknown, unknown]>([
    ['a string', () => requireString('', 'prefix'), { accepted: '' }],
    [
      'not a string',
      () => requireString(5, 'prefix'),
      { message: 'prefix must be a string, but got 5.', parameter: 'prefix', value: 5 },
    ],
    ['a non-empty string', () => requireNonEmpty('a', 'source'), { accepted: 'a' }],
    [
      'an empty string',
      () => requireNonEmpty('', 'source'),
      { message: 'source must be a non-empty string, but got "".', parameter: 'source', value: '' },
    ],
    ['an integer in range', () => requireInteger(100, 'evalPriority', 1, 100), { accepted: 100 }],
    [
      'an integer out of range',
      () => requireInteger(101, 'evalPriority', 1, 100),
      {
        message: 'evalPriority must be an integer from 1 to 100, but got 101.',
        parameter: 'evalPriority',
        value: 101,
      },
    ],
    [
      'a fraction',
      () => requireInteger(1.5, 'index'),
      { message: 'index must be an integer of at least 0, but got 1.5.', parameter: 'index', value: 1.5 },
    ],
    ['a boolean', () => requireBoolean(false, 'purge'), { accepted: false }],
    [
      'a boolean spelled as a string',
      () => requireBoolean('true', 'purge'),
      { message: 'purge must be true or false, but got "true".', parameter: 'purge', value: 'true' },
    ],
    ['an object', () => requireObject({ a: 1 }, 'job'), { accepted: { a: 1 } }],
    [
      'an array for an object',
      () => requireObject([], 'job'),
      { message: 'job must be an object, but got a value of type array.', parameter: 'job', value: [] },
    ],
    ['a map of strings', () => requireStringMap({ a: 'b' }, 'meta'), { accepted: { a: 'b' } }],
    [
      'a map with a number',
      () => requireStringMap({ a: 'b', c: 1 }, 'meta'),
      { message: 'meta["c"] must be a string, but got 1.', parameter: 'meta', value: { a: 'b', c: 1 } },
    ],
    [
      'null for a map',
      () => requireStringMap(null, 'meta'),
      {
        message: 'meta must be an object mapping strings to strings, but got null.',
        parameter: 'meta',
        value: null,
      },
    ],
    ['a wait as a duration', () => requireWait('1m30s'), { accepted: '1m30s' }],
    ['a wait in milliseconds', () => requireWait(90_000), { accepted: '90000ms' }],
    [
      'a negative wait',
      () => requireWait(-1),
      {
        message: 'wait must be a duration string or a non-negative number of milliseconds, but got -1.',
        parameter: 'wait',
        value: -1,
      },
    ],
    [
      'an infinite wait',
      () => requireWait(Number.POSITIVE_INFINITY, 'timeout'),
      {
        message:
          'timeout must be a duration string or a non-negative number of milliseconds, but got Infinity.',
        parameter: 'timeout',
        value: Number.POSITIVE_INFINITY,
      },
    ],
    [
      'a wait that is not a duration',
      () => requireWait(true),
      {
        message: 'Invalid wait time true: use a duration such as "30s", "5m" or "1h30m", or milliseconds.',
        parameter: 'wait',
        value: true,
      },
    ],
  ])('%s', (_what, check, expected) => {
    expect(outcome(check)).toEqual(expected);
  });

  it('isObject is true for plain objects only', () => {
    expect([{}, [], null, 'x', 1].map(isObject)).toEqual([true, false, false, false, false]);
  });

  test.prop([fc.oneof(fc.integer(), fc.double(), fc.constant(Number.MAX_SAFE_INTEGER + 1)), fc.nat(10)])(
    'requireInteger accepts exactly the safe integers of at least min',
    (value, min) => {
      const ok = Number.isSafeInteger(value) && value >= min;
      expect(outcome(() => requireInteger(value, 'n', min))).toEqual(
        ok ? { accepted: value } : expect.objectContaining({ parameter: 'n', value }),
      );
    },
  );
});
