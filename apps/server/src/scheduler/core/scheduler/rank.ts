import { checkConstraint, resolveTarget } from '../constraints.js';
import type { AllocMetric, Node } from '../types.js';
import type { GroupFacts } from './feasibility.js';
import type { Usage, World } from './world.js';

const round6 = (n: number): number => Math.round(n * 1e6) / 1e6;

/** Spread score: fewer allocations of the group on nodes with the same attribute value score higher. */
function spreadScore(f: GroupFacts, world: World, node: Node, m: AllocMetric): number {
  const g = f.group;
  const spreads = [f.job.Spreads, g.Spreads].flatMap(
    (list) => (list ?? []) as { Attribute?: string; Weight?: number }[],
  );
  let score = 0;
  for (const sp of spreads) {
    if (!sp.Attribute) continue;
    const attribute = sp.Attribute;
    const value = resolveTarget(attribute, node);
    const same = f.sameJob.filter((a) => {
      const n = f.byNode.get(a.NodeID);
      return a.TaskGroup === g.Name && n !== undefined && resolveTarget(attribute, n) === value;
    }).length;
    const weight = (typeof sp.Weight === 'number' ? sp.Weight : 50) / 100;
    const values = new Set(world.nodes.map((n) => resolveTarget(attribute, n)));
    const evenShare = Math.max(1, Math.ceil(g.Count / Math.max(1, values.size)));
    const spread = -weight * (same / evenShare);
    m.Scores = m.Scores ?? {};
    m.Scores[`${node.ID}.allocation-spread`] = round6(spread);
    score += spread;
  }
  return score;
}

/** Affinity score (job, group, tasks): the matching share of the weights, -1..1. */
function affinityScore(f: GroupFacts, node: Node, m: AllocMetric): number {
  const g = f.group;
  const affinities = [f.job.Affinities, g.Affinities, ...g.Tasks.map((t) => t.Affinities)].flatMap(
    (list) => (list ?? []) as { LTarget?: string; RTarget?: string; Operand?: string; Weight?: number }[],
  );
  if (affinities.length === 0) return 0;
  let total = 0;
  let weights = 0;
  for (const aff of affinities) {
    const weight = typeof aff.Weight === 'number' ? aff.Weight : 50;
    weights += Math.abs(weight);
    const c = { LTarget: aff.LTarget ?? '', RTarget: aff.RTarget ?? '', Operand: aff.Operand ?? '=' };
    if (checkConstraint(c, node)) total += weight;
  }
  const affinity = weights > 0 ? total / weights : 0;
  m.Scores = m.Scores ?? {};
  m.Scores[`${node.ID}.node-affinity`] = round6(affinity);
  return affinity;
}

/**
 * The score of a feasible node: bin packing (fuller is better), minus the group's allocations
 * already there (so groups spread), minus 1 for the node to avoid, plus spreads and affinities.
 * Scores are recorded in the metric.
 */
export function scoreNode(
  f: GroupFacts,
  world: World,
  node: Node,
  ask: Usage,
  avoid: string | undefined,
  m: AllocMetric,
): number {
  const used = world.usage.get(node.ID) ?? { cpu: 0, memory: 0, disk: 0 };
  const cap = node.NodeResources;
  const fit =
    ((used.cpu + ask.cpu) / cap.Cpu.CpuShares + (used.memory + ask.memory) / cap.Memory.MemoryMB) / 2;
  const collisions = f.groupOnNode.get(node.ID) ?? 0;
  let score = fit - collisions / Math.max(1, f.group.Count);
  if (avoid === node.ID) score -= 1;
  score += spreadScore(f, world, node, m);
  score += affinityScore(f, node, m);
  m.Scores = m.Scores ?? {};
  m.Scores[`${node.ID}.normalized-score`] = round6(score);
  return score;
}
