import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { DEFAULT_WAIT_MS, formatWait, MAX_WAIT_MS, parseWait } from './index.js';

describe('parseWait', () => {
  it.each([
    ['10s', 10_000],
    ['5m', 300_000],
    ['300ms', 300],
    ['1m30s', 90_000],
    ['1.5s', 1_500],
    ['.5s', 500],
    ['2000us', 2],
    ['1000000ns', 1],
    ['9m59s', 599_000],
  ])('parses %j as %d ms', (text, ms) => {
    expect(parseWait(text)).toEqual({ ok: true, ms });
  });

  it.each([undefined, '', '0', '0s', '-5s'])('uses the 5 minute default for %j', (text) => {
    expect(parseWait(text)).toEqual({ ok: true, ms: DEFAULT_WAIT_MS });
  });

  it.each(['1h30m', '11m', '1h', '100000h'])('caps %j at 10 minutes', (text) => {
    expect(parseWait(text)).toEqual({ ok: true, ms: MAX_WAIT_MS });
  });

  it.each([
    'soon',
    '10',
    ' 10s',
    '10s ',
    '10 s',
    '5d',
    's',
    '1e3s',
    '--5s',
    '10S',
    '1.2.3s',
    '9999999999999999h',
  ])('rejects %j with Invalid wait time', (text) => {
    expect(parseWait(text)).toEqual({ ok: false, message: 'Invalid wait time' });
  });
});

describe('formatWait', () => {
  it('formats milliseconds that parseWait reads back', () => {
    expect(formatWait(1500)).toBe('1500ms');
    expect(parseWait(formatWait(1500))).toEqual({ ok: true, ms: 1500 });
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('rejects %d', (ms) => {
    expect(() => formatWait(ms)).toThrow(/non-negative number of milliseconds/);
  });
});

describe('properties', () => {
  test.prop([fc.string({ maxLength: 24 })])(
    'never throws and answers a wait in (0, 10 min] or the error',
    (text) => {
      const result = parseWait(text);
      if (result.ok) {
        expect(result.ms).toBeGreaterThan(0);
        expect(result.ms).toBeLessThanOrEqual(MAX_WAIT_MS);
      } else {
        expect(result.message).toBe('Invalid wait time');
      }
    },
  );

  const unitMs = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 } as const;
  test.prop([
    fc.array(fc.tuple(fc.nat(2_000), fc.constantFrom<keyof typeof unitMs>('h', 'm', 's', 'ms')), {
      minLength: 1,
      maxLength: 4,
    }),
  ])('a duration of several parts is the sum of its parts, defaulted and capped', (parts) => {
    const text = parts.map(([n, unit]) => `${n}${unit}`).join('');
    const sum = parts.reduce((total, [n, unit]) => total + n * unitMs[unit], 0);
    expect(parseWait(text)).toEqual({
      ok: true,
      ms: sum === 0 ? DEFAULT_WAIT_MS : Math.min(sum, MAX_WAIT_MS),
    });
  });

  test.prop([fc.double({ min: 0.001, max: 10 * MAX_WAIT_MS, noNaN: true })])(
    'parseWait reads back what formatWait writes, rounded up and capped',
    (ms) => {
      expect(parseWait(formatWait(ms))).toEqual({ ok: true, ms: Math.min(Math.ceil(ms), MAX_WAIT_MS) });
    },
  );
});
