import { fc, test } from '@fast-check/vitest';
import * as M from '@sked/model';
import { describe, expect, it } from 'vitest';

import { nameArbitrary } from './arbitraries/common.js';
import { taskInputArbitrary } from './arbitraries/jobs.js';
import { jobFactory, makeJob, makeStoredJob, makeTask, makeTaskGroup, makeWideJob } from './factories.js';

/** The problems of `validate`, as text ('' when valid). */
function problemsText(schema: M.TSchema, value: unknown): string {
  const result = M.validate(schema, value);
  return result.ok ? '' : M.formatProblems(result.problems);
}

describe('makeJob', () => {
  it('builds one service job of one mock task, valid as a JobInput', () => {
    const job = makeJob();
    expect(job).toEqual({
      ID: 'example',
      Type: 'service',
      Datacenters: ['dc1'],
      TaskGroups: [
        {
          Name: 'web',
          Count: 1,
          Tasks: [{ Name: 'server', Driver: 'mock', Config: {}, Resources: { CPU: 100, MemoryMB: 64 } }],
        },
      ],
    });
    expect(problemsText(M.JobInput, job)).toBe('');
  });

  it('puts job, group and task overrides where they belong', () => {
    // Arrange
    const overrides = {
      ID: 'api',
      Type: 'batch' as const,
      Meta: { team: 'a' },
      group: { Name: 'g', Count: 3 },
      task: { Name: 't', Config: { run_for: '1h' } },
    };
    // Act
    const job = makeJob(overrides);
    // Assert
    expect(job).toMatchObject({ ID: 'api', Type: 'batch', Meta: { team: 'a' }, Datacenters: ['dc1'] });
    expect(job.TaskGroups).toEqual([
      makeTaskGroup({ Name: 'g', Count: 3, Tasks: [makeTask({ Name: 't', Config: { run_for: '1h' } })] }),
    ]);
    expect(job).not.toHaveProperty('group');
    expect(job).not.toHaveProperty('task');
  });

  it('takes TaskGroups and group.Tasks as given', () => {
    const groups = [makeTaskGroup({ Name: 'a' }), makeTaskGroup({ Name: 'b' })];
    expect(makeJob({ TaskGroups: groups }).TaskGroups).toBe(groups);
    const tasks = [makeTask({ Name: 'one' }), makeTask({ Name: 'two' })];
    expect(makeJob({ group: { Tasks: tasks } }).TaskGroups?.[0]?.Tasks).toBe(tasks);
  });

  it('refuses overrides that would be ignored, saying which', () => {
    expect(() => makeJob({ TaskGroups: [], group: { Count: 2 } })).toThrow(
      new TypeError('makeJob: give either TaskGroups or group/task overrides, not both.'),
    );
    expect(() => makeJob({ TaskGroups: [], task: { Driver: 'docker' } })).toThrow(
      /TaskGroups or group\/task/,
    );
    expect(() => makeJob({ group: { Tasks: [] }, task: { Driver: 'docker' } })).toThrow(
      new TypeError('makeJob: give either group.Tasks or task overrides, not both.'),
    );
  });

  it('returns new objects on every call, so a test may change what it got', () => {
    const first = makeJob();
    first.TaskGroups![0]!.Tasks![0]!.Resources!.CPU = 9999;
    (first.Datacenters as string[]).push('dc2');
    expect(makeJob()).toEqual(makeJob({}));
    expect(makeJob().TaskGroups![0]!.Tasks![0]!.Resources!.CPU).toBe(100);
    expect(makeJob().Datacenters).toEqual(['dc1']);
  });
});

