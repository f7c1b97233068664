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
