import { JobStatus } from '@sked/model';

import type { CoreContext } from '../context.js';
import { specChanged } from '../diff.js';
import { notFound } from '../errors.js';
import { jobKey, versionKey } from '../state/keys.js';
import type { Txn } from '../state/store.js';
import type { Job, JobSubmission } from '../types.js';
import type { JobSubmissionInput } from '@sked/model';

/** Versions and submissions kept per job. */
export const KEPT_VERSIONS = 6;

/** The job of a write, or 404 `job not found`. */
export function mustJob(tx: Txn, namespace: string, id: string): Job {
  const job = tx.get('jobs', jobKey(namespace, id));
  if (!job) throw notFound('job not found');
  return job;
}

/** The submission record of a job version, from the request's `Submission` (validated by the route). */
function submissionOf(
  submission: JobSubmissionInput,
  job: Job,
  index: number,
  version: number,
): JobSubmission {
  return {
    Format: submission.Format ?? 'hcl2',
    JobIndex: index,
    JobID: job.ID,
    Namespace: job.Namespace,
    Source: submission.Source,
    VariableFlags: submission.VariableFlags ?? null,
    Variables: submission.Variables ?? '',
    Version: version,
  };
}

/** Stores the submitted source of a job version, keeping the latest {@link KEPT_VERSIONS}. */
function putSubmission(tx: Txn, job: Job, submission: JobSubmissionInput): void {
  tx.put('submissions', submissionOf(submission, job, tx.index, job.Version));
  const subs = tx.ofJob('submissions', job.Namespace, job.ID);
  for (const old of subs.slice(0, Math.max(0, subs.length - KEPT_VERSIONS)))
    tx.delete('submissions', versionKey(old.Namespace, old.JobID, old.Version));
}

/**
 * Stores a new version of a job (or keeps the current one when the spec is unchanged), keeps the
 * latest {@link KEPT_VERSIONS} versions and submissions (its event follows from the write).
 */
export function upsertJob(
  ctx: CoreContext,
  tx: Txn,
  job: Job,
  existing: Job | undefined,
  submission?: JobSubmissionInput,
): Job {
  if (existing && !specChanged(existing, job) && existing.Stop === job.Stop) {
    // the same job again: no new version, but a submission sent with it is kept for that version
    if (submission) putSubmission(tx, existing, submission);
    return existing;
  }
  const stored: Job = {
    ...job,
    Version: existing ? existing.Version + 1 : 0,
    CreateIndex: existing ? existing.CreateIndex : tx.index,
    ModifyIndex: tx.index,
    JobModifyIndex: tx.index,
    SubmitTime: ctx.nowNs(),
    Status: existing?.Status ?? JobStatus.Pending,
    StatusDescription: '',
    Stable: false,
  };
  tx.put('jobs', stored);
  tx.put('jobVersions', stored);
  const versions = tx.ofJob('jobVersions', job.Namespace, job.ID);
  for (const old of versions.slice(0, Math.max(0, versions.length - KEPT_VERSIONS)))
    tx.delete('jobVersions', versionKey(old.Namespace, old.ID, old.Version));
  if (submission) putSubmission(tx, stored, submission);
  return stored;
}
