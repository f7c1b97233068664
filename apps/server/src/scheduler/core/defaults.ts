import { badRequest } from './errors.js';
import {
  canonicalizeJob,
  type JobInput,
  jobProblems as modelJobProblems,
  pointerToDotted,
  SchedulerJobType,
  ValidationError,
} from '@sked/model';
import type { Job } from './types.js';

const obj = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/**
 * Fills every unset field of a submitted job with its default: `canonicalizeJob` of `@sked/model` (its README
 * lists the defaults), plus what only this server has: the namespace of the request, the `system` job type
 * (no reschedule policy), the dispatch idempotency token, and a group update strategy with `MaxParallel` 0
 * meaning no deployment (`null`). `SecretsToken` and `MeshToken` are cleared: they are checked on submission
 * and never stored, so no read, version, allocation copy, diff or event shows them (BEHAVIOUR.md).
 * Pure: returns a new object.
 */
export function canonicalize(input: unknown, options: { region: string; namespace?: string }): Job {
  const o = obj(input) ?? {};
  const namespace = (typeof o['Namespace'] === 'string' ? o['Namespace'] : '') || options.namespace;
  // The input may carry a type outside the model's JobType (`system`); canonicalizeJob keeps it as given.
  const job: Omit<Job, 'DispatchIdempotencyToken'> = canonicalizeJob(
    { ...o, ...(namespace ? { Namespace: namespace } : {}) } as unknown as JobInput,
    { region: options.region },
  );
  const token = o['DispatchIdempotencyToken'];
  return {
    ...job,
    SecretsToken: '',
    MeshToken: '',
    DispatchIdempotencyToken: typeof token === 'string' ? token : '',
    TaskGroups: job.TaskGroups.map((g) => ({
      ...g,
      ReschedulePolicy: job.Type === SchedulerJobType.System ? null : g.ReschedulePolicy,
      Update: g.Update && g.Update.MaxParallel > 0 ? g.Update : null,
    })),
  };
}

/**
 * Problems that make a (canonicalized) job unschedulable, as sentences: `jobProblems` of `@sked/model`
 * (the same checks a client can run before submitting). A value the model does not recognise as a job at
 * all gives its problems with their paths.
 */
export function jobProblems(job: Job): string[] {
  try {
    return modelJobProblems(job).map((problem) => problem.message);
  } catch (error) {
    if (!ValidationError.is(error)) throw error;
    return error.problems.map((problem) => `${pointerToDotted(problem.path)}: ${problem.message}.`);
  }
}

/** Canonicalizes and validates a submitted job; throws a 400 ClusterError listing every problem. */
export function prepareJob(input: unknown, options: { region: string; namespace?: string }): Job {
  const job = canonicalize(input, options);
  const problems = jobProblems(job);
  if (problems.length > 0) throw badRequest(`Job validation failed: ${problems.join(' ')}`);
  return job;
}
