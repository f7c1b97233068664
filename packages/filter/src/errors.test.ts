import { describe, expect, it } from 'vitest';
import {
  FilterEvaluationError,
  FilterSyntaxError,
  formatCaret,
  formatDiagnostic,
  lineColumn,
  type FilterDiagnostic,
} from './errors.js';

const diag: FilterDiagnostic = {
  kind: 'parse',
  code: 'unexpected-token',
  message: 'Expected "==" but found "x".',
  offset: 9,
  length: 1,
  line: 2,
  column: 3,
  expected: ['"=="'],
};

describe('FilterSyntaxError', () => {
  it('copies the first diagnostic and brands itself', () => {
    const e = new FilterSyntaxError('a == 1\nb x', [diag], { cause: 'c' });
    expect(e).toMatchObject({
      name: 'FilterSyntaxError',
      code: 'unexpected-token',
      line: 2,
      column: 3,
      offset: 9,
      length: 1,
      expected: ['"=="'],
    });
    expect(e.message).toBe('2:3: Expected "==" but found "x".');
    expect(e.cause).toBe('c');
    expect(e).toBeInstanceOf(Error);
    expect(FilterSyntaxError.is(e)).toBe(true);
    expect(FilterEvaluationError.is(e)).toBe(false);
    expect(e.format()).toBe('2:3: Expected "==" but found "x".\nb x\n  ^');
  });

  it('is recognised across copies through the Symbol.for brand', () => {
    const foreign = { [Symbol.for('@sked/filter/FilterSyntaxError')]: true };
    expect(FilterSyntaxError.is(foreign)).toBe(true);
    expect(FilterSyntaxError.is(new Error('x'))).toBe(false);
    expect(FilterSyntaxError.is(null)).toBe(false);
    expect(FilterSyntaxError.is('FilterSyntaxError')).toBe(false);
  });

  it('has a fallback diagnostic when given none', () => {
    const e = new FilterSyntaxError('x', []);
    expect(e.diagnostics).toHaveLength(1);
    expect(e.message).toBe('1:1: The filter could not be read.');
  });
});

describe('FilterEvaluationError', () => {
  it('computes line and column from the source', () => {
    const e = new FilterEvaluationError({
      code: 'missing-key',
      reason: 'The selector X does not resolve.',
      selector: 'X',
      valueKind: 'missing',
      span: { start: 4, end: 10 },
      source: 'a\nb X == 1',
    });
    expect(e).toMatchObject({ name: 'FilterEvaluationError', line: 2, column: 3, offset: 4, length: 6 });
    expect(e.format()).toBe('2:3: The selector X does not resolve.\nb X == 1\n  ^~~~~~');
    expect(FilterEvaluationError.is(e)).toBe(true);
  });

  it('falls back to offset-based columns without a source', () => {
    const e = new FilterEvaluationError({
      code: 'missing-key',
      reason: 'R.',
      selector: 'X',
      valueKind: 'missing',
      span: { start: 4, end: 5 },
      source: undefined,
    });
    expect(e.message).toBe('1:5: R.');
    expect(e.format()).toBe('1:5: R.');
  });
});

describe('formatting helpers', () => {
  it('counts columns in code points and renders tabs as spaces', () => {
    expect(lineColumn('😀x', 2)).toEqual({ line: 1, column: 2 });
    expect(lineColumn('a\r\nb', 3)).toEqual({ line: 2, column: 1 });
    expect(formatCaret('\t😀 == x', { offset: 3, length: 2 })).toBe(' 😀 == x\n  ^~');
    expect(formatCaret('abc', { offset: 3, length: 0 })).toBe('abc\n   ^');
    expect(formatDiagnostic('a == 1\nb x', diag)).toBe('2:3: Expected "==" but found "x".\nb x\n  ^');
  });
});
