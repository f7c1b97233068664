import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { parseByteSize } from './byte-size.js';
import { parseGoBool } from './go-bool.js';
import {
  formatGoDuration,
  MAX_TIMER_MS,
  parseGoDuration,
  parseSecondsOrDuration,
  timerLimitProblem,
} from './go-duration.js';

const ns = (text: string): number | string => {
  const r = parseGoDuration(text);
  return r.ok ? r.ns : r.message;
};

describe('parseGoDuration', () => {
  it.each([
    ['0', 0],
    ['+0', 0],
    ['-0', 0],
    ['5s', 5e9],
    ['300ms', 3e8],
    ['-1.5h', -5_400e9],
    ['2h45m', 9_900e9],
    ['1.s', 1e9],
    ['.5s', 5e8],
    ['1h15m30.918273645s', 4_530_918_273_645],
    ['3us', 3_000],
    ['3\u00b5s', 3_000],
    ['3\u03bcs', 3_000],
    ['100ns', 100],
    ['1m1m', 120e9],
    // 2^63-1 and -2^63 ns, as near as a number holds them
    ['9223372036854775807ns', 2 ** 63],
    ['-9223372036854775808ns', -(2 ** 63)],
  ])('reads %j as Go does: %d ns', (text, expected) => {
    expect(ns(text)).toBe(expected);
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['-', 'time: invalid duration "-"'],
    ['.s', 'time: invalid duration ".s"'],
    ['s', 'time: invalid duration "s"'],
    ['1', 'time: missing unit in duration "1"'],
    ['1s2', 'time: missing unit in duration "1s2"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['1 s', 'time: unknown unit " s" in duration "1 s"'],
    [' 1s', 'time: invalid duration " 1s"'],
    ['1toString', 'time: unknown unit "toString" in duration "1toString"'],
    ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
    ['3000000h', 'time: invalid duration "3000000h"'],
  ])('refuses %j with Go message %j', (text, message) => {
    expect(ns(text)).toBe(message);
  });

  test.prop([fc.string({ unit: 'grapheme-ascii' }), fc.string()])('never throws', (a, b) => {
    for (const text of [a, b, `${a}s`, `1${b}`]) expect(() => parseGoDuration(text)).not.toThrow();
  });

  test.prop([
    fc.array(
      // 6 parts of at most 400h stay below 2^53 ns, where the sum is exact.
      fc.tuple(fc.integer({ min: 0, max: 400 }), fc.constantFrom('ns', 'us', 'µs', 'ms', 's', 'm', 'h')),
      { minLength: 1, maxLength: 6 },
    ),
    fc.boolean(),
  ])('a duration of whole parts is the sum of its parts, negated by a leading minus', (parts, negative) => {
    const factor = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
    const text = `${negative ? '-' : ''}${parts.map(([n, u]) => `${n}${u}`).join('')}`;
    const sum = parts.reduce((total, [n, u]) => total + n * factor[u], 0);
    expect(ns(text)).toBe(negative ? -sum : sum);
  });

  test.prop([fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER })])(
    'reads back what formatGoDuration writes',
    (value) => {
      expect(ns(formatGoDuration(value))).toBe(value);
    },
  );
});

describe('formatGoDuration', () => {
  it.each([
    [0, '0s'],
    [1, '1ns'],
    [1_500, '1.5µs'],
    [1_500_000, '1.5ms'],
    [500e6, '500ms'],
    [1.5e9, '1.5s'],
    [90e9, '1m30s'],
    [3_600e9, '1h0m0s'],
    [5_400e9 + 1, '1h30m0.000000001s'],
    [-90e9, '-1m30s'],
  ])('writes %d ns as Go does: %j', (value, text) => {
    expect(formatGoDuration(value)).toBe(text);
  });
});

