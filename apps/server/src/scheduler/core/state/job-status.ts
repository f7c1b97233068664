import { AllocClientStatus, EvalStatus, JobStatus, nullRecord, ownValue, setOwn } from '@sked/model';
import { clientTerminal, isParent } from '../internal/status.js';
import type { Allocation, Evaluation, Job, JobSummary, TaskGroupSummary } from '../types.js';
import { jobKey, versionKey } from './keys.js';
import type { Change, Deriver, Txn } from './store.js';
import { refreshByDelta } from './summary-delta.js';

const noAllocs = (): TaskGroupSummary => ({
  Queued: 0,
  Complete: 0,
  Failed: 0,
  Running: 0,
  Starting: 0,
  Lost: 0,
  Unknown: 0,
});

/** A job's status from its allocations and evaluations (`pending`, `running` or `dead`). */
function statusOf(job: Job, allocs: readonly Allocation[], evals: readonly Evaluation[]): JobStatus {
  if (isParent(job)) return job.Stop ? JobStatus.Dead : JobStatus.Running;
  if (allocs.some((a) => !clientTerminal(a))) return JobStatus.Running;
  if (evals.some((e) => e.Status === EvalStatus.Pending || e.Status === EvalStatus.Blocked) && !job.Stop)
    return JobStatus.Pending;
  if (job.Stop || allocs.length > 0) return JobStatus.Dead;
  return JobStatus.Pending;
}

const currentAllocs = (tx: Txn, job: Job): Allocation[] =>
  tx
    .ofJob('allocs', job.Namespace, job.ID)
    .filter((a) => a.Job === null || a.Job.CreateIndex === job.CreateIndex);

const currentEvals = (tx: Txn, job: Job): Evaluation[] =>
  tx.ofJob('evals', job.Namespace, job.ID).filter((e) => e.CreateIndex >= job.CreateIndex);

/** A job's summary: allocation counts per group, queued counts, and children of a parent. */
function summaryOf(
  tx: Txn,
  job: Job,
  allocs: readonly Allocation[],
  evals: readonly Evaluation[],
): JobSummary {
  const summary: JobSummary = {
    JobID: job.ID,
    Namespace: job.Namespace,
    Summary: nullRecord(),
    Children: { Pending: 0, Running: 0, Dead: 0 },
    CreateIndex: job.CreateIndex,
    ModifyIndex: tx.index,
  };
  // a null-prototype record: assigning any name (`__proto__` too) adds an own key, faster than setOwn
  for (const g of job.TaskGroups) summary.Summary[g.Name] = noAllocs();
  for (const a of allocs) {
    const s = ownValue(summary.Summary, a.TaskGroup) ?? setOwn(summary.Summary, a.TaskGroup, noAllocs());
    if (a.ClientStatus === AllocClientStatus.Pending) s.Starting++;
    else if (a.ClientStatus === AllocClientStatus.Running) s.Running++;
    else if (a.ClientStatus === AllocClientStatus.Complete) s.Complete++;
    else if (a.ClientStatus === AllocClientStatus.Failed) s.Failed++;
    else if (a.ClientStatus === AllocClientStatus.Lost) s.Lost++;
    else s.Unknown++;
  }
  const latest = evals
    .filter((e) => e.Status === EvalStatus.Complete || e.Status === EvalStatus.Blocked)
    .at(-1);
  const blocked = evals.find((e) => e.Status === EvalStatus.Blocked);
  for (const [g, n] of Object.entries((blocked ?? latest)?.QueuedAllocations ?? {})) {
    const s = ownValue(summary.Summary, g);
    if (s && !job.Stop) s.Queued = n;
  }
  if (isParent(job)) {
    for (const child of tx.all('jobs')) {
      if (child.ParentID !== job.ID || child.Namespace !== job.Namespace) continue;
      if (child.Status === JobStatus.Dead) summary.Children.Dead++;
      else if (child.Status === JobStatus.Running) summary.Children.Running++;
      else summary.Children.Pending++;
    }
  }
  return summary;
}

const GROUP_COUNTS = ['Queued', 'Complete', 'Failed', 'Running', 'Starting', 'Lost', 'Unknown'] as const;

