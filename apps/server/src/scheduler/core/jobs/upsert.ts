import { EventType, JobStatus } from '@sked/model';

import type { CoreContext } from '../context.js';
import { specChanged } from '../diff.js';
import { notFound } from '../errors.js';
import { jobEvent } from '../state/events.js';
import { jobKey, versionKey } from '../state/keys.js';
import type { Txn } from '../state/store.js';
import type { Job, JobSubmission } from '../types.js';

/** Versions and submissions kept per job. */
export const KEPT_VERSIONS = 6;

/** The job of a write, or 404 `job not found`. */
export function mustJob(tx: Txn, namespace: string, id: string): Job {
  const job = tx.get('jobs', jobKey(namespace, id));
  if (!job) throw notFound('job not found');
  return job;
}

/** The submission record of a job version, from the request's free-form `Submission`. */
function submissionOf(submission: object, job: Job, index: number, version: number): JobSubmission {
  const s = submission as Record<string, unknown>;
  return {
    Format: typeof s['Format'] === 'string' && s['Format'] !== '' ? s['Format'] : 'hcl2',
    JobIndex: index,
    JobID: job.ID,
    Namespace: job.Namespace,
    Source: typeof s['Source'] === 'string' ? s['Source'] : '',
    VariableFlags: (s['VariableFlags'] as Record<string, string> | null | undefined) ?? null,
    Variables: typeof s['Variables'] === 'string' ? s['Variables'] : '',
    Version: version,
  };
}

/** Stores the submitted source of a job version, keeping the latest {@link KEPT_VERSIONS}. */
function putSubmission(tx: Txn, job: Job, submission: object): void {
  tx.put('submissions', submissionOf(submission, job, tx.index, job.Version));
  const subs = tx.ofJob('submissions', job.Namespace, job.ID);
  for (const old of subs.slice(0, Math.max(0, subs.length - KEPT_VERSIONS)))
    tx.delete('submissions', versionKey(old.Namespace, old.JobID, old.Version));
}

/**
 * Stores a new version of a job (or keeps the current one when the spec is unchanged), keeps the
 * latest {@link KEPT_VERSIONS} versions and submissions, and emits JobRegistered when `emit`.
 */
export function upsertJob(
  ctx: CoreContext,
  tx: Txn,
  job: Job,
  existing: Job | undefined,
  submission?: unknown,
  emit = true,
): Job {
  if (existing && !specChanged(existing, job) && existing.Stop === job.Stop) {
    // the same job again: no new version, but a submission sent with it is kept for that version
    if (submission && typeof submission === 'object') putSubmission(tx, existing, submission);
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
  if (submission && typeof submission === 'object') putSubmission(tx, stored, submission);
  if (emit) jobEvent(tx, EventType.JobRegistered, stored);
  return stored;
}
