import type { SchedulerJobInput } from '@sked/model';

import { badRequest } from './errors.js';

/**
 * What one job may hold on this server. The placement of a job costs about linearly in its groups
 * and allocations and yields to other requests between writes; these bounds keep each single write
 * (a registration, an evaluation placing the job) well under the 100 ms stall the benchmark holds
 * it to (`bench/placement.mjs`). The request body is bounded by `--max-body` (10 MiB) before any of this.
 */
export const JOB_LIMITS = {
  /** Task groups of a job. */
  taskGroups: 2_000,
  /** Tasks of one group. */
  tasksPerGroup: 100,
  /** `Count` of one group. */
  count: 10_000,
  /** Allocations a job asks for: the sum of its groups' `Count`. */
  allocations: 10_000,
} as const;

/**
 * Refuses a submitted job beyond {@link JOB_LIMITS} with a 400 naming the field and the limit, before
 * anything costs in proportion to its size.
 */
export function checkJobLimits(job: SchedulerJobInput): void {
  const groups = job.TaskGroups ?? [];
  if (groups.length > JOB_LIMITS.taskGroups)
    throw badRequest(
      `Job validation failed: TaskGroups: a job has at most ${JOB_LIMITS.taskGroups} task groups, got ${groups.length}.`,
    );
  let allocations = 0;
  for (const [i, g] of groups.entries()) {
    const tasks = g.Tasks?.length ?? 0;
    if (tasks > JOB_LIMITS.tasksPerGroup)
      throw badRequest(
        `Job validation failed: TaskGroups[${i}].Tasks: a group has at most ${JOB_LIMITS.tasksPerGroup} tasks, got ${tasks}.`,
      );
    const count = g.Count ?? 1;
    if (count > JOB_LIMITS.count)
      throw badRequest(
        `Job validation failed: TaskGroups[${i}].Count: a group's count is at most ${JOB_LIMITS.count}, got ${count}.`,
      );
    allocations += Math.max(0, count);
  }
  if (allocations > JOB_LIMITS.allocations)
    throw badRequest(
      `Job validation failed: TaskGroups: a job asks for at most ${JOB_LIMITS.allocations} allocations (the sum of its groups' Count), got ${allocations}.`,
    );
}
