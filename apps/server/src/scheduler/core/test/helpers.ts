import { createCluster, type Cluster, type ClusterOptions } from '../cluster.js';
import { manualClock, type ManualClock } from '../clock.js';
import type { JobInput, TaskInput } from '@sked/model';
import { jobFactory, type JobOverrides } from '@sked/testkit';
import { expect } from 'vitest';

import { ClusterError } from '../errors.js';
import type { EventBatch } from '../types.js';

/** A cluster on a manual clock with a seeded random source, recording every event batch. */
export interface TestCluster {
  cluster: Cluster;
  clock: ManualClock;
  batches: EventBatch[];
  /** Advances time in 10 ms steps (timers run in order). */
  run(ms: number): void;
}

/** A deterministic random source (mulberry32). */
export function seeded(seed = 42): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function testCluster(
  options: Partial<ClusterOptions> & {
    /** Where the manual clock starts (ms since the epoch). */ startMs?: number;
  } = {},
): TestCluster {
  const { startMs, ...clusterOptions } = options;
  const clock = manualClock(startMs);
  const cluster = createCluster({ clock, random: seeded(), ...clusterOptions });
  const batches: EventBatch[] = [];
  cluster.onEvents((b) => batches.push(b));
  return {
    cluster,
    clock,
    batches,
    run(ms) {
      for (let t = 0; t < ms; t += 10) clock.advance(Math.min(10, ms - t));
    },
  };
}

const service = jobFactory({ group: { Count: 2 } });
const batch = jobFactory({ Type: 'batch', group: { Name: 'work' }, task: { Name: 'job' } });

/** A minimal service job with mock tasks: group `web` of 2 `server` tasks (`@sked/testkit` makeJob). */
export function serviceJob(
  id: string,
  overrides: JobOverrides = {},
  task: Partial<TaskInput> = {},
): JobInput {
  if (overrides.TaskGroups !== undefined) return service(id, overrides);
  return service(id, { ...overrides, task: { ...task, ...overrides.task } });
}

/** A batch job: group `work` of one `job` task running the mock driver with `config`. */
export function batchJob(
  id: string,
  config: Record<string, unknown> = { run_for: '1s' },
  overrides: JobOverrides = {},
): JobInput {
  if (overrides.TaskGroups !== undefined) return batch(id, overrides);
  return batch(id, { ...overrides, task: { Config: config, ...overrides.task } });
}

/** A copy of `job` whose first task group runs `count` allocations (the job itself is not changed). */
export function withCount(job: JobInput, count: number): JobInput {
  const [first, ...rest] = job.TaskGroups ?? [];
  if (first === undefined) throw new TypeError('withCount: the job has no task group');
  return { ...job, TaskGroups: [{ ...first, Count: count }, ...rest] };
}

/** Asserts that `fn` throws a ClusterError with this status and message. */
export function expectError(fn: () => unknown, status: number, message: string | RegExp): void {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(ClusterError.is(error)).toBe(true);
  expect(error).toMatchObject({ status, message });
}

/** Garbage-collection thresholds short enough for tests (milliseconds of the manual clock). */
export const SHORT_GC = {
  evalThresholdMs: 1000,
  batchEvalThresholdMs: 5000,
  jobThresholdMs: 2000,
  deploymentThresholdMs: 1000,
  intervalMs: 600_000,
};
