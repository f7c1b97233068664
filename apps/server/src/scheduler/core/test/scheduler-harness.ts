import type { SchedulerJobInput } from '@sked/model';
import { prepareJob } from '../defaults.js';
import { newEvaluation } from '../evals/factory.js';
import { simulatedNode } from '../nodes/simulated.js';
import { createStore, type Store } from '../state/store.js';
import type { Allocation, Evaluation, Job, Node } from '../types.js';
import type { SchedContext, SchedulePlan } from '../scheduler/plan.js';
import { schedule } from '../scheduler/schedule.js';

/** A state to run the scheduler on directly (tests): nodes, jobs and allocations written as given. */
export interface Harness {
  readonly store: Store;
  readonly nodes: Node[];
  /** Time of the runs (ms). */
  now: number;
  /** Stores a job (canonicalized) as a new version and returns it. */
  job(raw: SchedulerJobInput): Job;
  /** Runs the scheduler for `job` on the committed state; nothing is written. */
  plan(
    job: Job | undefined,
    options?: { eval?: Partial<Evaluation>; ctx?: Partial<SchedContext> },
  ): SchedulePlan;
  /** Writes a plan's placements, stops and in-place updates (as the plan applier would, without the client). */
  apply(plan: SchedulePlan): void;
  /** Replaces stored allocations (e.g. a client status). */
  update(...allocs: Allocation[]): void;
}

/**
 * Creates a harness with `nodes` simulated nodes (racks r1, r2, r1, ...; zones z1, z2, ...).
 * IDs are `<kind>-<n>`, predictable in assertions.
 */
export function schedulerHarness(options: { nodes?: number; now?: number } = {}): Harness {
  const store = createStore();
  let seq = 0;
  const newId = (): string => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;
  const now = options.now ?? 1_700_000_000_000;
  const nodes = Array.from({ length: options.nodes ?? 3 }, (_, i) =>
    simulatedNode(i, `node-${i + 1}`, now, { datacenter: 'dc1', drivers: ['mock'], region: 'global' }),
  );
  store.write((tx) => nodes.forEach((n) => tx.put('nodes', n)));
  const h: Harness = {
    store,
    nodes,
    now,
    job(raw) {
      const job = prepareJob(raw, { region: 'global' });
      return store.write((tx) => {
        const prev = tx.get('jobs', `${job.Namespace}\u0000${job.ID}`);
        const stored: Job = {
          ...job,
          Version: prev ? prev.Version + 1 : 0,
          CreateIndex: prev?.CreateIndex ?? tx.index,
          ModifyIndex: tx.index,
          JobModifyIndex: tx.index,
        };
        tx.put('jobs', stored);
        tx.put('jobVersions', stored);
        return stored;
      });
    },
    plan(job, o = {}) {
      const ev = newEvaluation({
        ID: newId(),
        Namespace: job?.Namespace ?? 'default',
        Priority: 50,
        Type: job?.Type ?? 'service',
        TriggeredBy: 'job-register',
        JobID: job?.ID ?? '',
        JobModifyIndex: job?.JobModifyIndex ?? 0,
        CreateIndex: store.index,
        CreateTime: h.now * 1e6,
        ...o.eval,
      });
      const ctx: SchedContext = {
        state: store.view,
        index: store.index + 1,
        now: h.now,
        newId,
        forceReschedule: false,
        ...o.ctx,
      };
      return schedule(ctx, job, ev);
    },
    apply(plan) {
      store.write((tx) => {
        for (const { alloc } of plan.stop) tx.put('allocs', { ...alloc, DesiredStatus: 'stop' });
        for (const a of [...plan.place, ...plan.inPlace]) tx.put('allocs', a);
        if (plan.deployment) tx.put('deployments', plan.deployment);
      });
    },
    update(...allocs) {
      store.write((tx) => allocs.forEach((a) => tx.put('allocs', a)));
    },
  };
  return h;
}
