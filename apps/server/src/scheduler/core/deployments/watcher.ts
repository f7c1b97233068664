import { DeploymentStatus, EvalStatus, EvalTriggeredBy, setOwn } from '@sked/model';

import type { Cluster } from '../api.js';
import type { TimerHandle } from '../clock.js';
import type { CoreContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import type { EvalQueue } from '../evals/eval-queue.js';
import { jobKey, versionKey } from '../state/keys.js';
import type { Txn } from '../state/store.js';
import type { Deployment, DeploymentState, Job } from '../types.js';
import { createHealthReports, type HealthReports } from './health-reports.js';

/** What the watcher needs from the job writes (wired by cluster.ts). */
export interface WatcherDeps {
  readonly queue: Pick<EvalQueue, 'makeEval'>;
  /** Stores a new version of a job (auto-revert). */
  readonly upsertJob: (tx: Txn, job: Job, existing: Job) => Job;
}

/** The deployment watcher: allocation health, promotion, auto-revert, completion and the progress deadline. */
export interface DeploymentWatcher {
  /** Records allocations' health and moves their deployments on (inside a write); see ./health-reports.ts. */
  readonly setHealth: HealthReports['setHealth'];
  /** Takes a client's health report of an allocation, written with the others due at once; see ./health-reports.ts. */
  readonly reportHealth: HealthReports['reportHealth'];
  /** Marks a deployment successful (and its job version stable) once every group is healthy. */
  readonly completeIfHealthy: (tx: Txn, d: Deployment) => boolean;
  /** (Re)arms the progress deadline of a running deployment. */
  readonly armProgressDeadline: (id: string) => void;
  promoteDeployment: Cluster['promoteDeployment'];
}

/** Whether a group's canaries are all placed and healthy (as the write sees them). */
function canariesHealthy(tx: Txn, g: DeploymentState): boolean {
  const placed = g.PlacedCanaries ?? [];
  return (
    g.DesiredCanaries > 0 &&
    !g.Promoted &&
    placed.length >= g.DesiredCanaries &&
    placed.every((id) => tx.get('allocs', id)?.DeploymentStatus?.Healthy === true)
  );
}

/** Whether an evaluation of the deployment's job that will see its progress is waiting to run. */
function rolloutEvalWaiting(tx: Txn, d: Deployment): boolean {
  return tx
    .ofJob('evals', d.Namespace, d.JobID)
    .some((e) => e.Status === EvalStatus.Pending && e.TriggeredBy === EvalTriggeredBy.DeploymentWatcher);
}

/** Creates the deployment watcher. */
export function createDeploymentWatcher(ctx: CoreContext, deps: WatcherDeps): DeploymentWatcher {
  const { store } = ctx;
  const deploymentTimers = new Map<string, TimerHandle>();

  const completeIfHealthy = (tx: Txn, d: Deployment): boolean => {
    const groups = Object.values(d.TaskGroups);
    if (
      groups.length === 0 ||
      !groups.every((g) => g.HealthyAllocs >= g.DesiredTotal && (g.DesiredCanaries === 0 || g.Promoted))
    )
      return false;
    const job = tx.get('jobs', jobKey(d.Namespace, d.JobID));
    const done: Deployment = {
      ...d,
      Status: DeploymentStatus.Successful,
      StatusDescription: 'Deployment completed successfully',
    };
    tx.put('deployments', done);
    deploymentTimers.get(d.ID)?.cancel();
    const v = tx.get('jobVersions', versionKey(d.Namespace, d.JobID, d.JobVersion));
    if (v) tx.put('jobVersions', { ...v, Stable: true });
    if (job && job.Version === d.JobVersion) tx.put('jobs', { ...job, Stable: true, ModifyIndex: tx.index });
    return true;
  };

  /** An unhealthy allocation fails the deployment; with AutoRevert the latest stable version comes back. */
  const fail = (tx: Txn, d: Deployment, autoRevert: boolean, why?: string): void => {
    const job = tx.get('jobs', jobKey(d.Namespace, d.JobID));
    d.Status = DeploymentStatus.Failed;
    d.StatusDescription = why
      ? `Failed due to unhealthy allocations: ${why}`
      : 'Failed due to unhealthy allocations';
    if (autoRevert && job && job.Version === d.JobVersion) {
      const stable = tx
        .ofJob('jobVersions', d.Namespace, d.JobID)
        .filter((v) => v.Stable && v.Version < d.JobVersion)
        .at(-1);
      if (stable) {
        d.StatusDescription += ` - rolling back to job version ${stable.Version}`;
        tx.put('deployments', d);
        const reverted = deps.upsertJob(tx, { ...stable, Status: job.Status }, job);
        deps.queue.makeEval(tx, reverted, EvalTriggeredBy.DeploymentWatcher, d.EvalPriority, {
          DeploymentID: d.ID,
        });
        return;
      }
      d.StatusDescription += ' - no stable job version to auto revert to';
    }
    tx.put('deployments', d);
  };

  /** Healthy allocations: promote canaries when allowed, complete, or go on with the rollout. */
  const progress = (tx: Txn, d: Deployment): void => {
    const groups = Object.values(d.TaskGroups);
    if (groups.some((g) => g.DesiredCanaries > 0 && !g.Promoted)) {
      const ready = (g: DeploymentState, auto: boolean): boolean =>
        g.DesiredCanaries === 0 || g.Promoted || ((!auto || g.AutoPromote) && canariesHealthy(tx, g));
      if (!groups.every((g) => ready(g, true))) {
        if (groups.every((g) => ready(g, false)))
          d.StatusDescription = 'Deployment is running but requires manual promotion';
        tx.put('deployments', d);
        return;
      }
      for (const [name, g] of Object.entries(d.TaskGroups))
        if (g.DesiredCanaries > 0) setOwn(d.TaskGroups, name, { ...g, Promoted: true });
      d.StatusDescription = 'Deployment is running';
      tx.put('deployments', d);
    }
    if (completeIfHealthy(tx, d)) return;
    tx.put('deployments', d);
    const job = tx.get('jobs', jobKey(d.Namespace, d.JobID));
    // one evaluation moves the rollout on: while one is waiting, further healthy allocations join
    // it (as the service's broker keeps one evaluation per job), not one full evaluation of the job each
    if (job && !rolloutEvalWaiting(tx, d))
      deps.queue.makeEval(tx, job, EvalTriggeredBy.DeploymentWatcher, d.EvalPriority, { DeploymentID: d.ID });
    tx.after(() => armProgressDeadline(d.ID));
  };

  const health = createHealthReports(ctx, { progress, fail });

  const armProgressDeadline = (id: string): void => {
    const d = store.deployments.get(id);
    if (!d || d.Status !== DeploymentStatus.Running) return;
    let deadline = 0;
    for (const g of Object.values(d.TaskGroups)) deadline = Math.max(deadline, g.ProgressDeadline / 1e6);
    if (deadline <= 0) return;
    deploymentTimers.get(id)?.cancel();
    deploymentTimers.set(
      id,
      ctx.timers.later(
        () => {
          deploymentTimers.delete(id);
          store.write((tx) => {
            const cur = tx.get('deployments', id);
            if (!cur || cur.Status !== DeploymentStatus.Running) return;
            tx.put('deployments', {
              ...cur,
              Status: DeploymentStatus.Failed,
              StatusDescription: 'Failed due to progress deadline',
              ModifyIndex: tx.index,
            });
          });
        },
        deadline,
        { kind: 'deployment', id },
      ),
    );
  };

  const promoteDeployment: Cluster['promoteDeployment'] = (input) =>
    store.write((tx) => {
      const d0 = tx.get('deployments', input.deploymentId);
      if (!d0) throw notFound('deployment not found');
      if (d0.Status !== DeploymentStatus.Running)
        throw badRequest(`Deployment "${d0.ID}" is ${d0.Status}, not running`);
      const groups = Object.values(d0.TaskGroups);
      if (!groups.some((g) => g.DesiredCanaries > 0 && !g.Promoted))
        throw badRequest(`Deployment "${d0.ID}" has no canaries to promote`);
      const d: Deployment = structuredClone(d0);
      for (const g of Object.values(d.TaskGroups)) if (g.DesiredCanaries > 0) g.Promoted = true;
      d.StatusDescription = 'Deployment is running';
      d.ModifyIndex = tx.index;
      d.ModifyTime = ctx.nowNs();
      tx.put('deployments', d);
      const job = tx.get('jobs', jobKey(d.Namespace, d.JobID));
      if (!job) throw notFound('job not found');
      const e = deps.queue.makeEval(tx, job, EvalTriggeredBy.DeploymentWatcher, d.EvalPriority, {
        DeploymentID: d.ID,
      });
      return { EvalID: e.ID, Index: tx.index };
    });

  return { ...health, completeIfHealthy, armProgressDeadline, promoteDeployment };
}