describe('jobFactory', () => {
  it('merges the defaults with each call, group and task field by field', () => {
    // Arrange
    const batchJob = jobFactory({
      Type: 'batch',
      group: { Name: 'work' },
      task: { Config: { run_for: '1s' } },
    });
    // Act
    const job = batchJob('report', { group: { Count: 2 }, task: { Name: 'job' } });
    // Assert
    expect(job).toEqual(
      makeJob({
        ID: 'report',
        Type: 'batch',
        group: { Name: 'work', Count: 2 },
        task: { Name: 'job', Config: { run_for: '1s' } },
      }),
    );
    expect(batchJob('plain')).toEqual(
      makeJob({ ID: 'plain', Type: 'batch', group: { Name: 'work' }, task: { Config: { run_for: '1s' } } }),
    );
  });

  it('lets TaskGroups replace the default group with its group and task defaults', () => {
    const groups = [makeTaskGroup({ Name: 'only' })];
    const factory = jobFactory({ Type: 'batch', group: { Count: 3 }, task: { Name: 'x' } });
    expect(factory('a', { TaskGroups: groups })).toEqual({
      ...makeJob({ ID: 'a', Type: 'batch' }),
      TaskGroups: groups,
    });
    expect(() => factory('a', { TaskGroups: groups, group: { Count: 1 } })).toThrow(TypeError);
  });

  it('names the job after its first argument, whatever the overrides say', () => {
    expect(jobFactory({ ID: 'default' })('mine', { ID: 'other' }).ID).toBe('mine');
  });
});

describe('makeStoredJob', () => {
  it('completes the job with the model defaults and server fields', () => {
    const job = makeStoredJob({ ID: 'web', group: { Count: 2 } }, { index: 7, region: 'eu' });
    expect(problemsText(M.Job, job)).toBe('');
    expect(job).toMatchObject({
      ID: 'web',
      Name: 'web',
      Namespace: 'default',
      Region: 'eu',
      Status: 'pending',
      Priority: 50,
      Version: 0,
      CreateIndex: 7,
      JobModifyIndex: 7,
      ModifyIndex: 7,
    });
    expect(job.TaskGroups[0]?.Count).toBe(2);
    expect(makeStoredJob().Region).toBe('global');
  });
});

describe('makeWideJob', () => {
  it('builds one service job of `groups` small groups, valid as a JobInput', () => {
    const job = makeWideJob('big', 3);
    expect(problemsText(M.JobInput, job)).toBe('');
    expect(job).toMatchObject({ ID: 'big', Name: 'big', Type: 'service', Datacenters: ['dc1'] });
    expect(job.TaskGroups?.map((g) => g.Name)).toEqual(['group-0', 'group-1', 'group-2']);
    for (const group of job.TaskGroups ?? []) {
      expect(group.Count).toBe(1);
      expect(group.Tasks).toEqual([
        { Name: 'server', Driver: 'mock', Config: { run_for: '1h' }, Resources: { CPU: 10, MemoryMB: 10 } },
      ]);
    }
    expect(makeWideJob('none', 0).TaskGroups).toEqual([]);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 100_001])(
    'refuses %s groups, naming the range',
    (groups) => {
      expect(() => makeWideJob('bad', groups)).toThrow(
        new RangeError(`makeWideJob: groups must be a whole number from 0 to 100000, got ${String(groups)}`),
      );
    },
  );
});

describe('properties', () => {
  test.prop([nameArbitrary(), fc.integer({ min: 0, max: 50 }), taskInputArbitrary()])(
    'any ID, count and task give a valid job, and its stored form is a valid Job',
    (id, count, task) => {
      const job = makeJob({ ID: id, group: { Count: count }, task });
      expect(problemsText(M.JobInput, job)).toBe('');
      expect(job.TaskGroups?.[0]?.Tasks?.[0]).toEqual({ ...makeTask(), ...task });
      expect(problemsText(M.Job, makeStoredJob({ ID: id, group: { Count: count }, task }))).toBe('');
    },
  );

  test.prop([nameArbitrary(), nameArbitrary()])(
    'a factory call equals makeJob with the merged overrides',
    (id, name) => {
      const factory = jobFactory({ group: { Name: name } });
      expect(factory(id, { task: { Name: name } })).toEqual(
        makeJob({ ID: id, group: { Name: name }, task: { Name: name } }),
      );
    },
  );
});
