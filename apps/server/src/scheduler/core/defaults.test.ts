import type { SchedulerJobInput } from '@sked/model';
import { describe, expect, it } from 'vitest';

import { prepareJob } from './defaults.js';

const group = { Name: 'g', Tasks: [{ Name: 't', Driver: 'mock' }] };

/** prepareJob of a job (typed as the route hands it over). */
const prepare = (input: SchedulerJobInput) => () => prepareJob(input, { region: 'global' });
/** The 400 ClusterError prepareJob throws. */
const badRequest = (message: string) =>
  expect.objectContaining({ name: 'ClusterError', status: 400, message });

describe('prepareJob', () => {
  it("answers the model's semantic problems as the service's sentences, in order", () => {
    expect(prepare({ ID: 'web', Priority: 0, TaskGroups: [group, group] })).toThrow(
      badRequest(
        'Job validation failed: Job priority must be between [1, 100], got 0. Task group "g" is defined more than once.',
      ),
    );
    expect(prepare({ ID: 'p', Type: 'batch', Periodic: { Spec: '@often' }, TaskGroups: [group] })).toThrow(
      badRequest(
        'Job validation failed: Periodic job has an invalid cron spec "@often": expected 5 fields (minute hour day month weekday), got 1.',
      ),
    );
  });

  it('names the field with its path when a value is of the wrong JSON type (input that skipped the schema)', () => {
    // the route's schema refuses it; JSON that skipped it (as read) still gets a clear sentence
    const untyped: SchedulerJobInput = JSON.parse(
      JSON.stringify({ ID: 'web', Priority: '5', TaskGroups: [group] }),
    );
    expect(prepare(untyped)).toThrow(
      badRequest('Job validation failed: Priority: expected a number but got the string "5".'),
    );
  });

  it('returns the canonicalized job when nothing is wrong', () => {
    const job = prepare({ ID: 'web', Type: 'system', TaskGroups: [group] })();
    expect(job).toMatchObject({ ID: 'web', Type: 'system', Priority: 50 });
    expect(job.TaskGroups[0]?.ReschedulePolicy).toBeNull();
  });
});
