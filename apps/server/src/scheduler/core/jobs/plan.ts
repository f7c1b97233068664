import { diffJobs, EvalStatus, EvalTriggeredBy, type JobDiff, nullRecord, ownValue } from '@sked/model';
import type { Cluster, PlanResponse } from '../api.js';
import type { CoreContext } from '../context.js';
import { prepareJob } from '../defaults.js';
import { tasksUpdated } from '../diff.js';
import { badRequest } from '../errors.js';
import { evalIdentity, newEvaluation } from '../evals/factory.js';
import { iso } from '../internal/ids.js';
import { isParent } from '../internal/status.js';
import { schedule, type DesiredUpdates, type SchedulePlan } from '../scheduler/schedule.js';
import { jobKey } from '../state/keys.js';
import type { Evaluation, Job } from '../types.js';
import { nextLaunchOf } from './periodic.js';
import { upsertJob } from './upsert.js';

/** The `Updates` of a group diff: what the plan does to the group, by the service's names. */
function updatesOf(d: DesiredUpdates): Record<string, number> | null {
  const u: Record<string, number> = {};
  if (d.Place) u['create'] = d.Place;
  if (d.Stop) u['destroy'] = d.Stop;
  if (d.Migrate) u['migrate'] = d.Migrate;
  if (d.InPlaceUpdate) u['in-place update'] = d.InPlaceUpdate;
  if (d.DestructiveUpdate) u['create/destroy update'] = d.DestructiveUpdate;
  if (d.Canary) u['canary'] = d.Canary;
  if (d.Ignore) u['ignore'] = d.Ignore;
  return Object.keys(u).length ? u : null;
}

/** The job diff of a plan, annotated with the plan's updates and each edited task's kind of update. */
function annotatedDiff(existing: Job | undefined, stored: Job, plan: SchedulePlan): JobDiff {
  const diff = diffJobs(existing, stored);
  for (const g of diff.TaskGroups ?? []) {
    const d = ownValue(plan.desired, g.Name);
    if (d) g.Updates = updatesOf(d);
    const oldGroup = existing?.TaskGroups.find((x) => x.Name === g.Name);
    const newGroup = stored.TaskGroups.find((x) => x.Name === g.Name);
    if (oldGroup && newGroup) {
      const destructive = tasksUpdated(oldGroup, newGroup);
      for (const t of g.Tasks ?? [])
        if (t.Type === 'Edited')
          t.Annotations = [destructive ? 'forces create/destroy update' : 'forces in-place update'];
    }
  }
  return diff;
}

/** The plan (dry run) of a registration: computed on a transaction that is discarded. */
export function createPlanJob(ctx: CoreContext): Cluster['planJob'] {
  const shape = (job: Job, index: number): Evaluation =>
    newEvaluation({
      ...evalIdentity(job, ctx.newId(), index, ctx.nowNs()),
      TriggeredBy: EvalTriggeredBy.JobRegister,
    });

  return (input) => {
    const job = prepareJob(input.job, { region: ctx.region });
    if (job.Region !== ctx.region) throw badRequest(`No path to region "${job.Region}"`);
    return ctx.store.dryRun((tx): PlanResponse => {
      const existing = tx.get('jobs', jobKey(job.Namespace, job.ID));
      const stored = upsertJob(ctx, tx, job, existing);
      const ev: Evaluation = { ...shape(stored, tx.index), AnnotatePlan: true };
      const plan = schedule(
        { state: tx, index: tx.index, now: ctx.nowMs(), newId: ctx.newId, forceReschedule: false },
        isParent(stored) ? undefined : stored,
        ev,
      );
      const desired = nullRecord(Object.entries(plan.desired).map(([g, d]) => [g, { ...d }] as const));
      const failed = Object.keys(plan.failed).length > 0 ? plan.failed : null;
      const next = nextLaunchOf(stored, ctx.nowMs());
      return {
        Index: existing?.JobModifyIndex ?? 0,
        JobModifyIndex: existing?.JobModifyIndex ?? 0,
        Diff: input.diff ? annotatedDiff(existing, stored, plan) : null,
        Annotations: { DesiredTGUpdates: desired, PreemptedAllocs: null },
        FailedTGAllocs: failed,
        CreatedEvals: failed
          ? [
              {
                ...shape(stored, 0),
                ID: ctx.newId(),
                Status: EvalStatus.Blocked,
                StatusDescription: 'created to place remaining allocations',
                PreviousEval: ev.ID,
                FailedTGAllocs: failed,
              },
            ]
          : null,
        NextPeriodicLaunch: next === undefined ? null : iso(next),
        Warnings: '',
      };
    });
  };
}
