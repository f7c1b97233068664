import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { linesMissingInOrder, readmeCodeLines } from './readme.js';

const markdown = [
  '# pkg',
  '## Quick example',
  'Text.',
  '```sh',
  'pnpm add pkg',
  '```',
  '```ts',
  "import { a } from 'pkg';",
  '',
  '  const x = a(1);',
  'console.log(x);',
  '```',
  '### Other',
  '```ts',
  'other();',
  '```',
].join('\n');

describe('readmeCodeLines', () => {
  it('returns the first ts block under the heading, trimmed, without imports and blank lines', () => {
    expect(readmeCodeLines(markdown, 'Quick example')).toEqual(['const x = a(1);', 'console.log(x);']);
    expect(readmeCodeLines(markdown, 'Other')).toEqual(['other();']);
  });

  it.each([
    ['a missing heading', 'Nope', 'The README has no heading "Nope".'],
    ['a heading without a ts block after it', 'pkg', undefined],
    ['a heading that only starts the same', 'Quick', 'The README has no heading "Quick".'],
  ])('%s throws, naming the heading', (_what, heading, message) => {
    const noBlock = '# pkg\nno code\n';
    const text = heading === 'pkg' ? noBlock : markdown;
    expect(() => readmeCodeLines(text, heading)).toThrow(
      message ?? 'The README has no ```ts block under "pkg".',
    );
  });
});

describe('linesMissingInOrder', () => {
  it.each<[string, string[], string, string[]]>([
    ['all in order, with lines between', ['a();', 'b();'], 'a();\nx();\n  b();', []],
    ['one missing', ['a();', 'c();'], 'a();\nb();', ['c();']],
    ['out of order', ['b();', 'a();'], 'a();\nb();', ['a();']],
    ['part of a line is not the line', ['a'], 'a();', ['a']],
    ['nothing expected', [], '', []],
  ])('%s', (_what, lines, source, missing) => {
    expect(linesMissingInOrder(lines, source)).toEqual(missing);
  });

  describe('properties', () => {
    const line = fc.string({ maxLength: 12 }).filter((s) => !s.includes('\n'));
    test.prop([fc.array(line, { maxLength: 20 })])('a text holds its own lines', (lines) => {
      expect(linesMissingInOrder(lines, lines.join('\n'))).toEqual([]);
    });

    test.prop([fc.array(line, { maxLength: 20 }), fc.array(fc.boolean(), { maxLength: 20 })])(
      'a text holds every subsequence of its lines',
      (lines, keep) => {
        const subsequence = lines.filter((_, i) => keep[i] ?? true);
        expect(linesMissingInOrder(subsequence, lines.join('\n'))).toEqual([]);
      },
    );
  });
});
