import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { CliError } from './errors.js';
import { integer, parsePairs } from './handler.js';

describe('parsePairs', () => {
  it('splits at the first =, keeps empty values, refuses a pair without a key', () => {
    expect(parsePairs(['a=1', 'b=x=y', 'c='], 'pair')).toEqual({ a: '1', b: 'x=y', c: '' });
    expect(() => parsePairs(['=v'], '--meta')).toThrow('--meta "=v" is not key=value.');
    expect(() => parsePairs(['novalue'], '--meta')).toThrow(CliError);
  });

  it.each(['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'plain'])(
    'keeps a key named %j as a key (it reaches the request body as given)',
    (key) => {
      const pairs = parsePairs([`${key}=v`, 'other=w'], '--meta');
      expect(Object.keys(pairs)).toEqual([key, 'other']);
      expect(JSON.stringify(pairs)).toBe(`{${JSON.stringify(key)}:"v","other":"w"}`);
      expect(parsePairs(['other=w'], '--meta')[key]).toBeUndefined();
    },
  );

  describe('properties', () => {
    test.prop([
      fc.dictionary(
        fc
          .oneof(fc.string({ minLength: 1 }), fc.constantFrom('__proto__', 'constructor', 'toString'))
          .filter((k) => !k.includes('=')),
        fc.string(),
      ),
    ])('parsing printed pairs gives the record back', (record) => {
      expect(
        parsePairs(
          Object.entries(record).map(([k, v]) => `${k}=${v}`),
          'pair',
        ),
      ).toEqual(record);
    });
  });
});

describe('integer', () => {
  it('takes non-negative integers only', () => {
    expect(integer('0')).toBe(0);
    expect(integer('42')).toBe(42);
    for (const bad of ['-1', '1.5', 'x', '', '1e3', '9999999999999999'])
      expect(() => integer(bad)).toThrow('Expected a non-negative integer.');
  });
});
