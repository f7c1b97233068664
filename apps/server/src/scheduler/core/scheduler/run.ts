import { DeploymentStatus, JobType, nullRecord } from '@sked/model';
import type { Allocation, Deployment, Evaluation, Job, TaskGroup } from '../types.js';
import { copyRecord } from '../internal/records.js';
import { desiredOf, type DesiredUpdates, type SchedContext, type SchedulePlan } from './plan.js';
import { placeAlloc, type PlaceOptions } from './place.js';
import { selectNode, type PlaceResult, type SelectOptions } from './select.js';
import { release, type World } from './world.js';

/** One scheduling run of a job: the plan being built, the world it changes, and the job's deployment. */
export interface Run {
  readonly ctx: SchedContext;
  readonly world: World;
  readonly plan: SchedulePlan;
  readonly job: Job;
  readonly eval: Evaluation;
  /** Whether a deployment of this version failed (its rollout halts). */
  readonly failedForVersion: boolean;
  /** Whether this version wants a deployment (service job with an update block, none finished). */
  readonly wantsDeployment: boolean;
  /** Placements left before the run stops at its budget (see SchedContext.placementBudget). */
  placesLeft: number;
  /** The deployment this plan works on (a copy), if any yet. */
  deployment: Deployment | undefined;
  /** The running deployment of this version as stored, if any. */
  readonly storedDeployment: Deployment | undefined;
  /** The deployment of this version, created when the job wants one. */
  ensureDeployment(): Deployment | undefined;
  /** Stops an allocation (freeing what it held in the world). */
  stop(a: Allocation, description: string): void;
  desired(group: string): DesiredUpdates;
  select(g: TaskGroup, options: SelectOptions): PlaceResult;
  /** Places an allocation on a selected node. */
  place(
    g: TaskGroup,
    r: PlaceResult,
    o: Omit<PlaceOptions, 'job' | 'group' | 'node' | 'metric' | 'eval'>,
  ): Allocation;
}

/** Starts the run of a job (its deployments decide the rollout state). */
export function startRun(ctx: SchedContext, world: World, plan: SchedulePlan, job: Job, ev: Evaluation): Run {
  const deployments = ctx.state.ofJob('deployments', job.Namespace, job.ID);
  const ofVersion = (d: Deployment): boolean =>
    d.JobVersion === job.Version && d.JobCreateIndex === job.CreateIndex;
  const stored = deployments.find((d) => ofVersion(d) && d.Status === DeploymentStatus.Running);
  for (const d of deployments)
    if (d.Status === DeploymentStatus.Running && d.ID !== stored?.ID)
      plan.cancelled.push({
        ...d,
        Status: DeploymentStatus.Cancelled,
        StatusDescription: 'Cancelled due to newer version of job',
      });
  const terminalForVersion = deployments.some((d) => ofVersion(d) && d.Status !== DeploymentStatus.Running);
  const run: Run = {
    ctx,
    world,
    plan,
    job,
    eval: ev,
    failedForVersion: deployments.some((d) => ofVersion(d) && d.Status === DeploymentStatus.Failed),
    wantsDeployment:
      job.Type === JobType.Service && job.TaskGroups.some((g) => g.Update !== null) && !terminalForVersion,
    placesLeft: ctx.placementBudget ?? Number.POSITIVE_INFINITY,
    deployment: stored ? copyDeployment(stored) : undefined,
    storedDeployment: stored,
    ensureDeployment() {
      if (!run.wantsDeployment) return undefined;
      run.deployment ??= newDeployment(ctx, job, ev, plan);
      return run.deployment;
    },
    stop(a, description) {
      plan.stop.push({ alloc: a, description });
      release(world, a);
    },
    desired: (group) => desiredOf(plan, group),
    select: (g, options) => selectNode(ctx, world, job, g, options),
    place: (g, r, o) => {
      run.placesLeft--;
      return placeAlloc(ctx, world, plan, {
        ...o,
        job,
        group: g,
        node: r.node as NonNullable<PlaceResult['node']>,
        metric: r.metric,
        eval: ev,
      });
    },
  };
  return run;
}

/** A copy of a deployment that the run changes in place (its group states; their other fields are flat). */
function copyDeployment(d: Deployment): Deployment {
  return {
    ...d,
    TaskGroups: copyRecord(d.TaskGroups, (s) => ({
      ...s,
      PlacedCanaries: s.PlacedCanaries ? [...s.PlacedCanaries] : s.PlacedCanaries,
    })),
  };
}

function newDeployment(ctx: SchedContext, job: Job, ev: Evaluation, plan: SchedulePlan): Deployment {
  plan.deploymentCreated = true;
  return {
    ID: ctx.newId(),
    Namespace: job.Namespace,
    JobID: job.ID,
    JobVersion: job.Version,
    JobCreateIndex: job.CreateIndex,
    JobModifyIndex: job.JobModifyIndex,
    JobSpecModifyIndex: job.JobModifyIndex,
    EvalPriority: ev.Priority,
    IsMultiregion: false,
    Status: DeploymentStatus.Running,
    StatusDescription: 'Deployment is running',
    TaskGroups: nullRecord(),
    CreateIndex: ctx.index,
    ModifyIndex: ctx.index,
    CreateTime: ctx.now * 1e6,
    ModifyTime: ctx.now * 1e6,
  };
}
