import { AllocDesiredStatus, DeploymentStatus, jsonEqual } from '@sked/model';
import { clientTerminal, isLive } from '../internal/status.js';
import type { Allocation, Evaluation, Job } from '../types.js';
import { desiredOf, emptyPlan, type SchedContext, type SchedulePlan } from './plan.js';
import { reconcileGroup } from './reconcile-group.js';
import { startRun } from './run.js';
import { buildWorld, release, type World } from './world.js';

export type { DesiredUpdates, SchedContext, SchedulePlan } from './plan.js';

/** A stopped (or purged, or parent) job: stop everything and cancel its running deployments. */
function stopAll(ctx: SchedContext, world: World, plan: SchedulePlan, ev: Evaluation): SchedulePlan {
  const all = ctx.state.ofJob('allocs', ev.Namespace, ev.JobID);
  for (const a of all.filter((x) => x.DesiredStatus === AllocDesiredStatus.Run && !clientTerminal(x))) {
    plan.stop.push({ alloc: a, description: 'alloc not needed due to job update' });
    release(world, a);
    desiredOf(plan, a.TaskGroup).Stop++;
  }
  for (const d of ctx.state.ofJob('deployments', ev.Namespace, ev.JobID))
    if (d.Status === DeploymentStatus.Running || d.Status === DeploymentStatus.Paused)
      plan.cancelled.push({
        ...d,
        Status: DeploymentStatus.Cancelled,
        StatusDescription: 'Cancelled because job is stopped',
      });
  return plan;
}

/**
 * The scheduler: computes what an evaluation changes (placements, stops, in-place updates,
 * reschedules, the deployment, volume claims) from a read-only state, without writing anything.
 * The caller applies the plan (evals/plan-apply.ts) or reports it (a job plan).
 * @param ctx - The read-only state, the index and time of the run, the ID source and the evaluation's flags.
 * @param job - The job as stored (undefined when purged).
 * @param ev - The evaluation.
 * @returns the plan.
 */
export function schedule(ctx: SchedContext, job: Job | undefined, ev: Evaluation): SchedulePlan {
  const plan = emptyPlan();
  const world = buildWorld(ctx);
  const parentOnly =
    job !== undefined && (job.Periodic !== null || job.ParameterizedJob !== null) && !job.Dispatched;
  if (!job || job.Stop || parentOnly) return stopAll(ctx, world, plan, ev);

  const all = ctx.state.ofJob('allocs', ev.Namespace, ev.JobID);
  const mine = all.filter((a) => a.Job === null || a.Job.CreateIndex === job.CreateIndex);
  // Stop allocations of groups that no longer exist.
  const groupNames = new Set(job.TaskGroups.map((g) => g.Name));
  for (const a of mine) {
    if (groupNames.has(a.TaskGroup) || !isLive(a)) continue;
    plan.stop.push({ alloc: a, description: 'alloc not needed as task group was removed' });
    release(world, a);
    desiredOf(plan, a.TaskGroup).Stop++;
  }

  const run = startRun(ctx, world, plan, job, ev);
  // each group reconciles its own allocations: one pass over the job's, not one per group
  const byGroup = new Map<string, Allocation[]>();
  for (const a of mine) {
    const list = byGroup.get(a.TaskGroup);
    if (list) list.push(a);
    else byGroup.set(a.TaskGroup, [a]);
  }
  for (const g of job.TaskGroups) {
    if (run.placesLeft <= 0) {
      plan.more = true; // the next slice of the job is a follow-up evaluation's
      break;
    }
    reconcileGroup(run, g, byGroup.get(g.Name) ?? []);
  }
  const dep = run.deployment;
  plan.deployment = dep;
  if (dep && !plan.deploymentCreated && jsonEqual(dep, run.storedDeployment)) plan.deployment = undefined;
  plan.claims = [...world.volumes.values()];
  return plan;
}
