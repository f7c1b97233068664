import {
  AllocClientStatus,
  AllocDesiredStatus,
  DeploymentStatus,
  EvalStatus,
  JobStatus,
  JobType,
} from '@sked/model';
import { namespaceIdKey } from '@sked/query';

import { clientTerminal, isParent } from '../internal/status.js';
import { jobKey, versionKey } from '../state/keys.js';
import type { Txn } from '../state/store.js';
import type { Allocation, Evaluation, Job } from '../types.js';

/** The highest ModifyIndex a record may have to be collected, per kind (`Infinity`: any). */
export interface GcCutoffs {
  /** Terminal evaluations (and their allocations) of service and system jobs. */
  readonly eval: number;
  /** Terminal evaluations (and their allocations) of batch jobs that still exist. */
  readonly batchEval: number;
  /** Dead batch jobs and stopped jobs, with everything that belongs to them. */
  readonly job: number;
  /** Finished deployments. */
  readonly deployment: number;
}

/** What one collection removed. */
export interface GcResult {
  jobs: number;
  evals: number;
  allocs: number;
  deployments: number;
}

// `cancelled`: what earlier versions wrote for a canceled evaluation, still in restored state.
const TERMINAL_EVAL = new Set<string>([
  EvalStatus.Complete,
  EvalStatus.Failed,
  EvalStatus.Canceled,
  'cancelled',
]);
const TERMINAL_DEPLOYMENT = new Set<string>([
  DeploymentStatus.Successful,
  DeploymentStatus.Failed,
  DeploymentStatus.Cancelled,
]);

/** Whether the service considers an allocation finished for collection: stopped or done on the client. */
function allocTerminal(a: Allocation): boolean {
  if (clientTerminal(a)) return true;
  return (
    a.DesiredStatus !== AllocDesiredStatus.Run &&
    a.ClientStatus !== AllocClientStatus.Running &&
    a.ClientStatus !== AllocClientStatus.Pending
  );
}

const isBatch = (job: Job | undefined): boolean =>
  job?.Type === JobType.Batch || job?.Type === JobType.SysBatch;

function evalCollectable(tx: Txn, e: Evaluation, cut: number): boolean {
  if (!TERMINAL_EVAL.has(e.Status) || e.ModifyIndex > cut) return false;
  return tx
    .ofJob('allocs', e.Namespace, e.JobID)
    .every((a) => a.EvalID !== e.ID || (allocTerminal(a) && a.ModifyIndex <= cut));
}

/** Whether a job is collected: dead and (batch or stopped), old enough, and all of it finished. */
function jobCollectable(tx: Txn, job: Job, cut: number): boolean {
  if (job.Status !== JobStatus.Dead || job.ModifyIndex > cut) return false;
  if (!job.Stop && (!isBatch(job) || isParent(job))) return false;
  for (const e of tx.ofJob('evals', job.Namespace, job.ID)) {
    if (!TERMINAL_EVAL.has(e.Status) || e.ModifyIndex > cut) return false;
  }
  for (const a of tx.ofJob('allocs', job.Namespace, job.ID)) {
    if (!allocTerminal(a) || a.ModifyIndex > cut) return false;
  }
  return true;
}

/** Deletes a job and everything that belongs to it. */
function dropJob(tx: Txn, job: Job, result: GcResult, gone: (a: Allocation) => void): void {
  const { Namespace: ns, ID: id } = job;
  for (const e of tx.ofJob('evals', ns, id)) {
    tx.delete('evals', e.ID);
    result.evals++;
  }
  for (const a of tx.ofJob('allocs', ns, id)) {
    tx.delete('allocs', a.ID);
    gone(a);
    result.allocs++;
  }
  for (const d of tx.ofJob('deployments', ns, id)) {
    tx.delete('deployments', d.ID);
    result.deployments++;
  }
  for (const v of tx.ofJob('jobVersions', ns, id)) tx.delete('jobVersions', versionKey(ns, id, v.Version));
  for (const s of tx.ofJob('submissions', ns, id))
    tx.delete('submissions', versionKey(ns, s.JobID, s.Version));
  tx.delete('summaries', namespaceIdKey(ns, id));
  tx.delete('jobs', jobKey(ns, id));
  result.jobs++;
}

/**
 * One garbage collection inside a write, by the service's rules: dead batch jobs and stopped jobs
 * (with their versions, submissions, summary, evaluations, allocations and deployments) whose
 * every record is finished and older than the job cut-off; terminal evaluations whose allocations
 * are all finished, with those allocations (batch jobs that still exist use the longer batch
 * cut-off, so a batch job keeps the record of its runs); finished allocations whose evaluation is
 * gone; finished deployments no live allocation belongs to. A periodic or parameterized parent is
 * collected only once stopped and without children.
 * @param tx - The write.
 * @param cut - The cut-offs.
 * @param gone - Called for every allocation removed (its task directory can go).
 * @returns how many records of each kind were removed.
 */
export function collect(tx: Txn, cut: GcCutoffs, gone: (a: Allocation) => void): GcResult {
  const result: GcResult = { jobs: 0, evals: 0, allocs: 0, deployments: 0 };
  const children = new Map<string, number>();
  const jobs = tx.all('jobs');
  for (const job of jobs) {
    if (job.ParentID === '') continue;
    const key = jobKey(job.Namespace, job.ParentID);
    children.set(key, (children.get(key) ?? 0) + 1);
  }
  // Children first, so that a parent whose last child goes is collected in the same pass.
  const parentsLast = [...jobs.filter((j) => !isParent(j)), ...jobs.filter((j) => isParent(j))];
  for (const job of parentsLast) {
    if ((children.get(jobKey(job.Namespace, job.ID)) ?? 0) > 0) continue;
    if (!jobCollectable(tx, job, cut.job)) continue;
    dropJob(tx, job, result, gone);
    // the parent's summary and status follow from the deletion (state/job-status.ts derives them)
    if (job.ParentID === '') continue;
    const key = jobKey(job.Namespace, job.ParentID);
    children.set(key, (children.get(key) ?? 1) - 1);
  }
  for (const e of tx.all('evals')) {
    const job = tx.get('jobs', jobKey(e.Namespace, e.JobID));
    const c = job && isBatch(job) ? cut.batchEval : cut.eval;
    if (!evalCollectable(tx, e, c)) continue;
    tx.delete('evals', e.ID);
    result.evals++;
    for (const a of tx.ofJob('allocs', e.Namespace, e.JobID)) {
      if (a.EvalID !== e.ID) continue;
      tx.delete('allocs', a.ID);
      gone(a);
      result.allocs++;
    }
  }
  for (const a of tx.all('allocs')) {
    if (!allocTerminal(a) || a.ModifyIndex > cut.eval || tx.get('evals', a.EvalID)) continue;
    tx.delete('allocs', a.ID);
    gone(a);
    result.allocs++;
  }
  for (const d of tx.all('deployments')) {
    if (!TERMINAL_DEPLOYMENT.has(d.Status) || d.ModifyIndex > cut.deployment) continue;
    if (tx.ofJob('allocs', d.Namespace, d.JobID).some((a) => a.DeploymentID === d.ID && !allocTerminal(a)))
      continue;
    tx.delete('deployments', d.ID);
    result.deployments++;
  }
  return result;
}