/**
 * Whether two summaries of a job hold the same counts (their `ModifyIndex` aside): field by field,
 * without serialising them (a job of thousands of groups is refreshed on every write that touches it).
 */
function sameSummary(a: JobSummary, b: JobSummary): boolean {
  if (a.JobID !== b.JobID || a.Namespace !== b.Namespace || a.CreateIndex !== b.CreateIndex) return false;
  if (
    a.Children.Pending !== b.Children.Pending ||
    a.Children.Running !== b.Children.Running ||
    a.Children.Dead !== b.Children.Dead
  )
    return false;
  const groups = Object.keys(b.Summary);
  if (Object.keys(a.Summary).length !== groups.length) return false;
  for (const g of groups) {
    const x = Object.hasOwn(a.Summary, g) ? a.Summary[g] : undefined;
    const y = b.Summary[g];
    if (x === undefined || y === undefined || GROUP_COUNTS.some((k) => x[k] !== y[k])) return false;
  }
  return true;
}

/**
 * Brings a job's derived state up to date inside a write: its status (stored on the job and its
 * current version, with a JobRegistered event when it changes) and its summary; then its parent's.
 */
function refreshJob(tx: Txn, namespace: string, id: string): void {
  const job = tx.get('jobs', jobKey(namespace, id));
  if (!job) return;
  const allocs = currentAllocs(tx, job);
  const evals = currentEvals(tx, job);
  const status = statusOf(job, allocs, evals);
  if (status !== job.Status) {
    tx.put('jobs', { ...job, Status: status, ModifyIndex: tx.index });
    const v = tx.get('jobVersions', versionKey(namespace, id, job.Version));
    if (v) tx.put('jobVersions', { ...v, Status: status });
  }
  const summary = summaryOf(tx, job, allocs, evals);
  const prev = tx.get('summaries', jobKey(namespace, id));
  const same = prev !== undefined && sameSummary(prev, summary);
  if (!same) tx.put('summaries', summary);
  if (job.ParentID !== '' && (!same || status !== job.Status)) refreshJob(tx, namespace, job.ParentID);
}

/**
 * The deriver that keeps every job's status and summary in step with the write: each job whose
 * record, allocations or evaluations the write touched is refreshed before the commit (and its
 * parent, also when the job itself was purged). No write site calls {@link refreshJob} by hand.
 */
export const deriveJobStatus: Deriver = (tx, changes) => {
  const jobs = new Map<string, { namespace: string; id: string }>();
  const note = (namespace: string, id: string): void => {
    if (id !== '') jobs.set(jobKey(namespace, id), { namespace, id });
  };
  for (const c of changes.get('jobs')?.values() ?? []) {
    const job = (c.after ?? c.before) as Job;
    note(job.Namespace, job.ID);
    if (c.after === undefined) note(job.Namespace, job.ParentID);
  }
  // jobs whose own record or evaluations changed are recomputed; those with only allocation
  // changes are moved by those changes (state/summary-delta.ts)
  const full = new Set(jobs.keys());
  const allocChanges = new Map<string, { namespace: string; id: string; changes: Change[] }>();
  for (const c of changes.get('evals')?.values() ?? []) {
    const e = (c.after ?? c.before) as Evaluation;
    note(e.Namespace, e.JobID);
    if (e.JobID !== '') full.add(jobKey(e.Namespace, e.JobID));
  }
  for (const c of changes.get('allocs')?.values() ?? []) {
    const a = (c.after ?? c.before) as Allocation;
    note(a.Namespace, a.JobID);
    const key = jobKey(a.Namespace, a.JobID);
    let entry = allocChanges.get(key);
    if (!entry) allocChanges.set(key, (entry = { namespace: a.Namespace, id: a.JobID, changes: [] }));
    entry.changes.push(c);
  }
  const parent = (namespace: string, id: string): void => refreshJob(tx, namespace, id);
  for (const [key, { namespace, id }] of jobs) {
    const delta = full.has(key) ? undefined : allocChanges.get(key);
    if (delta && refreshByDelta(tx, namespace, id, delta.changes, parent)) continue;
    refreshJob(tx, namespace, id);
  }
};
