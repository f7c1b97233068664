// Hostile nesting through every form the parser recurses on, and parser failures that give their memory back.
import { fc, test } from '@fast-check/vitest';
import { afterAll, describe, expect, it } from 'vitest';

import { HclError, hclNesting, MAX_HCL_NESTING, parseHcl } from './index.js';
import { parseUnguarded } from './parse.js';
import { parseInWorker, parserStats, recycleParser } from './parser-host.js';

afterAll(() => recycleParser());

const N = 20_000;
/** Legal HCL nested N deep through each form, on line 2 (the heredoc's body on line 3). */
const forms: Record<string, string> = {
  'unary minus': `a = 1\npriority = ${'-'.repeat(N)}1\n`,
  'unary not, spaced': `a = 1\nok = ${'! '.repeat(N)}true\n`,
  'conditionals (false branch)': `a = 1\nx = ${'c ? 1 : '.repeat(N)}2\n`,
  'conditionals (true branch)': `a = 1\nx = ${'c ? '.repeat(N)}1${' : 2'.repeat(N)}\n`,
  'if directives': `a = 1\nx = "${'%{ if c }'.repeat(N)}x${'%{ endif }'.repeat(N)}"\n`,
  'for directives': `a = 1\nx = "${'%{~ for v in l ~}'.repeat(N)}x${'%{ endfor }'.repeat(N)}"\n`,
  'unary in interpolations': `a = 1\nx = "${'${-'.repeat(N)}1${'}'.repeat(N)}"\n`,
  brackets: `a = 1\nb = ${'['.repeat(N)}${']'.repeat(N)}\n`,
};
const heredoc = `a = 1\nx = <<-EOT\n  ${'%{ for v in l }'.repeat(N)}x${'%{ endfor }'.repeat(N)}\n  EOT\n`;

describe('parseHcl refuses deep nesting of every form, with its line, before the parser runs', () => {
  it.each(Object.entries(forms))('%s', async (_form, text) => {
    const before = parserStats().started;
    const error = await parseHcl('deep.hcl', text).catch((e: unknown) => e);
    expect(HclError.is(error) && [error.kind, error.line]).toEqual(['nesting', 2]);
    expect((error as Error).message).toMatch(
      /^line 2 is nested \d+ levels deep; at most 100 are accepted\.$/,
    );
    expect(parserStats().started).toBe(before);
  });

  it('directives inside a heredoc', async () => {
    const error = await parseHcl('deep.hcl', heredoc).catch((e: unknown) => e);
    expect(HclError.is(error) && [error.kind, error.line]).toEqual(['nesting', 3]);
  });

  it('a heredoc with quotes does not hide the code after it', async () => {
    const text = `x = <<EOT\nsay "hi\nEOT\ny = ${'-'.repeat(500)}1\n`;
    expect(hclNesting(text).line).toBe(4);
    expect((await parseHcl('h.hcl', text).catch((e: unknown) => e)) as HclError).toMatchObject({
      kind: 'nesting',
    });
  });
});

describe('nesting within the limit still parses', () => {
  const shallow: Record<string, [string, unknown]> = {
    unary: [`a = ${'-'.repeat(40)}1\n`, { a: '${' + '-'.repeat(40) + '1}' }],
    conditionals: [`a = ${'c ? 1 : '.repeat(30)}2\n`, {}],
    directives: [`a = "${'%{ if c }'.repeat(30)}x${'%{ endif }'.repeat(30)}"\n`, {}],
    'escaped directives are text': [`a = "${'%%{ if c }'.repeat(500)}"\n`, {}],
    'long binary chains are not nesting': [`a = ${Array(2_000).fill('1').join(' - ')}\n`, {}],
    'dashes in names are not operators': [`a = x${'-'.repeat(300)}y\n`, {}],
  };
  it.each(Object.entries(shallow))('%s', async (_form, [text, expected]) => {
    expect(hclNesting(text).depth).toBeLessThanOrEqual(MAX_HCL_NESTING);
    const parsed = await parseHcl('ok.hcl', text);
    expect(parsed).toMatchObject(expected as object);
  });
});

