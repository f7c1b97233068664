// A valid but hostile job file: nesting through every form the HCL parser recurses on, and integers
// beyond what both sides carry exactly. Each is a 400 naming where; nothing reaches the parser or the store.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { ClusterError } from '../errors.js';
import { parseJobHcl } from './parse-job.js';

const opts = { region: 'global' };
const N = 20_000;
const job = (line2: string): string =>
  `job "x" {\n${line2}\n  group "g" {\n    task "t" {\n      driver = "mock"\n    }\n  }\n}\n`;

async function refusal(hcl: string, canonicalize = false): Promise<ClusterError> {
  const error = await parseJobHcl({ hcl, canonicalize }, opts).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(ClusterError.is(error)).toBe(true);
  return error as ClusterError;
}

describe('deep nesting of every form is a 400 naming its line', () => {
  it.each([
    ['unary minus', `  priority = ${'-'.repeat(N)}1`],
    ['unary not', `  meta = { a = ${'!'.repeat(N)}true }`],
    ['conditionals', `  priority = ${'c ? 1 : '.repeat(N)}2`],
    ['if directives', `  meta = { a = "${'%{ if c }'.repeat(N)}x${'%{ endif }'.repeat(N)}" }`],
    ['for directives', `  meta = { a = "${'%{ for v in l }'.repeat(N)}x${'%{ endfor }'.repeat(N)}" }`],
  ])('%s', async (_form, line2) => {
    const e = await refusal(job(line2));
    expect(e.status).toBe(400);
    expect(e.message).toMatch(
      /^Failed to parse job\.hcl: line 2 is nested \d+ levels deep; at most 100 are accepted\.$/,
    );
  });

  it('directives in a heredoc', async () => {
    const text = `  meta = {\n    a = <<EOT\n${'%{ if c }'.repeat(N)}x${'%{ endif }'.repeat(N)}\nEOT\n  }`;
    const e = await refusal(job(text));
    expect(e.message).toMatch(/^Failed to parse job\.hcl: line 4 is nested/);
  });
});

describe('integers beyond 2^53 - 1 are a 400 naming the field', () => {
  it.each([
    ['1e23', 'TaskGroups[0].Count', '1e+23'],
    ['100000000000000000000', 'TaskGroups[0].Count', '100000000000000000000'],
    ['9007199254740993', 'TaskGroups[0].Count', '9007199254740992'],
    ['-1e400', 'TaskGroups[0].Count', '-Infinity'],
  ])('count = %s', async (count, field, shown) => {
    const hcl = `job "x" {\n  group "g" {\n    count = ${count}\n    task "t" {\n      driver = "mock"\n    }\n  }\n}\n`;
    for (const canonicalize of [false, true]) {
      const e = await refusal(hcl, canonicalize);
      expect(e.status).toBe(400);
      expect(e.message).toContain(`${field}: expected a number of at most 9007199254740991`);
      expect(e.message).toContain(`but got the number ${shown}`);
    }
  });
});

// The parse endpoint's law: any job file built from these hostile forms is parsed or refused with a
// 400, never a 500 and never a parser failure.
const hostile = fc.oneof(
  fc.nat({ max: 300 }).map((n) => `  priority = ${'-'.repeat(n)}1`),
  fc.nat({ max: 300 }).map((n) => `  priority = ${'c ? 1 : '.repeat(n)}2`),
  fc.nat({ max: 300 }).map((n) => `  meta = { a = "${'%{ if c }'.repeat(n)}x${'%{ endif }'.repeat(n)}" }`),
  fc.nat({ max: 300 }).map((n) => `  meta = { a = ${'['.repeat(n)}${']'.repeat(n)} }`),
  fc.oneof(fc.bigInt(), fc.double()).map((n) => `  priority = ${String(n)}`),
);
test.prop([hostile], { numRuns: 40 })('hostile forms are parsed or refused with a 400', async (line2) => {
  const result = await parseJobHcl({ hcl: job(line2) }, opts).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (result !== undefined) {
    expect(ClusterError.is(result) && result.status).toBe(400);
    expect((result as Error).message).not.toMatch(/parser failed/);
  }
});
