/**
 * Typed job factories for example-based tests: one small, valid job on the mock driver, with the
 * fields a test cares about given as overrides, instead of a job literal written out in every file.
 *
 * @packageDocumentation
 */
import { canonicalizeJob, type Job, type JobInput, type TaskGroupInput, type TaskInput } from '@sked/model';

import { EPOCH_NS } from './dataset/vocabulary.js';

/** Overrides of {@link makeJob}: job fields, plus those of its one default group and task. */
export interface JobOverrides extends Partial<JobInput> {
  /** Fields of the job's one task group (not with `TaskGroups`). */
  readonly group?: Partial<TaskGroupInput>;
  /** Fields of that group's one task (not with `TaskGroups` or `group.Tasks`). */
  readonly task?: Partial<TaskInput>;
}

/** Options of {@link makeStoredJob}. */
export interface StoredJobOptions {
  /** Region filled in by `canonicalizeJob` when the job has none. @defaultValue `"global"` */
  readonly region?: string;
  /** `CreateIndex`, `JobModifyIndex` and `ModifyIndex`. @defaultValue 1 */
  readonly index?: number;
}

/**
 * A task on the mock driver: `{ Name: 'server', Driver: 'mock', Config: {}, Resources: { CPU: 100,
 * MemoryMB: 64 } }` with `overrides` on top. Every call returns new objects.
 * @param overrides - Fields that replace the defaults (shallowly).
 * @returns The task.
 */
export function makeTask(overrides: Partial<TaskInput> = {}): TaskInput {
  return { Name: 'server', Driver: 'mock', Config: {}, Resources: { CPU: 100, MemoryMB: 64 }, ...overrides };
}

/**
 * A task group of one {@link makeTask} task: `{ Name: 'web', Count: 1, Tasks: [makeTask()] }` with
 * `overrides` on top.
 * @param overrides - Fields that replace the defaults (shallowly); `Tasks` replaces the task list.
 * @returns The task group.
 */
export function makeTaskGroup(overrides: Partial<TaskGroupInput> = {}): TaskGroupInput {
  return { Name: 'web', Count: 1, Tasks: [makeTask()], ...overrides };
}

/**
 * A submitted job: `{ ID: 'example', Type: 'service', Datacenters: ['dc1'], TaskGroups: [group] }`
 * whose one group is {@link makeTaskGroup} with `overrides.group`, holding one {@link makeTask} with
 * `overrides.task`. The other overrides replace job fields; `TaskGroups` replaces the group list.
 * @param overrides - Job fields, `group` and `task`.
 * @returns The job, typed as the model's {@link JobInput}.
 * @throws TypeError when `TaskGroups` comes with `group` or `task`, or `group.Tasks` with `task`
 * (one of them would be silently ignored).
 * @example
 * ```ts
 * makeJob({ ID: 'web', group: { Count: 3 }, task: { Config: { run_for: '1h' } } });
 * ```
 */
export function makeJob(overrides: JobOverrides = {}): JobInput {
  const { group, task, ...fields } = overrides;
  if (fields.TaskGroups !== undefined && (group !== undefined || task !== undefined)) {
    throw new TypeError('makeJob: give either TaskGroups or group/task overrides, not both.');
  }
  if (group?.Tasks !== undefined && task !== undefined) {
    throw new TypeError('makeJob: give either group.Tasks or task overrides, not both.');
  }
  return {
    ID: 'example',
    Type: 'service',
    Datacenters: ['dc1'],
    TaskGroups: [makeTaskGroup({ Tasks: [makeTask(task)], ...group })],
    ...fields,
  };
}

/** The most groups {@link makeWideJob} builds (far beyond any job the server accepts). */
const MAX_WIDE_GROUPS = 100_000;

/**
 * A wide service job: `groups` task groups `group-0`, `group-1`, ... of `Count` 1, each one
 * {@link makeTask} of 10 MHz and 10 MB running for an hour, so that every allocation fits on a few
 * nodes. The large-job route test and the placement benchmark place it.
 * @param id - The job's `ID` and `Name`.
 * @param groups - How many task groups: a whole number from 0 to 100,000.
 * @returns The job, typed as the model's {@link JobInput}.
 * @throws RangeError when `groups` is not a whole number in that range.
 */
export function makeWideJob(id: string, groups: number): JobInput {
  if (!Number.isInteger(groups) || groups < 0 || groups > MAX_WIDE_GROUPS) {
    throw new RangeError(
      `makeWideJob: groups must be a whole number from 0 to ${MAX_WIDE_GROUPS}, got ${String(groups)}`,
    );
  }
  const task = (): TaskInput => makeTask({ Config: { run_for: '1h' }, Resources: { CPU: 10, MemoryMB: 10 } });
  return makeJob({
    ID: id,
    Name: id,
    TaskGroups: Array.from({ length: groups }, (_, i) =>
      makeTaskGroup({ Name: `group-${i}`, Tasks: [task()] }),
    ),
  });
}

/**
 * A factory of jobs that share defaults: `jobFactory(defaults)(id, overrides)` is
 * `makeJob({ ...defaults, ...overrides, ID: id })`, where `group` and `task` are merged field by
 * field with the defaults' own `group` and `task`. `TaskGroups` in `overrides` replaces the default
 * group, with the defaults' `group` and `task`.
 * @param defaults - What every job of the factory has.
 * @returns `(id, overrides?) => JobInput`.
 * @example
 * ```ts
 * const batchJob = jobFactory({ Type: 'batch', task: { Config: { run_for: '1s' } } });
 * batchJob('report', { group: { Count: 2 } });
 * ```
 */
export function jobFactory(defaults: JobOverrides = {}): (id: string, overrides?: JobOverrides) => JobInput {
  const { group: defaultGroup, task: defaultTask, ...defaultFields } = defaults;
  return (id, overrides = {}) => {
    if (overrides.TaskGroups !== undefined) return makeJob({ ...defaultFields, ...overrides, ID: id });
    const merged = (a: object | undefined, b: object | undefined): object | undefined =>
      a === undefined && b === undefined ? undefined : { ...a, ...b };
    const group = merged(defaultGroup, overrides.group) as Partial<TaskGroupInput> | undefined;
    const task = merged(defaultTask, overrides.task) as Partial<TaskInput> | undefined;
    return makeJob({
      ...defaultFields,
      ...overrides,
      ID: id,
      ...(group === undefined ? {} : { group }),
      ...(task === undefined ? {} : { task }),
    });
  };
}

/**
 * A stored job, as the service returns it: {@link makeJob} completed by the model's
 * `canonicalizeJob` (every default filled, `Status` `pending`), at `Version` 0, submitted at
 * 2026-01-01T00:00:00Z, with its indexes at `options.index`.
 * @param overrides - As for {@link makeJob}.
 * @param options - Region and index.
 * @returns The job, typed as the model's {@link Job}.
 */
export function makeStoredJob(overrides: JobOverrides = {}, options: StoredJobOptions = {}): Job {
  const index = options.index ?? 1;
  return {
    ...canonicalizeJob(makeJob(overrides), options.region === undefined ? {} : { region: options.region }),
    Version: 0,
    Stable: false,
    SubmitTime: EPOCH_NS,
    CreateIndex: index,
    JobModifyIndex: index,
    ModifyIndex: index,
  };
}
