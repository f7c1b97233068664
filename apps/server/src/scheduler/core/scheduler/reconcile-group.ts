import {
  AllocClientStatus,
  AllocDesiredStatus,
  JobType,
  ownValue,
  SchedulerJobType,
  setOwn,
} from '@sked/model';
import { tasksUpdated } from '../diff.js';
import { isLive } from '../internal/status.js';
import type { Allocation, TaskGroup } from '../types.js';
import { mergeFailure } from './metrics.js';
import type { DesiredUpdates } from './plan.js';
import { groupState } from './place.js';
import { failTime, nameIndex, rescheduleDelay, rescheduleEligible } from './reschedule.js';
import type { Run } from './run.js';
import { reconcileSystemGroup } from './system.js';

/** The allocations of one group, sorted by what the reconciler does with them. */
interface GroupAllocs {
  readonly g: TaskGroup;
  readonly d: DesiredUpdates;
  /** Running allocations of the job's current version. */
  readonly current: Allocation[];
  /** Older allocations that can be updated in place / must be replaced. */
  readonly inPlace: Allocation[];
  readonly destructive: Allocation[];
  /** Batch allocations that completed (they keep their slot). */
  readonly complete: Allocation[];
  /** Failed allocations to reschedule now. */
  readonly reschedNow: Allocation[];
  /** Name indexes in use. */
  readonly used: Set<number>;
  /** Slots held by failed allocations (waiting to reschedule, or out of attempts). */
  occupied: number;
}

/** Failed allocations: reschedule now, later (a follow-up evaluation), or keep their slot when out of attempts. */
function sortFailed(run: Run, g: TaskGroup, failedOpen: readonly Allocation[], ga: GroupAllocs): void {
  const { ctx, job, plan } = run;
  for (const a of failedOpen) {
    const halted = run.failedForVersion && a.JobVersion === job.Version && a.DeploymentID !== '';
    if (ctx.forceReschedule || (!halted && rescheduleEligible(a, g, ctx.now))) {
      const delayNs = ctx.forceReschedule ? 0 : rescheduleDelay(a, g);
      const at = failTime(a) + delayNs / 1e6;
      if (at <= ctx.now + 1) {
        ga.reschedNow.push(a);
        continue;
      }
      if (a.FollowupEvalID === '') plan.followups.push({ alloc: a, at });
    }
    ga.used.add(nameIndex(a.Name));
    ga.occupied++;
  }
}

/** Canaries before promotion: place the missing canaries and leave the old allocations. Returns whether it applied. */
function placeCanaries(run: Run, ga: GroupAllocs): boolean {
  const { g, d, current, destructive } = ga;
  const wanted = g.Update && g.Update.Canary > 0 && destructive.length > 0 ? g.Update.Canary : 0;
  const promoted = ownValue(run.deployment?.TaskGroups, g.Name)?.Promoted ?? false;
  if (wanted === 0 || promoted) return false;
  const dd = run.ensureDeployment();
  const have = current.filter((a) => a.DeploymentStatus?.Canary).length;
  for (let i = have; i < wanted; i++) {
    const r = run.select(g, {});
    if (!r.node) {
      mergeFailure(run.plan, g.Name, r.metric);
      break;
    }
    run.place(g, r, { name: `${run.job.ID}.${g.Name}[${i}]`, deployment: dd, canary: true });
    d.Canary++;
  }
  d.Ignore += destructive.length + current.length;
  if (dd) groupState(dd, g, wanted, run.ctx.now);
  return true;
}

/** Too many: stop the extras, outdated and highest-named first. Returns the allocations kept. */
function stopExtras(run: Run, ga: GroupAllocs, slots: number): Allocation[] {
  const { current, inPlace, destructive, d, used } = ga;
  const keep = [...current, ...inPlace, ...destructive];
  if (keep.length <= Math.max(0, slots)) return keep;
  const ordered = [...keep].sort((a, b) => {
    const ao = current.includes(a) ? 1 : 0;
    const bo = current.includes(b) ? 1 : 0;
    if (ao !== bo) return ao - bo;
    return nameIndex(b.Name) - nameIndex(a.Name);
  });
  const extra = ordered.slice(0, keep.length - Math.max(0, slots));
  for (const a of extra) {
    run.stop(a, 'alloc not needed due to job update');
    d.Stop++;
    used.delete(nameIndex(a.Name));
  }
  return keep.filter((a) => !extra.includes(a));
}

/** In-place updates (joining the deployment; a running allocation counts as healthy). */
function updateInPlace(run: Run, ga: GroupAllocs, keep: readonly Allocation[]): void {
  const { g, d } = ga;
  const { job, ctx } = run;
  for (const a of ga.inPlace.filter((x) => keep.includes(x))) {
    const updated: Allocation = { ...a, Job: job, JobVersion: job.Version };
    const dd = run.deployment || (run.wantsDeployment && g.Update) ? run.ensureDeployment() : undefined;
    if (dd) {
      updated.DeploymentID = dd.ID;
      groupState(dd, g, 0, ctx.now);
      const st = ownValue(dd.TaskGroups, g.Name);
      if (st && a.DeploymentID !== dd.ID) {
        st.PlacedAllocs++;
        if (a.ClientStatus === AllocClientStatus.Running) st.HealthyAllocs++;
      }
      if (a.ClientStatus === AllocClientStatus.Running)
        updated.DeploymentStatus = {
          Healthy: true,
          Timestamp: new Date(ctx.now).toISOString(),
          Canary: false,
          ModifyIndex: 0,
        };
    }
    run.plan.inPlace.push(updated);
    d.InPlaceUpdate++;
  }
}

