import { EvalStatus, type EvalTriggeredBy } from '@sked/model';
import type { CoreContext } from '../context.js';
import type { TimerHandle } from '../clock.js';
import type { SchedulePlan } from '../scheduler/schedule.js';
import { schedule } from '../scheduler/schedule.js';
import { jobKey } from '../state/keys.js';
import type { Txn } from '../state/store.js';
import type { Evaluation, Job } from '../types.js';
import { evalIdentity, newEvaluation, type EvalJob } from './factory.js';
import { describeError } from '../contain.js';

/** The evaluation broker: creates evaluations, runs each (once) after its delay, retries blocked ones. */
export interface EvalQueue {
  /** Stores an evaluation with its event, keeping the blocked set in step. */
  readonly putEval: (tx: Txn, e: Evaluation) => void;
  /** Creates an evaluation of `job` (pending unless `extra` says otherwise) and queues it. */
  readonly makeEval: (
    tx: Txn,
    job: EvalJob,
    triggeredBy: EvalTriggeredBy,
    priority?: number,
    extra?: Partial<Evaluation>,
  ) => Evaluation;
  /** Re-queues the blocked evaluations (capacity may have freed), at most once per eval delay. */
  readonly unblock: () => void;
  /** Whether no evaluation is waiting to be processed. */
  readonly idle: () => boolean;
  /** Queues the stored pending evaluations and retries the blocked ones (after a restore). */
  readonly resume: () => void;
}

/**
 * Most allocations one evaluation's write places: a larger job is placed in slices, each a write of
 * its own (a follow-up `queued-allocs` evaluation), so other requests are served between them.
 */
export const PLACEMENTS_PER_WRITE = 200;

/** How an evaluation's plan is applied (evals/plan-apply.ts, wired by cluster.ts). */
export type ApplyPlan = (tx: Txn, job: Job | undefined, ev: Evaluation, plan: SchedulePlan) => void;

/**
 * Creates the evaluation queue.
 * @param ctx - The core context.
 * @param applyPlan - Applies a computed plan inside the evaluation's write.
 */
export function createEvalQueue(ctx: CoreContext, applyPlan: ApplyPlan): EvalQueue {
  const { store, timing } = ctx;
  const evalTimers = new Map<string, TimerHandle>();
  let unblockQueued = false;

  const putEval = (tx: Txn, e: Evaluation): void => {
    tx.put('evals', e);
    tx.after(() => {
      if (e.Status === EvalStatus.Blocked) ctx.blockedEvals.add(e.ID);
      else ctx.blockedEvals.delete(e.ID);
    });
  };

  const enqueue = (id: string, delay: number): void => {
    if (ctx.timers.closed || evalTimers.has(id)) return;
    const t = ctx.timers.later(() => {
      evalTimers.delete(id);
      processEval(id);
    }, delay);
    evalTimers.set(id, t);
  };

  const makeEval: EvalQueue['makeEval'] = (tx, job, triggeredBy, priority = 0, extra = {}) => {
    const e = newEvaluation({
      ...evalIdentity(job, ctx.newId(), tx.index, ctx.nowNs()),
      Priority: priority > 0 ? priority : job.Priority,
      TriggeredBy: triggeredBy,
      ...extra,
    });
    putEval(tx, e);
    const at = e.WaitUntil ? Date.parse(e.WaitUntil) - ctx.nowMs() : timing.evalDelayMs;
    if (e.Status === EvalStatus.Pending) tx.after(() => enqueue(e.ID, Math.max(timing.evalDelayMs, at)));
    return e;
  };

  const unblock = (): void => {
    if (unblockQueued) return;
    unblockQueued = true;
    ctx.timers.later(() => {
      unblockQueued = false;
      for (const id of ctx.blockedEvals) enqueue(id, 0);
    }, timing.evalDelayMs);
  };

  const processEval = (id: string): void => {
    try {
      store.write((tx) => {
        const ev = tx.get('evals', id);
        if (!ev || (ev.Status !== EvalStatus.Pending && ev.Status !== EvalStatus.Blocked)) return;
        const job = tx.get('jobs', jobKey(ev.Namespace, ev.JobID));
        const plan = schedule(
          {
            state: tx,
            index: tx.index,
            now: ctx.nowMs(),
            newId: ctx.newId,
            forceReschedule: ctx.forceReschedule.has(ev.ID),
            noShutdownDelay: ctx.noShutdownDelay.has(ev.ID),
            activeAllocIds: ctx.activeAllocs,
            placementBudget: PLACEMENTS_PER_WRITE,
          },
          job,
          ev,
        );
        applyPlan(tx, job, ev, plan);
      });
    } catch (error) {
      // A scheduler fault must not take the server down: record it on the evaluation.
      ctx.contain.log(`sked-server: evaluation ${id} failed: ${describeError(error)}`, error);
      store.write((tx) => {
        const ev = tx.get('evals', id);
        if (!ev) return;
        putEval(tx, {
          ...ev,
          Status: EvalStatus.Failed,
          StatusDescription: `scheduler error: ${String(error)}`,
          ModifyIndex: tx.index,
        });
      });
    } finally {
      ctx.forceReschedule.delete(id);
      ctx.noShutdownDelay.delete(id);
    }
  };

  const resume = (): void => {
    for (const e of store.evals.items.values()) {
      if (e.Status === EvalStatus.Blocked) ctx.blockedEvals.add(e.ID);
      if (e.Status !== EvalStatus.Pending) continue;
      const at = e.WaitUntil ? Date.parse(e.WaitUntil) - ctx.nowMs() : 0;
      enqueue(e.ID, Math.max(timing.evalDelayMs, at));
    }
    if (ctx.blockedEvals.size > 0) unblock();
  };

  return { putEval, makeEval, unblock, idle: () => evalTimers.size === 0, resume };
}