describe('parseSecondsOrDuration and the timer limit', () => {
  it.each([
    ['90', 90e9],
    [' 90 ', 90e9],
    ['', 0],
    ['2d', 172_800e9],
    ['1h30m', 5_400e9],
  ] as const)('reads %j as %d ns', (text, expected) => {
    expect(parseSecondsOrDuration(text)).toEqual({ ok: true, ns: expected });
  });

  it('reads a number as seconds and refuses a negative one, or days with other units', () => {
    expect(parseSecondsOrDuration(1.5)).toEqual({ ok: true, ns: 1.5e9 });
    expect(parseSecondsOrDuration(-1).ok).toBe(false);
    expect(parseSecondsOrDuration('1d2h')).toEqual({
      ok: false,
      message: 'time: unknown unit "d" in duration "1d2h"',
    });
  });

  it('names the limit for a duration longer than a timer holds, and accepts one at the limit', () => {
    expect(MAX_TIMER_MS).toBe(2_147_483_647);
    expect(timerLimitProblem(MAX_TIMER_MS * 1e6)).toBeUndefined();
    expect(timerLimitProblem((MAX_TIMER_MS + 1) * 1e6)).toBe(
      'is longer than 2147483647 ms (about 24.8 days), the longest a timer waits',
    );
    const days25 = parseSecondsOrDuration('25d');
    expect(days25.ok && timerLimitProblem(days25.ns)).toContain('2147483647 ms');
  });
});

const GO_BOOLS: ReadonlyMap<string, boolean> = new Map([
  ...['1', 't', 'T', 'TRUE', 'true', 'True'].map((s): [string, boolean] => [s, true]),
  ...['0', 'f', 'F', 'FALSE', 'false', 'False'].map((s): [string, boolean] => [s, false]),
]);

describe('parseGoBool', () => {
  it.each([...GO_BOOLS])('reads %j as %s', (text, value) => {
    expect(parseGoBool(text)).toBe(value);
  });

  it.each(['', 'yes', 'on', 'tRuE', 'fAlSe', ' true', 'true ', '2', '__proto__', 'toString'])(
    'refuses %j',
    (text) => {
      expect(parseGoBool(text)).toBeUndefined();
    },
  );

  test.prop([fc.string()])('accepts exactly the twelve spellings of strconv.ParseBool', (text) => {
    expect(parseGoBool(text)).toBe(GO_BOOLS.get(text));
  });
});

describe('parseByteSize', () => {
  it.each([
    ['4096', 4096],
    ['10m', 10_000_000],
    ['10MB', 10_000_000],
    ['10Mi', 10_485_760],
    ['10MiB', 10_485_760],
    ['10 mib', 10_485_760],
    ['1.5 GB', 1_500_000_000],
    ['1.1KB', 1100],
    ['512k', 512_000],
    ['512KiB', 524_288],
    ['0', 0],
  ])('reads %j as %d bytes', (text, bytes) => {
    expect(parseByteSize(text)).toEqual({ ok: true, bytes });
  });

  it.each([
    ['', 'is not a size'],
    ['-1', 'is not a size'],
    ['10 furlongs', 'has an unknown unit "furlongs"'],
    ['1.5B', 'is not a whole number of bytes'],
    ['9EiB', 'is more than 9007199254740991 bytes'],
    ['1e3', 'is not a size'],
  ])('refuses %j: %s', (text, message) => {
    const result = parseByteSize(text);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.message).toContain(message);
  });

  test.prop([
    fc.integer({ min: 0, max: 1_000_000 }),
    fc.constantFrom(
      ['', 1],
      ['b', 1],
      ['k', 1e3],
      ['kb', 1e3],
      ['ki', 1024],
      ['kib', 1024],
      ['m', 1e6],
      ['mib', 1024 ** 2],
      ['g', 1e9],
      ['gi', 1024 ** 3],
    ),
    fc.boolean(),
    fc.boolean(),
  ])(
    'a whole number with a unit, in any case, spaced or not, is the number times the unit',
    (n, [unit, factor], upper, spaced) => {
      const text = `${n}${spaced ? ' ' : ''}${upper ? unit.toUpperCase() : unit}`;
      expect(parseByteSize(text)).toEqual({ ok: true, bytes: n * (factor as number) });
    },
  );
});
