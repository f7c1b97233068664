import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { pageArray } from '../scheduler/routes/common.js';
import {
  checkRegion,
  queryBool,
  queryUint,
  readFilter,
  readIndex,
  readNamespace,
  readPerPage,
  readPrefix,
  readReverse,
  requireUuid,
} from './conventions.js';
import { HttpError } from './errors.js';

const fails = (act: () => unknown): string => {
  try {
    act();
  } catch (error) {
    if (HttpError.is(error)) return `${error.status} ${error.message}`;
    throw error;
  }
  return 'no error';
};

describe('query parameters', () => {
  it('reads the namespace, defaulting to "default"', () => {
    expect(readNamespace({})).toBe('default');
    expect(readNamespace({ namespace: '' })).toBe('default');
    expect(readNamespace({ namespace: ['a', 'b'] })).toBe('b');
    expect(readNamespace({ namespace: '*' })).toBe('*');
  });

  it('checks the region', () => {
    expect(fails(() => checkRegion({ region: 'global' }, 'global'))).toBe('no error');
    expect(fails(() => checkRegion({ region: '' }, 'global'))).toBe('no error');
    expect(fails(() => checkRegion({ region: 'eu' }, 'global'))).toBe('400 No path to region "eu"');
  });

  it.each([
    [{}, 0],
    [{ index: '' }, 0],
    [{ index: '42' }, 42],
  ])('readIndex(%j) is %d', (query, index) => {
    expect(readIndex(query)).toBe(index);
  });

  it.each(['-1', '1.5', 'x', '99999999999999999999'])('readIndex(%s) is 400 Invalid index', (index) => {
    expect(fails(() => readIndex({ index }))).toBe('400 Invalid index');
  });

  it('reads per_page and reverse', () => {
    expect(readPerPage({ per_page: '25' })).toBe(25);
    expect(fails(() => readPerPage({ per_page: '2.5' }))).toBe(
      '400 Expect a number for `per_page` query string parameter',
    );
    expect(readReverse({ reverse: 'true' })).toBe(true);
    expect(readReverse({ reverse: 'no' })).toBe(false);
    expect(readReverse({})).toBe(false);
  });

  it('reads booleans and integers the way the service does', () => {
    expect(queryBool({ purge: '' }, 'purge', false)).toBe(true);
    expect(queryBool({ purge: 'F' }, 'purge', true)).toBe(false);
    expect(fails(() => queryBool({ purge: 'yes' }, 'purge', false))).toBe(
      '400 Failed to parse value of "purge" ("yes") as a bool',
    );
    expect(queryUint({ n: '7' }, 'n', 0)).toBe(7);
    expect(fails(() => queryUint({ n: '-7' }, 'n', 0))).toBe(
      '400 Failed to parse value of "n" ("-7") as an integer',
    );
  });

  it('refuses filter with another filtering parameter', () => {
    expect(readFilter({ filter: 'a == 1' })).toBe('a == 1');
    expect(readFilter({ filter: '' })).toBeUndefined();
    expect(fails(() => readFilter({ filter: 'a == 1', prefix: 'x' }))).toBe(
      '400 Filter expression cannot be used with other filter parameters',
    );
    expect(readFilter({ filter: 'a == 1', prefix: '' })).toBe('a == 1');
  });

  it('checks full UUIDs', () => {
    expect(requireUuid('allocation', '5d2f0a8e-4c4b-4b6e-9a61-0d7c8e8b1f3a')).toBe(
      '5d2f0a8e-4c4b-4b6e-9a61-0d7c8e8b1f3a',
    );
    expect(fails(() => requireUuid('allocation', '5d2f0a8e'))).toBe(
      '400 allocation ID must be a full UUID (36 characters), not "5d2f0a8e"',
    );
  });
});

describe('properties', () => {
  test.prop([fc.string({ unit: fc.constantFrom(...'0123456789abcdef'.split('')), maxLength: 40 })])(
    'a hex prefix is accepted exactly when its length is even',
    (prefix) => {
      const outcome = fails(() => readPrefix({ prefix }, { hex: true }));
      expect(outcome === 'no error').toBe(prefix.length % 2 === 0);
    },
  );

  test.prop([fc.string({ maxLength: 20 })])('a plain prefix is never refused', (prefix) => {
    expect(readPrefix({ prefix })).toBe(prefix);
  });

  test.prop([
    fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 30 }),
    fc.integer({ min: 1, max: 10 }),
    fc.boolean(),
  ])('paging an array with next tokens yields every item once, in order', (ids, perPage, reverse) => {
    const sorted = [...ids].sort();
    const seen: string[] = [];
    let token: string | undefined;
    for (let pages = 0; pages <= sorted.length + 1; pages++) {
      const page = pageArray(sorted, (id) => id, { perPage, nextToken: token, reverse });
      expect(page.items.length).toBeLessThanOrEqual(perPage);
      seen.push(...page.items);
      token = page.nextToken;
      if (token === undefined) break;
    }
    expect(seen).toEqual(reverse ? [...sorted].reverse() : sorted);
  });
});
