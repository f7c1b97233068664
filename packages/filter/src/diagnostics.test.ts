import { expect, it } from 'vitest';
import { formatDiagnostic } from './errors.js';
import { parseFilter } from './parse.js';

// Error wording is user interface: review diffs of test/fixtures/diagnostics.txt.
const bad = [
  '',
  'Name = "x"',
  'Priority > 50',
  "Name == 'x'",
  'Name ==',
  'Name == "x" and',
  'not(Name == "x")',
  '(a == 1)and(b == 2)',
  'a contains"x"',
  'Name == web-1',
  'a == 3x',
  'any L as x { x == 2}',
  'a == "^web-\\d+$"',
  'a == "a\\"b"',
  'a == "abc',
  'foo[3] == 1',
  'foo[bar] == 1',
  'Meta["a" == 1',
  '(a == 1',
  'a == 1)',
  'x in 32',
  '32 == 32',
  'any L as x { x == 1 } and A == 1',
  'A == 1 and any L as x { x == 1 }',
  'not any L as x { x == 1 }',
  'any L as _ { x == 1 }',
  'Status == "running"\n  and Meta.owner = "x"',
  '((((((((((a == 1))))))))))',
];

it('renders every diagnostic of typical mistakes', async () => {
  const out: string[] = [];
  for (const text of bad) {
    const r = parseFilter(text, { maxDepth: 8 });
    out.push(`>>> ${JSON.stringify(text)}`);
    if (r.ok) out.push('(parses)');
    else
      for (const d of r.diagnostics)
        out.push(`[${d.code}] expected: ${d.expected.join(' | ') || '-'}`, formatDiagnostic(text, d));
    out.push('');
  }
  await expect(out.join('\n')).toMatchFileSnapshot('../test/fixtures/diagnostics.txt');
});
