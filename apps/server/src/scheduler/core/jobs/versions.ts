import { AllocClientStatus, AllocDesiredStatus, EvalTriggeredBy } from '@sked/model';
import type { Cluster } from '../api.js';
import type { CoreContext } from '../context.js';
import { diffJobs, type JobDiff } from '../diff.js';
import { badRequest, notFound } from '../errors.js';
import { isParent } from '../internal/status.js';
import { versionKey } from '../state/keys.js';
import type { JobWriteDeps } from './register.js';
import { mustJob, upsertJob } from './upsert.js';

const versionNotFound = (id: string, namespace: string, version: number): Error =>
  badRequest(`job "${id}" in namespace "${namespace}" at version ${version} not found`);

/** Revert, stability, evaluate and the version list. */
export function createVersionWrites(
  ctx: CoreContext,
  deps: JobWriteDeps,
): Pick<Cluster, 'revertJob' | 'setJobStability' | 'evaluateJob' | 'jobVersions'> {
  const { store } = ctx;

  const revertJob: Cluster['revertJob'] = (input) =>
    store.write((tx) => {
      const job = mustJob(tx, input.namespace, input.id);
      if (input.enforcePriorVersion !== undefined && input.enforcePriorVersion !== job.Version)
        throw badRequest(
          `Current job has version ${job.Version}; enforcing version ${input.enforcePriorVersion}`,
        );
      if (input.version === job.Version) throw badRequest(`can't revert to current version ${job.Version}`);
      const target = tx.get('jobVersions', versionKey(input.namespace, input.id, input.version));
      if (!target) throw versionNotFound(input.id, input.namespace, input.version);
      input.admit?.(target);
      const stored = upsertJob(ctx, tx, { ...target, Status: job.Status }, job);
      const e = isParent(stored) ? undefined : deps.queue.makeEval(tx, stored, EvalTriggeredBy.JobRegister);
      if (stored.Periodic) tx.after(() => deps.armPeriodic(stored.Namespace, stored.ID));
      return {
        EvalID: e?.ID ?? '',
        EvalCreateIndex: e ? tx.index : 0,
        JobModifyIndex: stored.JobModifyIndex,
        Index: tx.index,
      };
    });

  const setJobStability: Cluster['setJobStability'] = (input) =>
    store.write((tx) => {
      const job = mustJob(tx, input.namespace, input.id);
      const v = tx.get('jobVersions', versionKey(input.namespace, input.id, input.version));
      if (!v) throw versionNotFound(input.id, input.namespace, input.version);
      // already so: nothing is written and the index does not move
      if (v.Stable === input.stable && (job.Version !== input.version || job.Stable === input.stable))
        return { Index: store.index, JobModifyIndex: store.index };
      tx.put('jobVersions', { ...v, Stable: input.stable, ModifyIndex: tx.index });
      if (job.Version === input.version)
        tx.put('jobs', { ...job, Stable: input.stable, ModifyIndex: tx.index });
      return { Index: tx.index, JobModifyIndex: tx.index };
    });

  const evaluateJob: Cluster['evaluateJob'] = (input) =>
    store.write((tx) => {
      const job = mustJob(tx, input.namespace, input.id);
      if (job.Periodic && !job.Dispatched) throw badRequest("can't evaluate periodic job");
      if (job.ParameterizedJob && !job.Dispatched) throw badRequest("can't evaluate parameterized job");
      const e = deps.queue.makeEval(tx, job, EvalTriggeredBy.JobRegister);
      if (input.forceReschedule) {
        ctx.forceReschedule.add(e.ID);
        for (const a of tx.ofJob('allocs', job.Namespace, job.ID)) {
          if (
            a.ClientStatus === AllocClientStatus.Failed &&
            a.DesiredStatus === AllocDesiredStatus.Run &&
            a.NextAllocation === ''
          )
            tx.put('allocs', {
              ...a,
              DesiredTransition: { ...a.DesiredTransition, ForceReschedule: true },
              ModifyIndex: tx.index,
            });
        }
      }
      return { EvalID: e.ID, EvalCreateIndex: tx.index, JobModifyIndex: job.JobModifyIndex, Index: tx.index };
    });

  const jobVersions: Cluster['jobVersions'] = (input) => {
    const versions = store.ofJob('jobVersions', input.namespace, input.id).reverse();
    if (versions.length === 0) throw notFound('job not found');
    let diffs: JobDiff[] | null = null;
    if (input.diffs) {
      diffs = [];
      for (let i = 0; i + 1 < versions.length; i++) diffs.push(diffJobs(versions[i + 1], versions[i]));
    }
    return { Versions: versions, Diffs: diffs };
  };

  return { revertJob, setJobStability, evaluateJob, jobVersions };
}
