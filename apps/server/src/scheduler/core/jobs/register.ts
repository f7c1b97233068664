import { EvalTriggeredBy, nullRecord, setOwn } from '@sked/model';

import type { Cluster, RegisterResponse } from '../api.js';
import type { CoreContext } from '../context.js';
import { prepareJob } from '../defaults.js';
import { badRequest } from '../errors.js';
import type { EvalQueue } from '../evals/eval-queue.js';
import { isParent } from '../internal/status.js';
import { jobKey, versionKey } from '../state/keys.js';
import type { Txn } from '../state/store.js';
import type { Job } from '../types.js';
import { mustJob, upsertJob } from './upsert.js';

/** What the job writes need from the rest of the core. */
export interface JobWriteDeps {
  readonly queue: Pick<EvalQueue, 'makeEval'>;
  /** (Re)arms a periodic job's cron timer after its write. */
  readonly armPeriodic: (namespace: string, id: string) => void;
}

/** Check-and-set of a registration (`EnforceIndex` with `JobModifyIndex`). */
function checkModifyIndex(existing: Job | undefined, want: number): void {
  if (want === 0 && existing)
    throw badRequest(
      `Enforcing job modify index 0: job already exists with job modify index ${existing.JobModifyIndex}`,
    );
  if (want !== 0 && !existing) throw badRequest(`Enforcing job modify index ${want}: job does not exist`);
  if (existing && existing.JobModifyIndex !== want)
    throw badRequest(
      `Enforcing job modify index ${want}: job exists with conflicting job modify index: ${existing.JobModifyIndex}`,
    );
}

/** Register, deregister and batch deregister. */
export function createRegisterWrites(
  ctx: CoreContext,
  deps: JobWriteDeps,
): Pick<Cluster, 'registerJob' | 'deregisterJob' | 'batchDeregisterJobs'> {
  const { store } = ctx;

  const registerJob: Cluster['registerJob'] = (input) => {
    const job = prepareJob(input.job, { region: ctx.region });
    if (job.Region !== ctx.region) throw badRequest(`No path to region "${job.Region}"`);
    return store.write((tx) => {
      const existing = tx.get('jobs', jobKey(job.Namespace, job.ID));
      if (input.enforceIndex) checkModifyIndex(existing, input.jobModifyIndex ?? 0);
      if (input.preserveCounts && existing) {
        job.TaskGroups = job.TaskGroups.map((g) => {
          const old = existing.TaskGroups.find((x) => x.Name === g.Name);
          return old ? { ...g, Count: old.Count } : g;
        });
      }
      const stored = upsertJob(ctx, tx, job, existing, input.submission);
      let evalId = '';
      let evalIndex = 0;
      if (!isParent(stored)) {
        const e = deps.queue.makeEval(tx, stored, EvalTriggeredBy.JobRegister, input.evalPriority ?? 0);
        evalId = e.ID;
        evalIndex = tx.index;
      }
      if (stored.Periodic) tx.after(() => deps.armPeriodic(stored.Namespace, stored.ID));
      return {
        EvalID: evalId,
        EvalCreateIndex: evalIndex,
        JobModifyIndex: stored.JobModifyIndex,
        Index: tx.index,
      };
    });
  };

  /** Stops (or purges) one job inside a write; returns its deregister evaluation. */
  const deregisterIn = (
    tx: Txn,
    input: {
      namespace: string;
      id: string;
      purge?: boolean;
      evalPriority?: number;
      noShutdownDelay?: boolean;
    },
  ): RegisterResponse => {
    const job = mustJob(tx, input.namespace, input.id);
    let jmi = tx.index;
    if (input.purge) {
      tx.delete('jobs', jobKey(job.Namespace, job.ID));
      tx.delete('summaries', jobKey(job.Namespace, job.ID));
      for (const v of tx.ofJob('jobVersions', job.Namespace, job.ID))
        tx.delete('jobVersions', versionKey(v.Namespace, v.ID, v.Version));
      for (const s of tx.ofJob('submissions', job.Namespace, job.ID))
        tx.delete('submissions', versionKey(s.Namespace, s.JobID, s.Version));
    } else {
      // an already stopped job is put again as it is: no change, but its deregistration is an event
      const stopped = job.Stop ? job : upsertJob(ctx, tx, { ...job, Stop: true }, job);
      if (stopped === job) tx.put('jobs', job);
      jmi = stopped.JobModifyIndex;
    }
    const e = deps.queue.makeEval(tx, job, EvalTriggeredBy.JobDeregister, input.evalPriority ?? 0, {
      JobModifyIndex: jmi,
    });
    if (input.noShutdownDelay) ctx.noShutdownDelay.add(e.ID);
    if (job.Periodic) tx.after(() => deps.armPeriodic(job.Namespace, job.ID));
    return { EvalID: e.ID, EvalCreateIndex: tx.index, JobModifyIndex: jmi, Index: tx.index };
  };

  const deregisterJob: Cluster['deregisterJob'] = (input) =>
    store.write((tx) => deregisterIn(tx, input), 'job-deregister');

  const batchDeregisterJobs: Cluster['batchDeregisterJobs'] = (input) =>
    store.write((tx) => {
      if (input.jobs.length === 0) throw badRequest('No jobs to deregister');
      const evals = nullRecord<string>();
      for (const j of input.jobs) {
        const r = deregisterIn(tx, { ...j, purge: input.purge ?? false });
        setOwn(evals, `${j.namespace}.${j.id}`, r.EvalID);
      }
      return { Index: tx.index, JobEvals: evals };
    }, 'job-batch-deregister');

  return { registerJob, deregisterJob, batchDeregisterJobs };
}
