import { AllocDesiredStatus } from '@sked/model';
import { checkConstraint, describeConstraint, resolveTarget } from '../constraints.js';
import { clientTerminal } from '../internal/status.js';
import type { Allocation, Constraint, Job, Node, TaskGroup } from '../types.js';
import type { SchedContext } from './plan.js';
import { groupPorts } from './ports.js';
import { groupLiveKey, jobLiveKey, volumeOf, type Usage, type World } from './world.js';

/** What the checks of one placement share: the group's constraints and the job's allocations per node. */
export interface GroupFacts {
  readonly job: Job;
  readonly group: TaskGroup;
  /** Constraints of the job (level `job`), the group and its tasks (level `group`). */
  readonly constraints: readonly { c: Constraint; level: 'job' | 'group' }[];
  /** Live allocations of the job. */
  readonly sameJob: readonly Allocation[];
  readonly jobOnNode: ReadonlyMap<string, number>;
  readonly groupOnNode: ReadonlyMap<string, number>;
  readonly byNode: ReadonlyMap<string, Node>;
}

/**
 * The facts of placing one allocation of `g` in the current world: constant time (the world keeps
 * the per-node counts of each job and group as it changes), the job's allocations listed only when
 * a constraint or spread asks for them.
 */
export function groupFacts(world: World, job: Job, g: TaskGroup): GroupFacts {
  const key = jobLiveKey(job.Namespace, job.ID);
  let sameJob: Allocation[] | undefined;
  return {
    job,
    group: g,
    constraints: [
      ...(job.Constraints ?? []).map((c) => ({ c, level: 'job' as const })),
      ...(g.Constraints ?? []).map((c) => ({ c, level: 'group' as const })),
      ...g.Tasks.flatMap((t) => (t.Constraints ?? []).map((c) => ({ c, level: 'group' as const }))),
    ],
    get sameJob(): readonly Allocation[] {
      sameJob ??= [...(world.live.get(key)?.values() ?? [])];
      return sameJob;
    },
    jobOnNode: world.onNode.get(key) ?? new Map(),
    groupOnNode: world.onNode.get(groupLiveKey(job.Namespace, job.ID, g.Name)) ?? new Map(),
    byNode: world.byNode,
  };
}

/** Whether a datacenter pattern (with `*` globs) matches. */
export function glob(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(value);
}

/** Why `distinct_property` filters a node, if it does. */
function distinctProperty(
  f: GroupFacts,
  c: Constraint,
  level: 'job' | 'group',
  node: Node,
): string | undefined {
  const value = resolveTarget(c.LTarget, node);
  if (value === undefined) return describeConstraint(c);
  const limit = Number.parseInt(c.RTarget || '1', 10) || 1;
  const used = f.sameJob.filter((a) => {
    if (level === 'group' && a.TaskGroup !== f.group.Name) return false;
    const n = f.byNode.get(a.NodeID);
    return n !== undefined && resolveTarget(c.LTarget, n) === value;
  }).length;
  return used >= limit ? `distinct_property: ${c.LTarget}=${value} used by ${used} allocs` : undefined;
}

/** The first constraint (job, group, tasks; distinct_hosts and distinct_property included) a node fails. */
export function constraintFilter(f: GroupFacts, node: Node): string | undefined {
  for (const { c, level } of f.constraints) {
    let filtered: string | undefined;
    if (c.Operand === 'distinct_hosts') {
      if (c.RTarget !== '' && c.RTarget !== 'true') continue;
      const clash = ((level === 'job' ? f.jobOnNode : f.groupOnNode).get(node.ID) ?? 0) > 0;
      if (clash) filtered = 'distinct_hosts';
    } else if (c.Operand === 'distinct_property') filtered = distinctProperty(f, c, level, node);
    else if (!checkConstraint(c, node)) filtered = describeConstraint(c);
    if (filtered) return filtered;
  }
  return undefined;
}

/** Why the group's CSI volumes cannot be claimed, if they cannot. */
export function volumeFilter(ctx: SchedContext, world: World, f: GroupFacts): string | undefined {
  for (const req of Object.values(f.group.Volumes ?? {})) {
    if (req.Type !== 'csi') continue;
    const v = volumeOf(ctx, world, f.job.Namespace, req.Source);
    if (!v) return `missing CSI Volume ${req.Source}`;
    if (!v.Schedulable) return `CSI volume ${req.Source} is unschedulable`;
    if (
      req.ReadOnly ||
      (v.AccessMode !== 'single-node-writer' && v.AccessMode !== 'multi-node-single-writer')
    )
      continue;
    // a write claim is held by a live allocation of the state or by one this run placed: access
    // modes hold among the placements of one evaluation too
    const writers = Object.values(v.Claims).filter((cl) => {
      if (cl.Mode !== 'write') return false;
      if (world.placed.has(cl.AllocationID)) return true;
      const a = ctx.state.get('allocs', cl.AllocationID);
      return a !== undefined && !clientTerminal(a) && a.DesiredStatus === AllocDesiredStatus.Run;
    });
    if (writers.length > 0) return `CSI volume ${req.Source} has exhausted its available writer claims`;
  }
  return undefined;
}

/** A reserved port of the group already in use on the node, if any. */
export function portFilter(world: World, g: TaskGroup, node: Node): string | undefined {
  const usedPorts = world.ports.get(node.ID);
  const clash = groupPorts(g).reserved.find((p) => usedPorts?.has(p.value));
  return clash ? `network: reserved port collision ${clash.label}=${clash.value}` : undefined;
}

/** The first resource dimension (cpu, memory, disk) the ask exceeds on the node, if any. */
export function exhaustedDimension(world: World, node: Node, ask: Usage): string | undefined {
  const used = world.usage.get(node.ID) ?? { cpu: 0, memory: 0, disk: 0 };
  const cap = node.NodeResources;
  if (used.cpu + ask.cpu > cap.Cpu.CpuShares) return 'cpu';
  if (used.memory + ask.memory > cap.Memory.MemoryMB) return 'memory';
  if (used.disk + ask.disk > cap.Disk.DiskMB) return 'disk';
  return undefined;
}
