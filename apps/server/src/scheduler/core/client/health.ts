import type { CoreContext } from '../context.js';
import type { Allocation } from '../types.js';
import { allRunning, type AllocRun } from './runs.js';

/** Reports an allocation's deployment health to the server (deployments/watcher.ts, wired by cluster.ts). */
export type ReportHealth = (alloc: Allocation, healthy: boolean, why?: string) => void;

/** The client's health checks of allocations that belong to a deployment. */
export interface HealthChecks {
  /** Once every long-running task runs, the allocation is healthy after `MinHealthyTime`. */
  readonly checkHealthy: (run: AllocRun) => void;
  /** Unhealthy when not healthy by `HealthyDeadline`. */
  readonly armDeadline: (run: AllocRun) => void;
}

/** Creates the health checks. */
export function createHealthChecks(ctx: CoreContext, report: ReportHealth): HealthChecks {
  const { store } = ctx;
  const groupOf = (a: Allocation) => a.Job?.TaskGroups.find((g) => g.Name === a.TaskGroup);

  const checkHealthy = (run: AllocRun): void => {
    const a = store.allocs.get(run.id);
    if (!a || !a.DeploymentID || a.DeploymentStatus?.Healthy != null) return;
    if (!allRunning(a)) return;
    const min = (groupOf(a)?.Update?.MinHealthyTime ?? 0) / 1e6;
    run.healthTimer?.cancel();
    run.healthTimer = ctx.timers.later(
      () => {
        const cur = store.allocs.get(run.id);
        if (!cur || run.stopping || cur.DeploymentStatus?.Healthy != null) return;
        if (!allRunning(cur)) return;
        run.deadlineTimer?.cancel();
        report(cur, true);
      },
      min,
      { kind: 'allocation', id: run.id },
    );
  };

  const armDeadline = (run: AllocRun): void => {
    const a = store.allocs.get(run.id);
    const update = a ? groupOf(a)?.Update : undefined;
    if (!update) return;
    run.deadlineTimer = ctx.timers.later(
      () => {
        const cur = store.allocs.get(run.id);
        if (cur && cur.DeploymentStatus?.Healthy == null && !run.stopping)
          report(cur, false, 'Task not running by healthy_deadline');
      },
      update.HealthyDeadline / 1e6,
      { kind: 'allocation', id: run.id },
    );
  };

  return { checkHealthy, armDeadline };
}
