import { tasksUpdated } from '../diff.js';
import type { Allocation, TaskGroup } from '../types.js';
import { mergeFailure } from './metrics.js';
import type { Run } from './run.js';

/** A system or sysbatch group: one allocation per feasible node; updates in place or on the same node. */
export function reconcileSystemGroup(
  run: Run,
  g: TaskGroup,
  live: readonly Allocation[],
  complete: readonly Allocation[],
): void {
  const { job, plan, world } = run;
  const d = run.desired(g.Name);
  const have = new Set([...live, ...complete].map((a) => a.NodeID));
  for (const node of world.nodes) {
    if (have.has(node.ID)) continue;
    const r = run.select(g, { only: node.ID });
    if (r.node) {
      run.place(g, r, { name: `${job.ID}.${g.Name}[0]` });
      d.Place++;
    } else if ((r.metric.NodesExhausted ?? 0) > 0) mergeFailure(plan, g.Name, r.metric);
  }
  for (const a of live) {
    if (a.JobVersion === job.Version) {
      d.Ignore++;
      continue;
    }
    const oldGroup = a.Job?.TaskGroups.find((x) => x.Name === g.Name);
    if (oldGroup && !tasksUpdated(oldGroup, g)) {
      plan.inPlace.push({ ...a, Job: job, JobVersion: job.Version });
      d.InPlaceUpdate++;
      continue;
    }
    run.stop(a, 'alloc is being updated due to job update');
    const r = run.select(g, { only: a.NodeID });
    if (r.node) run.place(g, r, { name: a.Name });
    d.DestructiveUpdate++;
  }
}
