// The README's examples, run as written: each block's code (its imports aside) stands in this file
// line for line, which the first test checks, so the README and what runs cannot drift apart.
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { canonicalizeJob } from './canonicalize.js';
import { cronProblem, nextCronLaunch, parseCron } from './cron.js';
import { ValidationError } from './errors.js';
import { jobProblems } from './job-problems.js';
import { formatProblems } from './validate.js';

/** The code lines of the README's ```ts block under the heading, trimmed, without imports and blanks. */
function readmeBlock(heading: string): string[] {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf(`${heading}\n`);
  if (start < 0) return [];
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(start))?.[1] ?? '';
  return block
    .replace(/^import [\s\S]*? from '[^']+';$/gm, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

describe('README', () => {
  it.each(['### Semantic job checks and cron specs'])(
    '%s: every line of the example runs in this file',
    (heading) => {
      const lines = readmeBlock(heading);
      const here = readFileSync(new URL(import.meta.url), 'utf8')
        .split('\n')
        .map((line) => line.trim());
      expect(lines.length).toBeGreaterThan(3);
      let at = 0;
      for (const line of lines) {
        const found = here.indexOf(line, at);
        expect(found, `README line not found here in order: ${line}`).toBeGreaterThanOrEqual(0);
        at = found + 1;
      }
    },
  );
});

describe('Semantic job checks and cron specs', () => {
  it('reports the problems and the next launch the README says', () => {
    const job = canonicalizeJob({
      ID: 'web',
      Priority: 0,
      TaskGroups: [{ Name: 'web', Tasks: [{ Name: 'server', Driver: 'mock', Resources: { MemoryMB: 5 } }] }],
    });
    const problems = jobProblems(job); // [] when the service would schedule it
    const text = formatProblems(problems);
    // Priority: Job priority must be between [1, 100], got 0.
    // TaskGroups[0].Tasks[0].Resources.MemoryMB: Task group "web" task "server" memory must be at least 10 MB, got 5.
    expect(text).toBe(
      [
        'Priority: Job priority must be between [1, 100], got 0.',
        'TaskGroups[0].Tasks[0].Resources.MemoryMB: Task group "web" task "server" memory must be at least 10 MB, got 5.',
      ].join('\n'),
    );
    expect(problems[1]?.path).toBe('/TaskGroups/0/Tasks/0/Resources/MemoryMB');

    const weekdays = parseCron('30 9 * * mon-fri'); // a bad spec throws ValidationError naming the field
    const next = nextCronLaunch(weekdays, Date.parse('2026-01-03T12:00:00Z')); // Monday 2026-01-05 09:30 UTC
    const reason = cronProblem('0 24 * * *'); // 'hour value "24" is out of range 0-23'
    expect(next).toBe(Date.parse('2026-01-05T09:30:00Z'));
    expect(reason).toBe('hour value "24" is out of range 0-23');
    expect(() => parseCron('0 24 * * *')).toThrow(ValidationError);
  });
});
