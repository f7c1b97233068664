import { NodeSchedulingEligibility, NodeStatus, ownValue, setOwn } from '@sked/model';
import type { AllocMetric, Job, Node, TaskGroup } from '../types.js';
import {
  constraintFilter,
  exhaustedDimension,
  glob,
  groupFacts,
  portFilter,
  volumeFilter,
} from './feasibility.js';
import { bump, emptyMetric } from './metrics.js';
import type { SchedContext } from './plan.js';
import { scoreNode } from './rank.js';
import { groupAsk, type World } from './world.js';

/** The chosen node (none when nothing fits) and the metric of the search. */
export interface PlaceResult {
  node?: Node;
  metric: AllocMetric;
}

/** Restricts a node search. */
export interface SelectOptions {
  /** Only this node (system jobs, in-place replacement). */
  readonly only?: string;
  /** Score this node lower (a rescheduled allocation's previous node). */
  readonly avoid?: string;
}

/**
 * Finds the best node for one allocation of `g`: nodes of the pool and datacenters, eligible,
 * with the drivers, passing constraints, volumes and ports (feasibility), with room (exhaustion),
 * ranked by score.
 */
export function selectNode(
  ctx: SchedContext,
  world: World,
  job: Job,
  g: TaskGroup,
  options: SelectOptions,
): PlaceResult {
  const started = performance.now();
  const m = emptyMetric();
  const ask = groupAsk(g);
  const facts = groupFacts(world, job, g);
  let best: { node: Node; score: number } | undefined;
  for (const node of world.nodes) {
    if (options.only && node.ID !== options.only) continue;
    if (job.NodePool !== 'all' && node.NodePool !== job.NodePool) continue;
    m.NodesInPool++;
    if (!job.Datacenters.some((dc) => glob(dc, node.Datacenter))) continue;
    setOwn(m.NodesAvailable, node.Datacenter, (ownValue(m.NodesAvailable, node.Datacenter) ?? 0) + 1);
    m.NodesEvaluated++;
    if (
      node.SchedulingEligibility !== NodeSchedulingEligibility.Eligible ||
      node.Status !== NodeStatus.Ready ||
      node.Drain
    ) {
      m.NodesFiltered++;
      m.ClassFiltered = bump(m.ClassFiltered, node.NodeClass || 'ineligible');
      continue;
    }
    const missing = g.Tasks.find((t) => node.Attributes[`driver.${t.Driver}`] === undefined);
    const filtered = missing
      ? 'missing drivers'
      : (constraintFilter(facts, node) ??
        (g.Volumes ? volumeFilter(ctx, world, facts) : undefined) ??
        portFilter(world, g, node));
    if (filtered) {
      m.NodesFiltered++;
      m.ConstraintFiltered = bump(m.ConstraintFiltered, filtered);
      continue;
    }
    const dim = exhaustedDimension(world, node, ask);
    if (dim) {
      m.NodesExhausted++;
      m.DimensionExhausted = bump(m.DimensionExhausted, dim);
      continue;
    }
    const score = scoreNode(facts, world, node, ask, options.avoid, m);
    if (!best || score > best.score) best = { node, score };
  }
  m.AllocationTime = Math.round((performance.now() - started) * 1e6);
  return best ? { node: best.node, metric: m } : { metric: m };
}
