import { describe, expect, it } from 'vitest';
import { goParseBool, goParseFloat, goParseInt, goUnquote, underscoreOK, utf8Decode } from './go-strconv.js';

describe('goParseFloat', () => {
  it.each([
    ['1', 1],
    ['-1.5', -1.5],
    ['+2', 2],
    ['.5', 0.5],
    ['5.', 5],
    ['1e3', 1000],
    ['1E-2', 0.01],
    ['5_0', 50],
    ['0x1.9p5', 50],
    ['0x1p-2', 0.25],
    ['-0x10P0', -16],
    ['inf', Infinity],
    ['-Infinity', -Infinity],
    ['+INF', Infinity],
    ['1e-400', 0],
  ])('parses %j', (s, v) => {
    expect(goParseFloat(s)).toEqual({ ok: true, value: v });
  });

  it('parses NaN', () => {
    const r = goParseFloat('nan');
    expect(r.ok && Number.isNaN(r.value)).toBe(true);
  });

  it.each(['', 'abc', '0x32', '1e', '.', '_5', '5_', '5__0', '+nan', ' 1', '1 ', '0x', '0xp1', 'infinit'])(
    'rejects %j as syntax',
    (s) => {
      expect(goParseFloat(s)).toEqual({ ok: false, reason: 'syntax' });
    },
  );

  it('reports overflow as a range error', () => {
    expect(goParseFloat('1e999')).toEqual({ ok: false, reason: 'range' });
    expect(goParseFloat('0x1p99999')).toEqual({ ok: false, reason: 'range' });
  });
});

describe('goParseInt (base 0)', () => {
  it.each([
    ['0', 0n],
    ['01', 1n],
    ['010', 8n],
    ['0x1F', 31n],
    ['0o17', 15n],
    ['0b101', 5n],
    ['-3', -3n],
    ['+3', 3n],
    ['1_000', 1000n],
    ['0x_1', 1n],
    ['9223372036854775807', 9223372036854775807n],
  ])('parses %j', (s, v) => {
    expect(goParseInt(s)).toEqual({ ok: true, value: v });
  });

  it.each(['', '-', '08', '0x', '1.0', 'abc', '1__0', '_1', '1_', '0b2'])('rejects %j', (s) => {
    expect(goParseInt(s)).toEqual({ ok: false, reason: 'syntax' });
  });

  it('reports int64 overflow', () => {
    expect(goParseInt('9223372036854775808')).toEqual({ ok: false, reason: 'range' });
  });
});

describe('goParseBool', () => {
  it.each(['1', 't', 'T', 'TRUE', 'true', 'True'])('%j is true', (s) =>
    expect(goParseBool(s)).toEqual({ ok: true, value: true }),
  );
  it.each(['0', 'f', 'F', 'FALSE', 'false', 'False'])('%j is false', (s) =>
    expect(goParseBool(s)).toEqual({ ok: true, value: false }),
  );
  it.each(['yes', 'on', 'fAlSe', '', ' true'])('%j is invalid', (s) => expect(goParseBool(s).ok).toBe(false));
});

describe('goUnquote and helpers', () => {
  it('handles raw and double-quoted literals', () => {
    expect(goUnquote('`a\\n\r`')).toEqual({ ok: true, value: 'a\\n' });
    expect(goUnquote('"\\101\\x42\\u0043"')).toEqual({ ok: true, value: 'ABC' });
    expect(goUnquote('"a\\"')).toMatchObject({ ok: false });
    expect(goUnquote('"\\u12"')).toMatchObject({ ok: false });
  });

  it('checks underscores like Go', () => {
    expect(underscoreOK('1_0')).toBe(true);
    expect(underscoreOK('0x_f')).toBe(true);
    expect(underscoreOK('1__0')).toBe(false);
    expect(underscoreOK('-1_0')).toBe(true);
  });

  it('decodes UTF-8 with replacement of invalid bytes', () => {
    expect(utf8Decode([0x61, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80])).toBe('aé😀');
    expect(utf8Decode([0xff, 0xc3])).toBe('\uFFFD\uFFFD');
    expect(utf8Decode([0xed, 0xa0, 0x80])).toBe('\uFFFD\uFFFD\uFFFD');
    expect(utf8Decode([0xc0, 0x80])).toBe('\uFFFD\uFFFD');
  });
});
