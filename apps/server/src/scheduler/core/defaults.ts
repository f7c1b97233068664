import { badRequest } from './errors.js';
import { parseCron } from './internal/cron.js';
import { canonicalizeJob, JobType, SchedulerJobType, type SchedulerJobInput } from '@sked/model';
import type { Constraint, Job } from './types.js';

/** The job types the scheduler knows. */
const JOB_TYPES: readonly string[] = Object.values(SchedulerJobType);

/** Constraint operands the scheduler evaluates. */
export const OPERANDS = [
  '=',
  '==',
  'is',
  '!=',
  'not',
  '>',
  '>=',
  '<',
  '<=',
  'regexp',
  'version',
  'semver',
  'set_contains',
  'set_contains_all',
  'set_contains_any',
  'is_set',
  'is_not_set',
  'distinct_hosts',
  'distinct_property',
] as const;

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

/** Problems that make a (canonicalized) job unschedulable, as sentences. */
export function jobProblems(job: Job): string[] {
  const p: string[] = [];
  if (job.ID === '') p.push('Missing job ID.');
  else {
    if (/\s/.test(job.ID)) p.push(`Job ID "${job.ID}" contains a space.`);
    if (job.ID.includes('\u0000')) p.push(`Job ID contains a null character.`);
    if (job.ID.length > 128) p.push(`Job ID must be at most 128 characters, got ${job.ID.length}.`);
  }
  if (!JOB_TYPES.includes(job.Type))
    p.push(`Invalid job type "${job.Type}": expected one of service, batch, sysbatch, system.`);
  if (!Number.isInteger(job.Priority) || job.Priority < 1 || job.Priority > 100)
    p.push(`Job priority must be between [1, 100], got ${job.Priority}.`);
  if (job.TaskGroups.length === 0) p.push('Missing job task groups.');
  checkConstraints(job.Constraints, 'Job', p);
  if (job.ParameterizedJob && !['optional', 'required', 'forbidden'].includes(job.ParameterizedJob.Payload))
    p.push(
      `Parameterized job payload "${job.ParameterizedJob.Payload}" is invalid: expected optional, required or forbidden.`,
    );
  if (job.Periodic && job.Periodic.Enabled && job.Periodic.Spec.trim() === '')
    p.push('Periodic job must have a spec.');
  else if (job.Periodic && job.Periodic.SpecType !== 'cron')
    p.push(`Periodic spec type "${job.Periodic.SpecType}" is not supported: expected cron.`);
  else if (job.Periodic) {
    try {
      parseCron(job.Periodic.Spec);
    } catch (error) {
      p.push(`Periodic job has an invalid cron spec "${job.Periodic.Spec}": ${(error as Error).message}.`);
    }
  }
  const groups = new Set<string>();
  job.TaskGroups.forEach((g, gi) => {
    const where = g.Name ? `Task group "${g.Name}"` : `Task group ${gi + 1}`;
    if (g.Name === '') p.push(`${where} is missing a name.`);
    else if (groups.has(g.Name)) p.push(`${where} is defined more than once.`);
    groups.add(g.Name);
    if (!Number.isInteger(g.Count) || g.Count < 0)
      p.push(`${where} count must be a non-negative integer, got ${g.Count}.`);
    if (g.Tasks.length === 0) p.push(`${where} has no tasks.`);
    checkConstraints(g.Constraints, where, p);
    if (g.RestartPolicy && !['fail', 'delay'].includes(g.RestartPolicy.Mode))
      p.push(`${where} restart policy mode "${g.RestartPolicy.Mode}" is invalid: expected fail or delay.`);
    if (
      g.ReschedulePolicy &&
      !['constant', 'exponential', 'fibonacci'].includes(g.ReschedulePolicy.DelayFunction)
    )
      p.push(
        `${where} reschedule delay function "${g.ReschedulePolicy.DelayFunction}" is invalid: expected constant, exponential or fibonacci.`,
      );
    if (g.Update && g.Update.Canary > 0 && job.Type !== JobType.Service)
      p.push(`${where} may only use canaries in a service job.`);
    const tasks = new Set<string>();
    let leaders = 0;
    g.Tasks.forEach((t, ti) => {
      const tw = t.Name ? `${where} task "${t.Name}"` : `${where} task ${ti + 1}`;
      if (t.Name === '') p.push(`${tw} is missing a name.`);
      else if (tasks.has(t.Name)) p.push(`${tw} is defined more than once.`);
      else if (/[/\\]|\.\./.test(t.Name)) p.push(`${tw} name must not contain a path separator.`);
      tasks.add(t.Name);
      if (t.Driver === '') p.push(`${tw} is missing a driver.`);
      if (t.Leader) leaders++;
      if (t.Resources.CPU < 1) p.push(`${tw} CPU must be at least 1 MHz, got ${t.Resources.CPU}.`);
      if (t.Resources.MemoryMB < 10)
        p.push(`${tw} memory must be at least 10 MB, got ${t.Resources.MemoryMB}.`);
      checkConstraints(t.Constraints, tw, p);
      if (t.RestartPolicy && !['fail', 'delay'].includes(t.RestartPolicy.Mode))
        p.push(`${tw} restart policy mode "${t.RestartPolicy.Mode}" is invalid: expected fail or delay.`);
    });
    if (leaders > 1) p.push(`${where} has more than one leader task.`);
  });
  return p;
}

function checkConstraints(list: Constraint[] | null, where: string, p: string[]): void {
  for (const c of list ?? []) {
    if (!(OPERANDS as readonly string[]).includes(c.Operand))
      p.push(`${where} constraint operand "${c.Operand}" is not supported.`);
    else if (c.Operand === 'regexp') {
      try {
        new RegExp(c.RTarget);
      } catch {
        p.push(`${where} constraint regular expression "${c.RTarget}" does not compile.`);
      }
    }
  }
}

/** Canonicalizes and validates a submitted job; throws a 400 ClusterError listing every problem. */
export function prepareJob(input: SchedulerJobInput, options: CanonicalizeOptions): Job {
  const job = canonicalize(input, options);
  const problems = jobProblems(job);
  if (problems.length > 0) throw badRequest(`Job validation failed: ${problems.join(' ')}`);
  return job;
}
