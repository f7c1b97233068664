import { AllocClientStatus, AllocDesiredStatus, EvalTriggeredBy, TaskStateName } from '@sked/model';

import type { AllocUpdate } from '../client/runs.js';
import type { CoreContext } from '../context.js';
import type { EvalQueue } from '../evals/eval-queue.js';
import { clientTerminal } from '../internal/status.js';
import { jobKey } from '../state/keys.js';
import type { Txn } from '../state/store.js';
import type { Allocation, TaskState } from '../types.js';

/** What follows a client's update of an allocation (wired by cluster.ts). */
export interface ClientUpdateDeps {
  readonly queue: Pick<EvalQueue, 'makeEval' | 'unblock'>;
  /** The client is done with the allocation. */
  readonly finishRun: (allocId: string) => void;
  /** Releases the volume claims of a finished allocation. */
  readonly releaseClaims: (allocId: string) => void;
  /** Records an allocation's deployment health (deployments/watcher.ts). */
  readonly setHealth: (tx: Txn, alloc: Allocation, healthy: boolean, why?: string) => void;
}

/** The client status that task states add up to. */
function clientStatusOf(
  states: readonly TaskState[],
): Pick<Allocation, 'ClientStatus' | 'ClientDescription'> {
  if (states.length > 0 && states.every((s) => s.State === TaskStateName.Dead)) {
    const failed = states.some((s) => s.Failed);
    return failed
      ? { ClientStatus: AllocClientStatus.Failed, ClientDescription: 'Failed tasks' }
      : { ClientStatus: AllocClientStatus.Complete, ClientDescription: 'All tasks have completed' };
  }
  if (states.some((s) => s.State === TaskStateName.Running))
    return { ClientStatus: AllocClientStatus.Running, ClientDescription: 'Tasks are running' };
  return { ClientStatus: AllocClientStatus.Pending, ClientDescription: 'No tasks have started' };
}

/**
 * The write of a client-side change to an allocation's task states: the client status follows
 * from them; a finished allocation frees its capacity (blocked evaluations retry, claims are
 * released later), and a failed one is evaluated (`alloc-failure`) and marked unhealthy in its
 * deployment.
 */
export function createClientUpdate(ctx: CoreContext, deps: ClientUpdateDeps): AllocUpdate {
  const finished = (tx: Txn, a: Allocation): void => {
    tx.after(() => {
      ctx.activeAllocs.delete(a.ID);
      deps.finishRun(a.ID);
      deps.queue.unblock();
      ctx.timers.later(() => deps.releaseClaims(a.ID), ctx.timing.claimReleaseMs, {
        kind: 'allocation',
        id: a.ID,
      });
    });
    if (a.ClientStatus !== AllocClientStatus.Failed || a.DesiredStatus !== AllocDesiredStatus.Run) return;
    const job = tx.get('jobs', jobKey(a.Namespace, a.JobID));
    if (job && !job.Stop) deps.queue.makeEval(tx, job, EvalTriggeredBy.AllocFailure);
    if (a.DeploymentID && a.DeploymentStatus?.Healthy !== true) deps.setHealth(tx, a, false);
  };

  return (allocId, fn) =>
    ctx.store.write((tx) => {
      const cur = tx.get('allocs', allocId);
      if (!cur) return undefined;
      const states = structuredClone(cur.TaskStates ?? {});
      const a: Allocation = { ...cur };
      fn(a, states);
      a.TaskStates = states;
      const wasTerminal = clientTerminal(cur);
      if (!wasTerminal) Object.assign(a, clientStatusOf(Object.values(states)));
      a.ModifyIndex = tx.index;
      a.ModifyTime = ctx.nowNs();
      tx.put('allocs', a);
      if (!wasTerminal && clientTerminal(a)) finished(tx, a);
      return a;
    });
}
