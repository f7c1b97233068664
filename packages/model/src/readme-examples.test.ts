// The README's example, run as written: the code between the README markers below is the README block
// (imports aside), which the first test checks, so the README and what runs cannot drift apart.
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { canonicalizeJob } from './canonicalize.js';
import { cronProblem, nextCronLaunch, parseCron } from './cron.js';
import { ValidationError } from './errors.js';
import { jobProblems } from './job-problems.js';
import { formatProblems } from './validate.js';

/** Code as compared: each line trimmed, blank lines dropped. */
const normalize = (code: string): string =>
  code
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');

describe('README', () => {
  it('the example under "Semantic job checks and cron specs" is the code this file runs', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('### Semantic job checks and cron specs\n'));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const documented = normalize(block.replace(/^import [\s\S]*? from '[^']+';$/gm, ''));
    const source = readFileSync(new URL(import.meta.url), 'utf8');
    // lastIndexOf: the markers' text also stands in this line
    const ran = source.slice(source.lastIndexOf('// README start') + 15, source.lastIndexOf('// README end'));
    expect(documented.split('\n').length).toBeGreaterThan(5);
    expect(normalize(ran)).toBe(documented);
  });
});

describe('Semantic job checks and cron specs', () => {
  it('reports the problems and the next launch the README says', () => {
    // README start
    const job = canonicalizeJob({
      ID: 'web',
      Priority: 0,
      TaskGroups: [{ Name: 'web', Tasks: [{ Name: 'server', Driver: 'mock', Resources: { MemoryMB: 5 } }] }],
    });
    const problems = jobProblems(job); // [] when the service would schedule it
    const text = formatProblems(problems);
    // Priority: Job priority must be between [1, 100], got 0.
    // TaskGroups[0].Tasks[0].Resources.MemoryMB: Task group "web" task "server" memory must be at least 10 MB, got 5.

    const weekdays = parseCron('30 9 * * mon-fri'); // a bad spec throws ValidationError naming the field
    const next = nextCronLaunch(weekdays, Date.parse('2026-01-03T12:00:00Z')); // Monday 2026-01-05 09:30 UTC
    const reason = cronProblem('0 24 * * *'); // 'hour value "24" is out of range 0-23'
    // README end
    expect(text).toBe(
      [
        'Priority: Job priority must be between [1, 100], got 0.',
        'TaskGroups[0].Tasks[0].Resources.MemoryMB: Task group "web" task "server" memory must be at least 10 MB, got 5.',
      ].join('\n'),
    );
    expect(problems[1]?.path).toBe('/TaskGroups/0/Tasks/0/Resources/MemoryMB');
    expect(next).toBe(Date.parse('2026-01-05T09:30:00Z'));
    expect(reason).toBe('hour value "24" is out of range 0-23');
    expect(() => parseCron('0 24 * * *')).toThrow(ValidationError);
  });
});
