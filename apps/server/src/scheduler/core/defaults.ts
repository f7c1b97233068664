import { badRequest } from './errors.js';
import {
  canonicalizeJob,
  jobProblems as modelJobProblems,
  pointerToDotted,
  SchedulerJobType,
  type SchedulerJobInput,
  ValidationError,
} from '@sked/model';
import { checkJobLimits } from './limits.js';
import type { Job } from './types.js';

/** Options of {@link canonicalize} and {@link prepareJob}. */
export interface CanonicalizeOptions {
  /** The region served (filled in when the job names none). */
  readonly region: string;
  /** The namespace of the request, used when the job names none. */
  readonly namespace?: string;
  /** The token of the dispatch that creates this job (a dispatched child), else `""`. */
  readonly dispatchIdempotencyToken?: string;
}

/**
 * Fills every unset field of a submitted job with its default: `canonicalizeJob` of `@sked/model` (its README
 * lists the defaults), plus what only this server has: the namespace of the request, the `system` job type
 * (no reschedule policy), the dispatch idempotency token of a dispatched child (server-owned: never read
 * from a submitted job, whose schema has no such field), and a group update strategy with `MaxParallel` 0
 * meaning no deployment (`null`). `SecretsToken` and `MeshToken` are cleared: they are checked on submission
 * and never stored, so no read, version, allocation copy, diff or event shows them (BEHAVIOUR.md).
 * Pure: returns a new object.
 */
export function canonicalize(input: SchedulerJobInput, options: CanonicalizeOptions): Job {
  const namespace = input.Namespace || options.namespace;
  const job = canonicalizeJob(namespace ? { ...input, Namespace: namespace } : input, {
    region: options.region,
  });
  return {
    ...job,
    SecretsToken: '',
    MeshToken: '',
    DispatchIdempotencyToken: options.dispatchIdempotencyToken ?? '',
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
export function prepareJob(input: SchedulerJobInput, options: CanonicalizeOptions): Job {
  checkJobLimits(input);
  const job = canonicalize(input, options);
  const problems = jobProblems(job);
  if (problems.length > 0) throw badRequest(`Job validation failed: ${problems.join(' ')}`);
  return job;
}
