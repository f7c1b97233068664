// The README's example runs here as written (the first test checks that every line stands in this file).
import { readFileSync } from 'node:fs';

import { fc, test } from '@fast-check/vitest';
import { linesMissingInOrder, readmeCodeLines } from '@sked/testkit/readme';
import { describe, expect, it } from 'vitest';

import { HclError, hclNesting, parseHcl } from './index.js';

describe('README', () => {
  it('Example: every line of the example runs in this file', () => {
    const lines = readmeCodeLines(readFileSync(new URL('../README.md', import.meta.url), 'utf8'), 'Example');
    expect(linesMissingInOrder(lines, readFileSync(new URL(import.meta.url), 'utf8'))).toEqual([]);
  });

  it('Example', async () => {
    const log: unknown[][] = [];
    const console = { log: (...values: unknown[]) => log.push(values) };
    const text = 'id = "db"\ncapability {\n  access_mode = "single-node-writer"\n}\n';
    const parsed = await parseHcl('db.hcl', text);
    // { id: 'db', capability: [{ access_mode: 'single-node-writer' }] }
    expect(parsed).toEqual({ id: 'db', capability: [{ access_mode: 'single-node-writer' }] });
    const error = await parseHcl('bad.hcl', 'id = \n').catch((e: unknown) => e);
    if (HclError.is(error)) console.log(error.kind, error.line, error.message);
    // syntax 1 bad.hcl:1,6-2,1: Invalid expression; Expected the start of an expression, but found an invalid expression token.
    expect(log).toEqual([
      [
        'syntax',
        1,
        'bad.hcl:1,6-2,1: Invalid expression; Expected the start of an expression, but found an invalid expression token.',
      ],
    ]);
  });
});

describe('parseHcl', () => {
  it('gives {} for a text of comments only', async () => {
    expect(await parseHcl('empty.hcl', '# nothing\n')).toEqual({});
  });

  it('refuses deep nesting with its line before the parser sees it, and keeps parsing', async () => {
    const deep = `a = 1\nb = ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`;
    const error = await parseHcl('deep.hcl', deep).catch((e: unknown) => e);
    expect(HclError.is(error) && [error.kind, error.line, error.message]).toEqual([
      'nesting',
      2,
      'line 2 is nested 20000 levels deep; at most 100 are accepted.',
    ]);
    expect(await parseHcl('ok.hcl', 'a = [[1]]\n')).toEqual({ a: [[1]] });
  });

  it('reports the line of a syntax error further down, its name escaped in the match', async () => {
    const error = await parseHcl('a+b (1).hcl', 'a = 1\nb = 2\nc = \n').catch((e: unknown) => e);
    expect(HclError.is(error) && [error.kind, error.line]).toEqual(['syntax', 3]);
    expect((error as Error).message).toMatch(/^a\+b \(1\)\.hcl:3,/);
  });

  it('recognises its error by name, not by anything else', () => {
    expect(HclError.is(new HclError('syntax', 'x'))).toBe(true);
    expect(HclError.is(new Error('x'))).toBe(false);
    expect(HclError.is({ name: 'HclError', kind: 'syntax' })).toBe(false);
    expect(HclError.is(null)).toBe(false);
  });

  test.prop([fc.string({ maxLength: 200 })], { numRuns: 50 })(
    'arbitrary text gives an object or an HclError, never anything else',
    async (text) => {
      const result = await parseHcl('any.hcl', text).catch((e: unknown) => e);
      if (result instanceof Error) expect(HclError.is(result) && result.kind !== 'parser').toBe(true);
      else expect(typeof result === 'object' && result !== null && !Array.isArray(result)).toBe(true);
    },
  );
});

describe('hclNesting', () => {
  it('counts nesting outside strings and comments, interpolations included', () => {
    expect(hclNesting('a = "((((("\n# {{{{\nb = [1]\n').depth).toBe(1);
    expect(hclNesting('job "x" {\n  a = "${var.x}"\n}\n')).toEqual({ depth: 3, line: 2 });
  });

  test.prop([fc.string({ maxLength: 300 })])('never throws and never reports a negative depth', (text) => {
    const n = hclNesting(text);
    expect(n.depth).toBeGreaterThanOrEqual(0);
    expect(n.line).toBeGreaterThanOrEqual(1);
  });
});
