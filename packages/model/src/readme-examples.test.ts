// The README's examples, run as written: the code between each pair of README markers below is the
// README block under that heading (imports aside), which the first test checks, so the README and
// what runs cannot drift apart.
import { readFileSync } from 'node:fs';

import { afterEach, describe, expect, it, vi } from 'vitest';

import { readFixture } from '../test/fixtures.js';

import { canonicalizeJob } from './canonicalize.js';
import { cronProblem, nextCronLaunch, parseCron } from './cron.js';
import { ValidationError } from './errors.js';
import { EventEnvelope } from './event.js';
import { jobProblems } from './job-problems.js';
import { jsonEqual } from './json-equal.js';
import { isEventOf } from './typed-event.js';
import { formatProblems, validate } from './validate.js';

/** Code as compared: each line trimmed, blank lines dropped. */
const normalize = (code: string): string =>
  code
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');

/** The README's ```ts block under `### heading`, imports aside. */
function documented(heading: string): string {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf(`### ${heading}\n`));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return normalize(block.replace(/^import [\s\S]*? from '[^']+';$/gm, ''));
}

/** The code of this file between its `README start: heading` and `README end: heading` markers. */
function ran(heading: string): string {
  const source = readFileSync(new URL(import.meta.url), 'utf8');
  const start = source.indexOf(`// README start: ${heading}\n`);
  const end = source.indexOf(`// README end: ${heading}\n`);
  return start < 0 || end < 0 ? '' : normalize(source.slice(source.indexOf('\n', start), end));
}

describe('README', () => {
  it.each(['Semantic job checks and cron specs', 'Typed events'])(
    'the example under "%s" is the code this file runs',
    (heading) => {
      expect(documented(heading).split('\n').length).toBeGreaterThan(5);
      expect(ran(heading)).toBe(documented(heading));
    },
  );
});

describe('Semantic job checks and cron specs', () => {
  it('reports the problems and the next launch the README says', () => {
    // README start: Semantic job checks and cron specs
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
    // README end: Semantic job checks and cron specs
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

describe('Typed events', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    [
      'event-envelope-job',
      [
        ['example', 'running'],
        ['Evaluation', 'EvaluationUpdated'],
        ['Allocation', 'AllocationUpdated'],
        ['Deployment', 'DeploymentStatusUpdate'],
      ],
    ],
    ['event-envelope-node', [[expect.any(String), 'NodeRegistration']]],
    ['an unknown topic', [['Volume', 'VolumeRegistered']]],
  ])('prints what the README says for %s', (name, expected) => {
    const logged: unknown[][] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logged.push(args));
    const volume = { Topic: 'Volume', Type: 'VolumeRegistered', Key: 'v', Namespace: '', FilterKeys: null };
    const line = JSON.stringify(
      name === 'an unknown topic'
        ? { Index: 3, Events: [{ ...volume, Index: 3, Payload: { Volume: { ID: 'v' } } }] }
        : readFixture(name),
    );
    // README start: Typed events
    const envelope = validate(EventEnvelope, JSON.parse(line));
    if (!envelope.ok) throw new Error(formatProblems(envelope.problems));
    for (const event of envelope.value.Events ?? []) {
      if (isEventOf(event, 'Job')) console.log(event.Payload.Job.ID, event.Payload.Job.Status);
      else if (isEventOf(event, 'Node')) console.log(event.Payload.Node.Name, event.Type);
      else console.log(event.Topic, event.Type); // any other topic, one a newer server added included
    }
    // README end: Typed events
    expect(logged).toEqual(expected);
  });
});

describe('Equality of JSON values', () => {
  it('answers what the README says', () => {
    expect(ran('Equality of JSON values').split('\n')).toHaveLength(3);
    expect(ran('Equality of JSON values')).toBe(documented('Equality of JSON values'));
    // README start: Equality of JSON values
    const reordered = jsonEqual({ Cpu: 100, MemoryMB: 256 }, { MemoryMB: 256, Cpu: 100 }); // true
    const nullIsAbsent = jsonEqual({ Meta: null }, {}); // true
    const listsAreOrdered = jsonEqual([1, 2], [2, 1]); // false
    // README end: Equality of JSON values
    expect([reordered, nullIsAbsent, listsAreOrdered]).toEqual([true, true, false]);
  });
});
