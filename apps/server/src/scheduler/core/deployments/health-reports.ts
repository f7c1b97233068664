import { DeploymentStatus, ownValue, setOwn } from '@sked/model';

import type { CoreContext } from '../context.js';
import { iso } from '../internal/ids.js';
import { copyRecord } from '../internal/records.js';
import type { Txn } from '../state/store.js';
import type { Allocation, Deployment } from '../types.js';

/** One allocation's deployment health, as its client reports it. */
export interface HealthReport {
  readonly alloc: Allocation;
  readonly healthy: boolean;
  /** Why it is unhealthy (the deployment's status description says it). */
  readonly why?: string | undefined;
}

/** The writes of allocations' deployment health. */
export interface HealthReports {
  /**
   * Records allocations' health and moves their deployments on (inside a write): each deployment
   * is copied and moved on once, whatever the number of reports (a deployment of thousands of
   * groups is not copied and scanned once per allocation).
   */
  readonly setHealth: (tx: Txn, reports: readonly HealthReport[]) => void;
  /**
   * Takes a client's health report of an allocation. The reports that fall due together are
   * written together, in one write at the end of the turn (as the service batches its clients'
   * allocation updates); a report whose allocation has its health by then is dropped.
   */
  readonly reportHealth: (alloc: Allocation, healthy: boolean, why?: string) => void;
}

/** How the watcher moves a deployment on (deployments/watcher.ts). */
export interface HealthDeps {
  /** Healthy allocations: promote canaries when allowed, complete, or go on with the rollout. */
  readonly progress: (tx: Txn, d: Deployment) => void;
  /** An unhealthy allocation fails the deployment (auto-reverting when asked). */
  readonly fail: (tx: Txn, d: Deployment, autoRevert: boolean, why?: string) => void;
}

/** A deployment this write moves: its copy (groups copied as they change) and the first unhealthy report. */
interface Moved {
  readonly d: Deployment;
  readonly copied: Set<string>;
  unhealthy?: { readonly autoRevert: boolean; readonly why: string | undefined };
}

/** Creates the health writes of the deployment watcher. */
export function createHealthReports(ctx: CoreContext, { progress, fail }: HealthDeps): HealthReports {
  const { store } = ctx;

  const setHealth = (tx: Txn, reports: readonly HealthReport[]): void => {
    const moved = new Map<string, Moved>();
    for (const { alloc, healthy, why } of reports) {
      const a = tx.get('allocs', alloc.ID) ?? alloc;
      tx.put('allocs', {
        ...a,
        DeploymentStatus: {
          Healthy: healthy,
          Timestamp: iso(ctx.nowMs()),
          Canary: a.DeploymentStatus?.Canary ?? false,
          ModifyIndex: tx.index,
        },
        ModifyIndex: tx.index,
      });
      let m = moved.get(a.DeploymentID);
      if (!m) {
        const d0 = tx.get('deployments', a.DeploymentID);
        if (!d0 || d0.Status !== DeploymentStatus.Running) continue;
        // a copy of what this write changes: the group states it moves are copied on first change
        m = { d: { ...d0, TaskGroups: copyRecord(d0.TaskGroups) }, copied: new Set() };
        moved.set(a.DeploymentID, m);
      }
      const s0 = ownValue(m.d.TaskGroups, a.TaskGroup);
      if (!s0) continue;
      const s = m.copied.has(a.TaskGroup) ? s0 : setOwn(m.d.TaskGroups, a.TaskGroup, { ...s0 });
      m.copied.add(a.TaskGroup);
      if (healthy) s.HealthyAllocs++;
      else {
        s.UnhealthyAllocs++;
        m.unhealthy ??= { autoRevert: s.AutoRevert, why };
      }
    }
    for (const { d, unhealthy } of moved.values()) {
      d.ModifyIndex = tx.index;
      d.ModifyTime = ctx.nowNs();
      if (unhealthy) fail(tx, d, unhealthy.autoRevert, unhealthy.why);
      else progress(tx, d);
    }
  };

  // Health reports waiting for the write at the end of this turn (see reportHealth).
  let queued: HealthReport[] = [];
  const flushHealth = (): void => {
    const reports = queued;
    queued = [];
    const due = (tx: Txn): HealthReport[] =>
      reports.filter((r) => tx.get('allocs', r.alloc.ID)?.DeploymentStatus?.Healthy == null);
    try {
      store.write((tx) => setHealth(tx, due(tx)));
    } catch {
      // one report's fault is its allocation's: each is written alone, its failure contained
      for (const r of reports)
        ctx.contain.run({ kind: 'allocation', id: r.alloc.ID }, () =>
          store.write((tx) =>
            setHealth(
              tx,
              due(tx).filter((x) => x === r),
            ),
          ),
        );
    }
  };
  const reportHealth = (alloc: Allocation, healthy: boolean, why?: string): void => {
    queued.push({ alloc, healthy, why });
    if (queued.length === 1) ctx.timers.later(flushHealth, 0);
  };

  return { setHealth, reportHealth };
}
