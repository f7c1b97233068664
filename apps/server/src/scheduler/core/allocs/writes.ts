import { AllocDesiredStatus, EvalTriggeredBy, JobType } from '@sked/model';

import type { Cluster } from '../api.js';
import type { ClientSim } from '../client/client-sim.js';
import type { CoreContext } from '../context.js';
import { normalizeSignal } from '../drivers/driver.js';
import { badRequest, notFound } from '../errors.js';
import type { EvalQueue } from '../evals/eval-queue.js';
import { jobKey } from '../state/keys.js';
import type { Allocation } from '../types.js';

/** Stop, signal and restart of an allocation. */
export function createAllocWrites(
  ctx: CoreContext,
  deps: {
    readonly queue: Pick<EvalQueue, 'makeEval'>;
    readonly client: Pick<ClientSim, 'stopRun' | 'signal' | 'restart'>;
  },
): Pick<Cluster, 'stopAlloc' | 'signalAlloc' | 'restartAlloc'> {
  const stopAlloc: Cluster['stopAlloc'] = (input) =>
    ctx.store.write((tx) => {
      const a = tx.get('allocs', input.allocId);
      if (!a) throw notFound('alloc not found');
      const stopped: Allocation = {
        ...a,
        DesiredStatus: AllocDesiredStatus.Stop,
        DesiredDescription: 'alloc was stopped by user',
        DesiredTransition: { ...a.DesiredTransition, Migrate: true },
        ModifyIndex: tx.index,
        AllocModifyIndex: tx.index,
        ModifyTime: ctx.nowNs(),
      };
      tx.put('allocs', stopped);
      const job = tx.get('jobs', jobKey(a.Namespace, a.JobID)) ?? a.Job;
      const e = deps.queue.makeEval(
        tx,
        job ?? {
          Namespace: a.Namespace,
          ID: a.JobID,
          Type: JobType.Service,
          Priority: 50,
          JobModifyIndex: 0,
        },
        EvalTriggeredBy.AllocStop,
      );
      tx.after(() => deps.client.stopRun(a.ID, input.noShutdownDelay ?? false));
      return { EvalID: e.ID, Index: tx.index };
    });

  const signalAlloc: Cluster['signalAlloc'] = (input) => {
    const sig = input.signal === undefined || input.signal === '' ? 'SIGKILL' : input.signal;
    const name = normalizeSignal(sig);
    if (!name) throw badRequest(`Unknown signal "${sig}"`);
    deps.client.signal(input.allocId, input.task, name);
    return {};
  };

  const restartAlloc: Cluster['restartAlloc'] = (input) => {
    deps.client.restart(input.allocId, input.task);
    return {};
  };

  return { stopAlloc, signalAlloc, restartAlloc };
}
