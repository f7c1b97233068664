// The README's examples, run as written: each block's code (its imports aside) stands in this file
// line for line, which the first test checks, so the README and what runs cannot drift apart.
import { readFileSync } from 'node:fs';

import { fc, test } from '@fast-check/vitest';
import { Job, validate } from '@sked/model';
import { describe, expect, it } from 'vitest';

import {
  generateDataset,
  generateJobs,
  invalidMutation,
  jobArbitrary,
  jobFactory,
  makeJob,
  makeStoredJob,
  makeTaskGroup,
} from './index.js';
import { linesMissingInOrder, readmeCodeLines } from './readme.js';

describe('README', () => {
  it.each(['Quick example', 'Job factories', 'README examples in tests (`@sked/testkit/readme`)'])(
    '%s: every line of the example runs in this file',
    (heading) => {
      // in a test beside the README: every line of the example under `heading` stands in this file
      const lines = readmeCodeLines(readFileSync(new URL('../README.md', import.meta.url), 'utf8'), heading);
      expect(linesMissingInOrder(lines, readFileSync(new URL(import.meta.url), 'utf8'))).toEqual([]);
      expect(lines.length).toBeGreaterThan(1);
    },
  );
});

describe('Quick example', () => {
  test.prop([jobArbitrary(), fc.nat()])('a bad field is reported at its path', (job, pick) => {
    const mutation = invalidMutation(Job, job, pick); // one scalar field replaced by a wrong type
    fc.pre(mutation !== undefined);
    const result = validate(Job, mutation.value);
    expect(result.ok ? [] : result.problems.map((p) => p.path)).toContain(mutation.path);
  });

  it('generates a dataset and list items', () => {
    const { jobs, allocations, summaries } = generateDataset({ seed: 1, jobs: 1000 });
    const items = generateJobs(100_000, 7); // JobListStub[] with Meta, ~0.5 s
    expect([jobs.length, summaries.length]).toEqual([1000, 1000]);
    expect(allocations.length).toBeGreaterThan(1000);
    expect(items).toHaveLength(100_000);
    expect(items[0]?.Meta).toBeDefined();
  });
});

describe('Job factories', () => {
  it('builds the jobs the README says', () => {
    // One group `web` of one mock task `server` (100 MHz, 64 MB), in dc1; overrides on top.
    const web = makeJob({ ID: 'web', group: { Count: 3 }, task: { Config: { run_for: '1h' } } });
    const count = web.TaskGroups?.[0]?.Count; // 3
    expect(count).toBe(3);
    expect(web.TaskGroups?.[0]?.Tasks?.[0]).toEqual({
      Name: 'server',
      Driver: 'mock',
      Config: { run_for: '1h' },
      Resources: { CPU: 100, MemoryMB: 64 },
    });

    // Shared defaults for one test file; `group` and `task` merge field by field.
    const batchJob = jobFactory({ Type: 'batch', group: { Name: 'work' } });
    const report = batchJob('report', { Meta: { owner: 'team-a' }, task: { Config: { run_for: '1s' } } });
    const group = report.TaskGroups?.[0]?.Name; // 'work'
    expect(report).toMatchObject({ ID: 'report', Type: 'batch', Meta: { owner: 'team-a' } });
    expect(group).toBe('work');
    expect(report.TaskGroups?.[0]?.Tasks?.[0]?.Config).toEqual({ run_for: '1s' });

    // TaskGroups replaces the default group; giving it with `group` or `task` throws a TypeError.
    const pair = makeJob({
      ID: 'pair',
      TaskGroups: [makeTaskGroup({ Name: 'a' }), makeTaskGroup({ Name: 'b' })],
    });
    expect(pair.TaskGroups?.map((g) => g.Name)).toEqual(['a', 'b']);
    expect(() => makeJob({ TaskGroups: [], task: {} })).toThrow(TypeError);

    // A stored job as the service returns it: canonicalizeJob's defaults, Version 0, indexes at 7.
    const stored = makeStoredJob({ ID: 'web' }, { index: 7 });
    const priority = stored.Priority; // 50
    expect(priority).toBe(50);
    expect(stored).toMatchObject({ Version: 0, Status: 'pending', CreateIndex: 7 });
    expect(validate(Job, stored).ok).toBe(true);
  });
});