/** Records a placement that found no node: its metric, and one more queued. */
function unplaced(run: Run, g: TaskGroup, metric: Allocation['Metrics'], queued = 1, coalesced = 0): void {
  mergeFailure(run.plan, g.Name, metric, coalesced);
  setOwn(run.plan.queued, g.Name, (ownValue(run.plan.queued, g.Name) ?? 0) + queued);
}

/** Reconciles one service or batch group: reschedules, canaries, count changes, updates and placements. */
export function reconcileGroup(run: Run, g: TaskGroup, mine: readonly Allocation[]): void {
  const { job, ctx } = run;
  const groupAllocs = mine.filter((a) => a.TaskGroup === g.Name);
  const live = groupAllocs.filter(isLive);
  const isBatch = job.Type === JobType.Batch || job.Type === JobType.SysBatch;
  const complete = isBatch
    ? groupAllocs.filter(
        (a) => a.DesiredStatus === AllocDesiredStatus.Run && a.ClientStatus === AllocClientStatus.Complete,
      )
    : [];
  const failedOpen = groupAllocs.filter(
    (a) =>
      a.DesiredStatus === AllocDesiredStatus.Run &&
      a.ClientStatus === AllocClientStatus.Failed &&
      a.NextAllocation === '',
  );
  const current = live.filter((a) => a.JobVersion === job.Version || (a.Job?.Version ?? -1) === job.Version);
  const ga: GroupAllocs = {
    g,
    d: run.desired(g.Name),
    current,
    inPlace: [],
    destructive: [],
    complete,
    reschedNow: [],
    used: new Set([...live, ...complete].map((a) => nameIndex(a.Name))),
    occupied: 0,
  };
  sortFailed(run, g, failedOpen, ga);
  if (job.Type === SchedulerJobType.System || job.Type === JobType.SysBatch) {
    reconcileSystemGroup(run, g, live, complete);
    return;
  }
  for (const a of live.filter((x) => !current.includes(x))) {
    const oldGroup = a.Job?.TaskGroups.find((x) => x.Name === g.Name);
    if (oldGroup && !tasksUpdated(oldGroup, g)) ga.inPlace.push(a);
    else ga.destructive.push(a);
  }
  if (placeCanaries(run, ga)) return;
  const slots = g.Count - complete.length - ga.occupied;
  const keep = stopExtras(run, ga, slots);
  updateInPlace(run, ga, keep);
  ga.d.Ignore += keep.filter((a) => current.includes(a)).length;
  const dd =
    ga.destructive.some((a) => keep.includes(a)) || keep.length < slots || ga.reschedNow.length > 0
      ? run.ensureDeployment()
      : run.deployment;
  replaceDestructive(run, ga, keep, dd);
  reschedule(run, ga, keep, dd);
  placeMissing(run, ga, keep, dd);
  const canaries = g.Update && g.Update.Canary > 0 && ga.destructive.length > 0 ? g.Update.Canary : 0;
  if (dd) groupState(dd, g, canaries, ctx.now);
}

type Dep = Run['deployment'];

/** Destructive updates, limited by max_parallel while a deployment is in progress. */
function replaceDestructive(run: Run, ga: GroupAllocs, keep: readonly Allocation[], dd: Dep): void {
  const { g, d, current } = ga;
  const left = ga.destructive.filter((a) => keep.includes(a));
  let budget = run.failedForVersion && g.Update ? 0 : left.length;
  if (g.Update && run.wantsDeployment) {
    const unhealthyNew = current.filter((a) => a.DeploymentStatus?.Healthy !== true).length;
    budget = Math.max(0, g.Update.MaxParallel - unhealthyNew);
  }
  for (const a of left.slice(0, budget)) {
    run.stop(a, 'alloc is being updated due to job update');
    const r = run.select(g, {});
    if (r.node) run.place(g, r, { name: a.Name, deployment: dd });
    else unplaced(run, g, r.metric);
    d.DestructiveUpdate++;
  }
  d.Ignore += Math.max(0, left.length - budget);
}

/** Reschedules failed allocations whose delay has passed (avoiding their node). */
function reschedule(run: Run, ga: GroupAllocs, keep: readonly Allocation[], dd: Dep): void {
  const { g, d, used, complete } = ga;
  for (const a of ga.reschedNow) {
    if (keep.length + complete.length + ga.occupied >= g.Count) break;
    const r = run.select(g, { avoid: a.NodeID });
    used.add(nameIndex(a.Name));
    ga.occupied++;
    if (!r.node) {
      unplaced(run, g, r.metric);
      continue;
    }
    const placed = run.place(g, r, { name: a.Name, deployment: dd, previous: a });
    run.plan.replaced.set(a.ID, placed.ID);
    d.Place++;
  }
}

/** Places what is missing, at the lowest free name indexes. */
function placeMissing(run: Run, ga: GroupAllocs, keep: readonly Allocation[], dd: Dep): void {
  const { g, d, used, complete } = ga;
  let missing = g.Count - keep.length - complete.length - ga.occupied;
  let next = 0;
  while (missing > 0) {
    if (run.placesLeft <= 0) {
      run.plan.more = true; // the rest is placed by a follow-up evaluation
      break;
    }
    while (used.has(next)) next++;
    const r = run.select(g, {});
    if (!r.node) {
      unplaced(run, g, r.metric, missing, missing - 1);
      break;
    }
    run.place(g, r, { name: `${run.job.ID}.${g.Name}[${next}]`, deployment: dd });
    used.add(next);
    d.Place++;
    missing--;
  }
}
