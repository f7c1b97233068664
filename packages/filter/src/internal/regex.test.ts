import { fc, test } from '@fast-check/vitest';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { compileRegex } from './regex.js';

const test1 = (pattern: string, input: string): boolean => {
  const r = compileRegex(pattern);
  if (!r.ok) throw new Error(r.reason);
  return r.test(input);
};

describe('compileRegex', () => {
  it.each([
    ['^web-.*', 'web-1', true],
    ['^web-.*', 'xweb-1', false],
    ['web', 'a web b', true],
    ['-1$', 'web-1', true],
    ['^web$', 'web', true],
    ['^web$', 'web\n', false],
    ['.*web', 'x\nweb', true],
    ['^a\\.b', 'a.b', true],
    ['^a\\.b', 'axb', false],
    ['(?i)^WEB', 'web', true],
    ['^\\d+$', '123', true],
  ])('%j on %j is %s', (pattern, input, expected) => {
    expect(test1(pattern, input)).toBe(expected);
  });

  it('reports RE2 syntax errors', () => {
    expect(compileRegex('(')).toMatchObject({ ok: false });
    expect(compileRegex('(?=x)')).toMatchObject({ ok: false });
    expect(compileRegex('x{1001}')).toMatchObject({ ok: false });
  });

  test.prop([
    fc.constantFrom('^', ''),
    fc.stringMatching(/^[a-c.\\-]{0,4}$/),
    fc.constantFrom('', '$', '.*'),
    fc.string({ maxLength: 8 }).map((s) => s.replaceAll(/[^abc.\n-]/g, 'a')),
  ])('the literal fast path agrees with RE2', (anchor, body, tail, input) => {
    const pattern = `${anchor}${body}${tail}`;
    let expected: boolean | 'invalid';
    try {
      expected = RE2JS.compile(pattern).matcher(input).find();
    } catch {
      expected = 'invalid';
    }
    const r = compileRegex(pattern);
    expect(r.ok ? r.test(input) : 'invalid').toBe(expected);
  });
});
