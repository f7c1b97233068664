import {
  AllocDesiredStatus,
  DeploymentStatus,
  EvalStatus,
  EvalTriggeredBy,
  jsonEqual,
  nullRecord,
  ownValue,
  setOwn,
} from '@sked/model';

import type { CoreContext } from '../context.js';
import { iso } from '../internal/ids.js';
import type { SchedulePlan } from '../scheduler/schedule.js';
import { jobKey } from '../state/keys.js';
import type { Txn } from '../state/store.js';
import type { Allocation, AllocMetric, Deployment, Evaluation, Job } from '../types.js';
import type { EvalQueue } from './eval-queue.js';

/** What applying a plan sets in motion outside the store (wired by cluster.ts). */
export interface PlanApplyDeps {
  readonly queue: Pick<EvalQueue, 'putEval' | 'makeEval' | 'unblock'>;
  /** The client stops an allocation's tasks. */
  readonly stopRun: (allocId: string, skipDelay: boolean) => void;
  /** The client receives a new allocation. */
  readonly startRun: (allocId: string) => void;
  /** Marks a running deployment successful when every group is healthy (in the same write). */
  readonly completeIfHealthy: (tx: Txn, d: Deployment) => boolean;
  /** (Re)arms a deployment's progress deadline after the commit. */
  readonly armProgressDeadline: (deploymentId: string) => void;
}

/**
 * The plan applier: writes a scheduler plan (stops, placements, in-place updates, reschedule links
 * and follow-ups, deployments, volume claims) and completes, blocks or fails its evaluation.
 */
export function createPlanApplier(
  ctx: CoreContext,
  deps: PlanApplyDeps,
): (tx: Txn, job: Job | undefined, ev: Evaluation, plan: SchedulePlan) => void {
  const { queue } = deps;

  const applyAllocs = (tx: Txn, job: Job | undefined, ev: Evaluation, plan: SchedulePlan): void => {
    const skipDelay = ctx.noShutdownDelay.has(ev.ID);
    for (const { alloc, description } of plan.stop) {
      const a: Allocation = {
        ...alloc,
        DesiredStatus: AllocDesiredStatus.Stop,
        DesiredDescription: description,
        ModifyIndex: tx.index,
        AllocModifyIndex: tx.index,
        ModifyTime: ctx.nowNs(),
      };
      tx.put('allocs', a);
      tx.after(() => deps.stopRun(a.ID, skipDelay));
    }
    for (const alloc of plan.place) {
      tx.put('allocs', alloc);
      tx.after(() => {
        ctx.activeAllocs.add(alloc.ID);
        deps.startRun(alloc.ID);
      });
    }
    for (const alloc of plan.inPlace) {
      const a = { ...alloc, ModifyIndex: tx.index, AllocModifyIndex: tx.index, ModifyTime: ctx.nowNs() };
      tx.put('allocs', a);
    }
    for (const [oldId, newAllocId] of plan.replaced) {
      const old = tx.get('allocs', oldId);
      if (old) tx.put('allocs', { ...old, NextAllocation: newAllocId, ModifyIndex: tx.index });
    }
    for (const { alloc, at } of plan.followups) {
      if (!job) continue;
      const f = queue.makeEval(tx, job, EvalTriggeredBy.AllocFailure, ev.Priority, {
        Status: EvalStatus.Pending,
        StatusDescription: 'created for delayed rescheduling',
        WaitUntil: iso(at),
        Wait: Math.round((at - ctx.nowMs()) * 1e6),
        PreviousEval: ev.ID,
      });
      const cur = tx.get('allocs', alloc.ID) ?? alloc;
      tx.put('allocs', { ...cur, FollowupEvalID: f.ID, ModifyIndex: tx.index });
    }
  };

  const applyDeployments = (tx: Txn, plan: SchedulePlan): void => {
    for (const d of plan.cancelled) {
      const c = { ...d, ModifyIndex: tx.index, ModifyTime: ctx.nowNs() };
      tx.put('deployments', c);
    }
    if (plan.deployment) {
      const d = { ...plan.deployment, ModifyIndex: tx.index, ModifyTime: ctx.nowNs() };
      tx.put('deployments', d);
      if (d.Status === DeploymentStatus.Running) deps.completeIfHealthy(tx, d);
      tx.after(() => deps.armProgressDeadline(d.ID));
    }
  };

  const applyClaims = (tx: Txn, plan: SchedulePlan): void => {
    for (const v of plan.claims) {
      const cur = tx.get('volumes', jobKey(v.Namespace, v.ID));
      if (cur && !jsonEqual(cur.Claims, v.Claims))
        tx.put('volumes', { ...cur, Claims: v.Claims, ModifyIndex: tx.index });
    }
  };

  /** Completes the evaluation, or keeps/creates one blocked evaluation for what did not fit. */
  const settleEval = (tx: Txn, job: Job | undefined, ev: Evaluation, plan: SchedulePlan): void => {
    const queued = nullRecord<number>();
    for (const g of job?.TaskGroups ?? []) setOwn(queued, g.Name, ownValue(plan.queued, g.Name) ?? 0);
    const failed: Record<string, AllocMetric> | null =
      Object.keys(plan.failed).length > 0 ? plan.failed : null;
    const updated: Evaluation = {
      ...ev,
      Status: failed && ev.Status === EvalStatus.Blocked ? EvalStatus.Blocked : EvalStatus.Complete,
      StatusDescription: failed && ev.Status === EvalStatus.Blocked ? ev.StatusDescription : '',
      QueuedAllocations: queued,
      FailedTGAllocs: failed,
      DeploymentID: plan.deployment?.ID ?? ev.DeploymentID,
      SnapshotIndex: tx.index - 1,
      ModifyIndex: tx.index,
      ModifyTime: ctx.nowNs(),
    };
    const others = tx
      .ofJob('evals', ev.Namespace, ev.JobID)
      .filter((e) => e.Status === EvalStatus.Blocked && e.ID !== ev.ID);
    if (failed && ev.Status !== EvalStatus.Blocked && job) {
      const existing = others[0];
      if (existing) {
        const b = { ...existing, FailedTGAllocs: failed, QueuedAllocations: queued, ModifyIndex: tx.index };
        queue.putEval(tx, b);
        updated.BlockedEval = existing.ID;
      } else {
        const b = queue.makeEval(tx, job, ev.TriggeredBy, ev.Priority, {
          Status: EvalStatus.Blocked,
          StatusDescription: 'created to place remaining allocations',
          PreviousEval: ev.ID,
          FailedTGAllocs: failed,
          QueuedAllocations: queued,
          ClassEligibility: {},
        });
        updated.BlockedEval = b.ID;
      }
    } else if (!failed) {
      for (const o of others) {
        queue.putEval(tx, {
          ...o,
          Status: EvalStatus.Canceled,
          StatusDescription: 'canceled after more recent eval was processed',
          ModifyIndex: tx.index,
        });
      }
    }
    if (plan.more && job) {
      // the run stopped at its placement budget: the next slice of the job is placed by a
      // follow-up evaluation, after other requests had their turn
      const next = queue.makeEval(tx, job, EvalTriggeredBy.QueuedAllocs, ev.Priority, {
        PreviousEval: ev.ID,
      });
      updated.NextEval = next.ID;
    }
    queue.putEval(tx, updated);
  };

  return (tx, job, ev, plan) => {
    applyAllocs(tx, job, ev, plan);
    applyDeployments(tx, plan);
    applyClaims(tx, plan);
    if (plan.stop.length > 0) tx.after(queue.unblock);
    settleEval(tx, job, ev, plan);
  };
}