// Law: the estimate never under-counts. Text built from a random sequence of forms that each wrap
// the rest of the expression, around a run of unary operators and a literal, has a known depth; the
// scan reports at least that.
const wrapper = fc.constantFrom<[string, string, number]>(
  ['-(', ')', 2],
  ['!(', ')', 2],
  ['[', ']', 1],
  ['{ a = ', ' }', 1],
  ['c ? ', ' : 0', 1],
  ['c ? 0 : ', '', 1],
  ['"${', '}"', 2],
  ['"%{ if c }${', '}%{ endif }"', 3],
  ['<<EOT\n%{ for v in l }${', '}%{ endfor }\nEOT\n', 3],
);
test.prop([fc.array(wrapper, { maxLength: 60 }), fc.stringMatching(/^[-!]{0,30}$/)])(
  'the scan never under-counts a known depth',
  (wrappers, unary) => {
    const inner = `${unary}1`;
    const text = `x = ${wrappers.map((w) => w[0]).join('')}${inner}${wrappers
      .map((w) => w[1])
      .reverse()
      .join('')}\n`;
    const known = wrappers.reduce((sum, w) => sum + w[2], unary.length);
    expect(hclNesting(text).depth).toBeGreaterThanOrEqual(known);
  },
);

describe('a parser failure gives its memory back', () => {
  it('the failed worker is terminated and a fresh one parses the next text', async () => {
    const deep = `x = ${'-'.repeat(N)}1\n`;
    for (let round = 0; round < 3; round++) {
      const before = parserStats();
      const error = await parseUnguarded('deep.hcl', deep).catch((e: unknown) => e);
      expect(HclError.is(error) && error.kind).toBe('parser');
      expect(parserStats()).toMatchObject({ recycled: before.recycled + 1, live: false });
      expect(await parseHcl('ok.hcl', 'a = 1\n')).toEqual({ a: 1 });
      expect(parserStats()).toMatchObject({ started: before.started + 1, live: true });
    }
  });

  it('repeated failing parses leave the RSS within a generous bound', async () => {
    const deep = `x = ${'-'.repeat(N)}1\n`;
    await parseHcl('warm.hcl', 'a = 1\n');
    const before = process.memoryUsage().rss;
    for (let round = 0; round < 8; round++) await parseUnguarded('deep.hcl', deep).catch(() => undefined);
    await parseHcl('ok.hcl', 'a = 1\n');
    // a kept instance cost about 130 MB a failure (over 1 GB for 8); a recycled one costs nothing lasting
    expect((process.memoryUsage().rss - before) / 2 ** 20).toBeLessThan(400);
  }, 60_000);
});

describe('the deadline covers the wait for earlier texts', () => {
  it('a text still queued at its deadline is answered busy, not parsed, and the worker is kept', async () => {
    await parseHcl('warm.hcl', 'a = 1\n');
    // A text the parser takes a while over, then one whose deadline passes while it waits.
    const slow = Array.from({ length: 40_000 }, (_, i) => `k${i} = "${'v'.repeat(20)}"\n`).join('');
    const before = parserStats();
    const first = parseInWorker('slow.hcl', slow);
    const waiting = await parseInWorker('queued.hcl', 'b = 2\n', 1);
    expect(waiting).toMatchObject({ ok: false, busy: true, fatal: false });
    expect(waiting.ok || waiting.message).toMatch(/busy with earlier texts/);
    expect((await first).ok).toBe(true);
    expect(parserStats()).toMatchObject({ recycled: before.recycled, started: before.started, live: true });
    expect(await parseHcl('next.hcl', 'c = 3\n')).toEqual({ c: 3 });
  });
});
