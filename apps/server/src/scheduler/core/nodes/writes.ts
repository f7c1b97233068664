import {
  AllocClientStatus,
  AllocDesiredStatus,
  EvalTriggeredBy,
  NodeSchedulingEligibility,
} from '@sked/model';

import type { Cluster } from '../api.js';
import type { CoreContext } from '../context.js';
import { notFound } from '../errors.js';
import type { EvalQueue } from '../evals/eval-queue.js';
import { iso } from '../internal/ids.js';
import { clientTerminal, isLive } from '../internal/status.js';
import { jobKey } from '../state/keys.js';
import type { Txn } from '../state/store.js';
import type { Allocation, Node } from '../types.js';
import { simulatedNode } from './simulated.js';

/** What node writes set in motion (wired by cluster.ts). */
export interface NodeDeps {
  readonly queue: Pick<EvalQueue, 'makeEval' | 'unblock'>;
  /** The client stops an allocation (drain). */
  readonly stopRun: (allocId: string, skipDelay: boolean) => void;
  /** The client of a lost allocation is gone. */
  readonly abandonRun: (allocId: string) => void;
}

const mustNode = (tx: Txn, id: string): Node => {
  const n = tx.get('nodes', id);
  if (!n) throw notFound('node not found');
  return n;
};

/** Registers the simulated nodes (one write, NodeRegistration each). */
export function registerSimulatedNodes(
  ctx: CoreContext,
  options: { count: number; datacenter: string; drivers: readonly string[] },
): void {
  ctx.store.write((tx) => {
    for (let i = 0; i < options.count; i++) {
      const n = simulatedNode(i, ctx.newId(), ctx.nowMs(), {
        datacenter: options.datacenter,
        drivers: options.drivers,
        region: ctx.region,
      });
      const stored = {
        ...n,
        CreateIndex: tx.index,
        ModifyIndex: tx.index,
        Events: n.Events.map((e) => ({ ...e, CreateIndex: tx.index })),
      };
      tx.put('nodes', stored);
    }
  });
}

/** Eligibility, drain and deregistration of nodes. */
export function createNodeWrites(
  ctx: CoreContext,
  deps: NodeDeps,
): Pick<Cluster, 'setNodeEligibility' | 'drainNode' | 'deregisterNode'> {
  const { store } = ctx;
  const { queue } = deps;

  const withEvent = (tx: Txn, n: Node, message: string): Node['Events'] =>
    [
      ...n.Events,
      {
        Message: message,
        Subsystem: 'Cluster',
        Details: null,
        Timestamp: iso(ctx.nowMs()),
        CreateIndex: tx.index,
      },
    ].slice(-10);

  /** Evaluates each job of `allocs` once (`trigger`, on node `nodeId`). */
  const evaluateJobsOf = (
    tx: Txn,
    allocs: Iterable<Allocation>,
    trigger: EvalTriggeredBy,
    nodeId: string,
  ): void => {
    const jobs = new Map<string, Allocation>();
    for (const a of allocs) jobs.set(jobKey(a.Namespace, a.JobID), a);
    for (const a of jobs.values()) {
      const job = tx.get('jobs', jobKey(a.Namespace, a.JobID));
      if (job) queue.makeEval(tx, job, trigger, 0, { NodeID: nodeId });
    }
  };

  const setNodeEligibility: Cluster['setNodeEligibility'] = (input) =>
    store.write((tx) => {
      const n = mustNode(tx, input.nodeId);
      const eligibility = input.eligible
        ? NodeSchedulingEligibility.Eligible
        : NodeSchedulingEligibility.Ineligible;
      if (n.SchedulingEligibility === eligibility) return { Index: store.index };
      const u: Node = {
        ...n,
        SchedulingEligibility: eligibility,
        Events: withEvent(tx, n, `Node marked as ${eligibility}`),
        ModifyIndex: tx.index,
      };
      tx.put('nodes', u);
      if (input.eligible) tx.after(queue.unblock);
      return { Index: tx.index };
    });

  const deregisterNode: Cluster['deregisterNode'] = (input) =>
    store.write((tx) => {
      const n = mustNode(tx, input.nodeId);
      tx.delete('nodes', n.ID);
      const lost: Allocation[] = [];
      for (const a of tx.all('allocs')) {
        if (a.NodeID !== n.ID || clientTerminal(a)) continue;
        tx.put('allocs', {
          ...a,
          DesiredStatus: AllocDesiredStatus.Stop,
          DesiredDescription: 'alloc is lost since its node is down',
          ClientStatus: AllocClientStatus.Lost,
          ClientDescription: 'alloc is lost since its node is down',
          ModifyIndex: tx.index,
          AllocModifyIndex: tx.index,
          ModifyTime: ctx.nowNs(),
        });
        lost.push(a);
        tx.after(() => {
          ctx.activeAllocs.delete(a.ID);
          deps.abandonRun(a.ID);
        });
      }
      evaluateJobsOf(tx, lost, EvalTriggeredBy.NodeUpdate, n.ID);
      return { Index: tx.index };
    });

  const drainNode: Cluster['drainNode'] = (input) =>
    store.write((tx) => {
      const n = mustNode(tx, input.nodeId);
      const u: Node = {
        ...n,
        Drain: input.enable,
        DrainStrategy: input.enable
          ? { Deadline: 3600e9, IgnoreSystemJobs: false, ForceDeadline: null }
          : null,
        SchedulingEligibility: input.enable
          ? NodeSchedulingEligibility.Ineligible
          : NodeSchedulingEligibility.Eligible,
        Events: withEvent(tx, n, input.enable ? 'Node drain strategy set' : 'Node drain strategy unset'),
        ModifyIndex: tx.index,
      };
      tx.put('nodes', u);
      if (!input.enable) {
        tx.after(queue.unblock);
        return { Index: tx.index };
      }
      const moved: Allocation[] = [];
      for (const a of tx.all('allocs')) {
        if (a.NodeID !== n.ID || !isLive(a)) continue;
        tx.put('allocs', {
          ...a,
          DesiredStatus: AllocDesiredStatus.Stop,
          DesiredDescription: 'alloc is being migrated',
          DesiredTransition: { ...a.DesiredTransition, Migrate: true },
          ModifyIndex: tx.index,
          AllocModifyIndex: tx.index,
        });
        tx.after(() => deps.stopRun(a.ID, false));
        moved.push(a);
      }
      evaluateJobsOf(tx, moved, EvalTriggeredBy.NodeDrain, n.ID);
      return { Index: tx.index };
    });

  return { setNodeEligibility, deregisterNode, drainNode };
}
