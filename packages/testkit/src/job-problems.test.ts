// The factories' jobs are valid for the scheduler, not only for the schema: @sked/model's semantic checks
// (jobProblems) find nothing in them, whatever valid fields a test overrides. (The model cannot depend
// on this package, so the property lives here.)
import { fc, test } from '@fast-check/vitest';
import { canonicalizeJob, jobProblems, JobType } from '@sked/model';
import { describe, expect, it } from 'vitest';

import { jobFactory, makeJob, makeStoredJob, makeTask, makeTaskGroup } from './index.js';

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
const names = (min: number, max: number) => fc.uniqueArray(name, { minLength: min, maxLength: max });

describe('the factories make jobs the scheduler accepts', () => {
  it('with their defaults', () => {
    expect(jobProblems(canonicalizeJob(makeJob()))).toEqual([]);
    expect(jobProblems(makeStoredJob({ ID: 'web' }, { index: 7 }))).toEqual([]);
    const batchJob = jobFactory({ Type: 'batch', group: { Name: 'work' } });
    expect(jobProblems(canonicalizeJob(batchJob('report', { task: { Config: { run_for: '1s' } } })))).toEqual(
      [],
    );
  });

  test.prop([
    name,
    fc.constantFrom(...Object.values(JobType)),
    fc.integer({ min: 1, max: 100 }),
    names(1, 3),
    names(1, 3),
    fc.integer({ min: 0, max: 10 }),
    fc.integer({ min: 1, max: 4000 }),
    fc.integer({ min: 10, max: 4096 }),
    fc.option(fc.constantFrom('@daily', '*/5 * * * *', '0 3 * * mon-fri'), { nil: undefined }),
  ])(
    'with any valid overrides: no problem',
    (id, type, priority, groupNames, taskNames, count, cpu, memory, cron) => {
      const job = makeJob({
        ID: id,
        Type: type,
        Priority: priority,
        ...(cron === undefined ? {} : { Periodic: { Spec: cron } }),
        TaskGroups: groupNames.map((group) =>
          makeTaskGroup({
            Name: group,
            Count: count,
            Tasks: taskNames.map((task) =>
              makeTask({ Name: task, Resources: { CPU: cpu, MemoryMB: memory } }),
            ),
          }),
        ),
      });
      expect(jobProblems(canonicalizeJob(job))).toEqual([]);
      expect(jobProblems(makeStoredJob({ ...job }))).toEqual([]);
    },
  );
});
