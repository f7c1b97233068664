import { AllocClientStatus, EvalStatus, JobStatus } from '@sked/model';

import { copyRecord } from '../internal/records.js';
import { isParent } from '../internal/status.js';
import type { Allocation, Job, JobSummary, TaskGroupSummary } from '../types.js';
import { jobKey, versionKey } from './keys.js';
import type { Change, Txn } from './store.js';

type Bucket = Exclude<keyof TaskGroupSummary, 'Queued'>;

/** The summary count an allocation adds to, by its client status. */
function bucketOf(a: Allocation): Bucket {
  switch (a.ClientStatus) {
    case AllocClientStatus.Pending:
      return 'Starting';
    case AllocClientStatus.Running:
      return 'Running';
    case AllocClientStatus.Complete:
      return 'Complete';
    case AllocClientStatus.Failed:
      return 'Failed';
    case AllocClientStatus.Lost:
      return 'Lost';
    default:
      return 'Unknown';
  }
}

const NON_TERMINAL: ReadonlySet<Bucket> = new Set(['Starting', 'Running', 'Unknown']);
const ALL: readonly Bucket[] = ['Starting', 'Running', 'Complete', 'Failed', 'Lost', 'Unknown'];

/** A summary's live (not client-terminal) and total allocation counts. */
interface Totals {
  readonly live: number;
  readonly total: number;
}

/** Totals per stored summary: summed once, then moved with each delta (summaries are never mutated). */
const totalsCache = new WeakMap<JobSummary, Totals>();

function totalsOf(summary: JobSummary): Totals {
  const cached = totalsCache.get(summary);
  if (cached) return cached;
  let live = 0;
  let total = 0;
  for (const s of Object.values(summary.Summary))
    for (const k of ALL) {
      total += s[k];
      if (NON_TERMINAL.has(k)) live += s[k];
    }
  const totals = { live, total };
  totalsCache.set(summary, totals);
  return totals;
}

/**
 * Brings a job's status and summary up to date from the allocation changes of a write alone, in
 * time proportional to those changes (and one sum over its groups), not to the job's allocations:
 * a job of thousands of allocations is refreshed by every client report of each. Applies when the
 * write changed only allocations of the job (not the job, not its evaluations) and its summary is
 * stored; otherwise returns false and the caller recomputes everything. The result is what the full
 * recomputation gives: the stored summary's counts moved by each allocation's before and after.
 */
export function refreshByDelta(
  tx: Txn,
  namespace: string,
  id: string,
  allocs: readonly Change[],
  refreshParent: (namespace: string, id: string) => void,
): boolean {
  const job = tx.get('jobs', jobKey(namespace, id));
  const prev = tx.get('summaries', jobKey(namespace, id));
  if (!job || !prev || isParent(job) || prev.CreateIndex !== job.CreateIndex) return false;
  const current = (a: unknown): a is Allocation => {
    if (a === undefined) return false;
    const copy = (a as Allocation).Job;
    return copy === null || copy.CreateIndex === job.CreateIndex;
  };
  const moved = new Map<string, TaskGroupSummary>();
  const counts = (group: string): TaskGroupSummary | undefined => {
    let s = moved.get(group);
    if (s) return s;
    const old = Object.hasOwn(prev.Summary, group) ? prev.Summary[group] : undefined;
    if (!old) return undefined;
    s = { ...old };
    moved.set(group, s);
    return s;
  };
  let { live, total } = totalsOf(prev);
  for (const c of allocs) {
    for (const [a, delta] of [
      [c.before, -1],
      [c.after, 1],
    ] as const) {
      if (!current(a)) continue;
      const s = counts(a.TaskGroup);
      if (!s) return false; // a group the summary does not list: recompute
      const bucket = bucketOf(a);
      s[bucket] += delta;
      total += delta;
      if (NON_TERMINAL.has(bucket)) live += delta;
    }
  }
  let changed = false;
  for (const [group, s] of moved) {
    const old = prev.Summary[group] as TaskGroupSummary;
    if (ALL.some((k) => s[k] !== old[k])) changed = true;
    if (ALL.some((k) => s[k] < 0)) return false;
  }
  let summary = prev;
  if (changed) {
    const groups = copyRecord(prev.Summary);
    for (const [group, s] of moved) groups[group] = s;
    summary = { ...prev, Summary: groups, ModifyIndex: tx.index };
  }
  if (changed) totalsCache.set(summary, { live, total });
  const status = statusFrom(tx, job, { live, total });
  if (status !== job.Status) {
    tx.put('jobs', { ...job, Status: status, ModifyIndex: tx.index });
    const v = tx.get('jobVersions', versionKey(namespace, id, job.Version));
    if (v) tx.put('jobVersions', { ...v, Status: status });
  }
  if (changed) tx.put('summaries', summary);
  if (job.ParentID !== '' && (changed || status !== job.Status)) refreshParent(namespace, job.ParentID);
  return true;
}

/** The job's status from its summary's totals (its evaluations read only when no allocation is live). */
function statusFrom(tx: Txn, job: Job, { live, total }: Totals): JobStatus {
  if (live > 0) return JobStatus.Running;
  const waiting = tx
    .ofJob('evals', job.Namespace, job.ID)
    .some(
      (e) =>
        e.CreateIndex >= job.CreateIndex &&
        (e.Status === EvalStatus.Pending || e.Status === EvalStatus.Blocked),
    );
  if (waiting && !job.Stop) return JobStatus.Pending;
  if (job.Stop || total > 0) return JobStatus.Dead;
  return JobStatus.Pending;
}
