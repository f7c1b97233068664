import { AllocClientStatus, AllocDesiredStatus, DeploymentStatus, EvalTriggeredBy } from '@sked/model';

import type { CoreContext } from './context.js';
import { clientTerminal } from './internal/status.js';
import { jobKey } from './state/keys.js';
import type { Allocation } from './types.js';
import type { EvalQueue } from './evals/eval-queue.js';

/** What resuming a restored state sets in motion (wired by cluster.ts). */
export interface RecoverDeps {
  readonly queue: Pick<EvalQueue, 'makeEval' | 'resume'>;
  readonly armPeriodic: (namespace: string, id: string) => void;
  readonly armProgressDeadline: (deploymentId: string) => void;
  readonly releaseClaims: (allocId: string) => void;
}

const LOST = 'alloc is lost since its client restarted';

/**
 * Resumes a cluster restored from a data dir, as the service does when a client comes back
 * without its allocations: every allocation its client had not finished is marked `lost` (its
 * tasks died with the previous process) and its job gets a `node-update` evaluation that places
 * replacements; stored pending evaluations are queued again and blocked ones wait for capacity;
 * periodic jobs re-arm their cron timers (the next launch after now, as the service does after a
 * leader change); running deployments re-arm their progress deadlines.
 * @param ctx - The core context (its store holds the restored state).
 * @param deps - The queue, periodic timers, deployment watcher and volume claims.
 */
export function resumeRestored(ctx: CoreContext, deps: RecoverDeps): void {
  const { store } = ctx;
  const lost: Allocation[] = [];
  store.write((tx) => {
    const jobs = new Map<string, Allocation>();
    for (const a of store.allocs.items.values()) {
      if (clientTerminal(a)) continue;
      tx.put('allocs', {
        ...a,
        DesiredStatus: AllocDesiredStatus.Stop,
        DesiredDescription: LOST,
        ClientStatus: AllocClientStatus.Lost,
        ClientDescription: LOST,
        ModifyIndex: tx.index,
        AllocModifyIndex: tx.index,
        ModifyTime: ctx.nowNs(),
      });
      lost.push(a);
      jobs.set(jobKey(a.Namespace, a.JobID), a);
    }
    for (const a of jobs.values()) {
      const job = tx.get('jobs', jobKey(a.Namespace, a.JobID));
      if (job && !job.Stop) deps.queue.makeEval(tx, job, EvalTriggeredBy.NodeUpdate, 0, { NodeID: a.NodeID });
    }
  });
  for (const a of lost) deps.releaseClaims(a.ID);
  deps.queue.resume();
  for (const job of store.jobs.items.values()) {
    if (job.Periodic) deps.armPeriodic(job.Namespace, job.ID);
  }
  for (const d of store.deployments.items.values()) {
    if (d.Status === DeploymentStatus.Running) deps.armProgressDeadline(d.ID);
  }
}
