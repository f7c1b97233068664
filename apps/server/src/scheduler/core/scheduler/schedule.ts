import { checkConstraint, describeConstraint, resolveTarget } from '../constraints.js';
import { tasksUpdated } from '../diff.js';
import { iso } from '../internal/ids.js';
import type { StateView } from '../state/store.js';
import { clientTerminal, isLive } from '../internal/status.js';
import { allocPorts, groupPorts, takePorts } from './ports.js';
import type {
  Allocation,
  AllocMetric,
  AllocResources,
  Constraint,
  CsiVolume,
  Deployment,
  Evaluation,
  Job,
  Node,
  TaskGroup,
  TaskState,
} from '../types.js';

/** What a plan does to one task group (Annotations.DesiredTGUpdates). */
export interface DesiredUpdates {
  Ignore: number;
  Place: number;
  Migrate: number;
  Stop: number;
  InPlaceUpdate: number;
  DestructiveUpdate: number;
  Canary: number;
  Preemptions: number;
}

/** The outcome of scheduling one evaluation (applied by the cluster, or reported by a dry run). */
export interface SchedulePlan {
  place: Allocation[];
  stop: { alloc: Allocation; description: string }[];
  inPlace: Allocation[];
  /** Old allocations replaced by a rescheduled one: old ID -> new ID. */
  replaced: Map<string, string>;
  failed: Record<string, AllocMetric>;
  queued: Record<string, number>;
  desired: Record<string, DesiredUpdates>;
  deployment: Deployment | undefined;
  deploymentCreated: boolean;
  cancelled: Deployment[];
  followups: { alloc: Allocation; at: number }[];
  claims: CsiVolume[];
}

/** Context of a scheduling run. */
export interface SchedContext {
  /** The state the plan is computed on (read-only). */
  readonly state: StateView;
  /** The index the plan's records are created at. */
  readonly index: number;
  /** Current time in ms. */
  readonly now: number;
  readonly newId: () => string;
  /** Whether the eval asks to reschedule failed allocations at once (ForceReschedule). */
  readonly forceReschedule: boolean;
  /** Stop without the shutdown delay (recorded on the allocation for the client). */
  readonly noShutdownDelay?: boolean;
  /** IDs of the allocations the clients have not finished (a cache; every allocation is scanned without it). */
  readonly activeAllocIds?: Iterable<string>;
}

/** Resources an allocation of a group asks for. */
export function groupAsk(g: TaskGroup): {
  cpu: number;
  memory: number;
  disk: number;
  tasks: Record<string, AllocResources>;
} {
  let cpu = 0;
  let memory = 0;
  const tasks: Record<string, AllocResources> = {};
  for (const t of g.Tasks) {
    cpu += t.Resources.CPU;
    memory += t.Resources.MemoryMB;
    tasks[t.Name] = {
      CPU: t.Resources.CPU,
      MemoryMB: t.Resources.MemoryMB,
      DiskMB: 0,
      Networks: t.Resources.Networks,
    };
  }
  return { cpu, memory, disk: g.EphemeralDisk?.SizeMB ?? 0, tasks };
}

function emptyMetric(): AllocMetric {
  return {
    NodesEvaluated: 0,
    NodesFiltered: 0,
    NodesInPool: 0,
    NodesAvailable: {},
    ClassFiltered: null,
    ConstraintFiltered: null,
    NodesExhausted: 0,
    ClassExhausted: null,
    DimensionExhausted: null,
    QuotaExhausted: null,
    ResourcesExhausted: null,
    Scores: null,
    ScoreMetaData: null,
    AllocationTime: 0,
    CoalescedFailures: 0,
  };
}

function bump(map: Record<string, number> | null, key: string): Record<string, number> {
  const m = map ?? {};
  m[key] = (m[key] ?? 0) + 1;
  return m;
}

function glob(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(value);
}

interface Usage {
  cpu: number;
  memory: number;
  disk: number;
}

/** The mutable picture of the cluster during one scheduling run. */
export interface World {
  nodes: Node[];
  usage: Map<string, Usage>;
  /** Live allocations (including those placed by this plan, minus those it stops). */
  live: Allocation[];
  volumes: Map<string, CsiVolume>;
  /** Host ports in use per node. */
  ports: Map<string, Set<number>>;
}

function buildWorld(ctx: SchedContext): World {
  const nodes = ctx.state.all('nodes');
  const usage = new Map<string, Usage>();
  for (const n of nodes) usage.set(n.ID, { cpu: 0, memory: 0, disk: 0 });
  const live: Allocation[] = [];
  const candidates: Iterable<Allocation> = ctx.activeAllocIds
    ? [...ctx.activeAllocIds].flatMap((id) => {
        const a = ctx.state.get('allocs', id);
        return a ? [a] : [];
      })
    : ctx.state.all('allocs');
  for (const a of candidates) {
    if (clientTerminal(a)) continue;
    const u = usage.get(a.NodeID);
    if (u) {
      u.cpu += a.Resources.CPU;
      u.memory += a.Resources.MemoryMB;
      u.disk += a.Resources.DiskMB;
    }
    if (a.DesiredStatus === 'run') live.push(a);
  }
  const ports = new Map<string, Set<number>>();
  for (const a of live) {
    let set = ports.get(a.NodeID);
    if (!set) ports.set(a.NodeID, (set = new Set()));
    for (const p of allocPorts(a)) set.add(p.Value);
  }
  return { nodes, usage, live, volumes: new Map(), ports };
}

function release(world: World, a: Allocation): void {
  const u = world.usage.get(a.NodeID);
  if (u) {
    u.cpu -= a.Resources.CPU;
    u.memory -= a.Resources.MemoryMB;
    u.disk -= a.Resources.DiskMB;
  }
  world.live = world.live.filter((x) => x.ID !== a.ID);
  const set = world.ports.get(a.NodeID);
  if (set) for (const p of allocPorts(a)) set.delete(p.Value);
}

function volumeOf(ctx: SchedContext, world: World, ns: string, id: string): CsiVolume | undefined {
  const key = `${ns}\u0000${id}`;
  let v = world.volumes.get(key);
  if (!v) {
    const stored = ctx.state.get('volumes', key);
    if (stored) {
      v = structuredClone(stored);
      world.volumes.set(key, v);
    }
  }
  return v;
}

interface PlaceResult {
  node?: Node;
  metric: AllocMetric;
}

/** Finds the best node for one allocation of `g` (or checks the forced node of a system job). */
function selectNode(
  ctx: SchedContext,
  world: World,
  job: Job,
  g: TaskGroup,
  options: { only?: string; avoid?: string },
): PlaceResult {
  const started = performance.now();
  const m = emptyMetric();
  const ask = groupAsk(g);
  const constraints: { c: Constraint; level: 'job' | 'group' }[] = [
    ...(job.Constraints ?? []).map((c) => ({ c, level: 'job' as const })),
    ...(g.Constraints ?? []).map((c) => ({ c, level: 'group' as const })),
    ...g.Tasks.flatMap((t) => (t.Constraints ?? []).map((c) => ({ c, level: 'group' as const }))),
  ];
  const sameJob = world.live.filter((a) => a.JobID === job.ID && a.Namespace === job.Namespace);
  // Allocations of this job (and of this group) per node, counted once per call.
  const jobOnNode = new Map<string, number>();
  const groupOnNode = new Map<string, number>();
  for (const a of sameJob) {
    jobOnNode.set(a.NodeID, (jobOnNode.get(a.NodeID) ?? 0) + 1);
    if (a.TaskGroup === g.Name) groupOnNode.set(a.NodeID, (groupOnNode.get(a.NodeID) ?? 0) + 1);
  }
  let best: { node: Node; score: number } | undefined;
  for (const node of world.nodes) {
    if (options.only && node.ID !== options.only) continue;
    if (job.NodePool !== 'all' && node.NodePool !== job.NodePool) continue;
    m.NodesInPool++;
    if (!job.Datacenters.some((dc) => glob(dc, node.Datacenter))) continue;
    m.NodesAvailable[node.Datacenter] = (m.NodesAvailable[node.Datacenter] ?? 0) + 1;
    m.NodesEvaluated++;
    if (node.SchedulingEligibility !== 'eligible' || node.Status !== 'ready' || node.Drain) {
      m.NodesFiltered++;
      m.ClassFiltered = bump(m.ClassFiltered, node.NodeClass || 'ineligible');
      continue;
    }
    const missing = g.Tasks.find((t) => node.Attributes[`driver.${t.Driver}`] === undefined);
    if (missing) {
      m.NodesFiltered++;
      m.ConstraintFiltered = bump(m.ConstraintFiltered, 'missing drivers');
      continue;
    }
    let filtered: string | undefined;
    for (const { c, level } of constraints) {
      if (c.Operand === 'distinct_hosts') {
        if (c.RTarget !== '' && c.RTarget !== 'true') continue;
        const clash = ((level === 'job' ? jobOnNode : groupOnNode).get(node.ID) ?? 0) > 0;
        if (clash) filtered = 'distinct_hosts';
      } else if (c.Operand === 'distinct_property') {
        const value = resolveTarget(c.LTarget, node);
        if (value === undefined) filtered = describeConstraint(c);
        else {
          const limit = Number.parseInt(c.RTarget || '1', 10) || 1;
          const byNode = new Map(world.nodes.map((n) => [n.ID, n]));
          const used = sameJob.filter((a) => {
            if (level === 'group' && a.TaskGroup !== g.Name) return false;
            const n = byNode.get(a.NodeID);
            return n !== undefined && resolveTarget(c.LTarget, n) === value;
          }).length;
          if (used >= limit) filtered = `distinct_property: ${c.LTarget}=${value} used by ${used} allocs`;
        }
      } else if (!checkConstraint(c, node)) filtered = describeConstraint(c);
      if (filtered) break;
    }
    if (!filtered && g.Volumes) {
      for (const req of Object.values(g.Volumes)) {
        if (req.Type !== 'csi') continue;
        const v = volumeOf(ctx, world, job.Namespace, req.Source);
        if (!v) filtered = `missing CSI Volume ${req.Source}`;
        else if (!v.Schedulable) filtered = `CSI volume ${req.Source} is unschedulable`;
        else if (
          !req.ReadOnly &&
          (v.AccessMode === 'single-node-writer' || v.AccessMode === 'multi-node-single-writer')
        ) {
          const writers = Object.values(v.Claims).filter((cl) => {
            if (cl.Mode !== 'write') return false;
            const a = ctx.state.get('allocs', cl.AllocationID);
            return a !== undefined && !clientTerminal(a) && a.DesiredStatus === 'run';
          });
          if (writers.length > 0)
            filtered = `CSI volume ${req.Source} has exhausted its available writer claims`;
        }
        if (filtered) break;
      }
    }
    if (!filtered) {
      const usedPorts = world.ports.get(node.ID);
      const clash = groupPorts(g).reserved.find((p) => usedPorts?.has(p.value));
      if (clash) filtered = `network: reserved port collision ${clash.label}=${clash.value}`;
    }
    if (filtered) {
      m.NodesFiltered++;
      m.ConstraintFiltered = bump(m.ConstraintFiltered, filtered);
      continue;
    }
    const used = world.usage.get(node.ID) ?? { cpu: 0, memory: 0, disk: 0 };
    const cap = node.NodeResources;
    let dim: string | undefined;
    if (used.cpu + ask.cpu > cap.Cpu.CpuShares) dim = 'cpu';
    else if (used.memory + ask.memory > cap.Memory.MemoryMB) dim = 'memory';
    else if (used.disk + ask.disk > cap.Disk.DiskMB) dim = 'disk';
    if (dim) {
      m.NodesExhausted++;
      m.DimensionExhausted = bump(m.DimensionExhausted, dim);
      continue;
    }
    const fit =
      ((used.cpu + ask.cpu) / cap.Cpu.CpuShares + (used.memory + ask.memory) / cap.Memory.MemoryMB) / 2;
    const collisions = groupOnNode.get(node.ID) ?? 0;
    let score = fit - collisions / Math.max(1, g.Count);
    if (options.avoid === node.ID) score -= 1;
    // Spreads (job, group): fewer allocations of the group on nodes with the same attribute value score higher.
    const spreads = [job.Spreads, g.Spreads].flatMap(
      (list) => (list ?? []) as { Attribute?: string; Weight?: number }[],
    );
    for (const sp of spreads) {
      if (!sp.Attribute) continue;
      const value = resolveTarget(sp.Attribute, node);
      const byNode = new Map(world.nodes.map((n) => [n.ID, n]));
      const same = sameJob.filter((a) => {
        const n = byNode.get(a.NodeID);
        return a.TaskGroup === g.Name && n !== undefined && resolveTarget(sp.Attribute ?? '', n) === value;
      }).length;
      const weight = (typeof sp.Weight === 'number' ? sp.Weight : 50) / 100;
      const values = new Set(world.nodes.map((n) => resolveTarget(sp.Attribute ?? '', n)));
      const evenShare = Math.max(1, Math.ceil(g.Count / Math.max(1, values.size)));
      const spread = -weight * (same / evenShare);
      m.Scores = m.Scores ?? {};
      m.Scores[`${node.ID}.allocation-spread`] = Math.round(spread * 1e6) / 1e6;
      score += spread;
    }
    // Affinities (job, group, task): weight -100..100 for a node that matches.
    const affinities = [job.Affinities, g.Affinities, ...g.Tasks.map((t) => t.Affinities)].flatMap(
      (list) => (list ?? []) as { LTarget?: string; RTarget?: string; Operand?: string; Weight?: number }[],
    );
    if (affinities.length > 0) {
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
      m.Scores[`${node.ID}.node-affinity`] = Math.round(affinity * 1e6) / 1e6;
      score += affinity;
    }
    m.Scores = m.Scores ?? {};
    m.Scores[`${node.ID}.normalized-score`] = Math.round(score * 1e6) / 1e6;
    if (!best || score > best.score) best = { node, score };
  }
  m.AllocationTime = Math.round((performance.now() - started) * 1e6);
  return best ? { node: best.node, metric: m } : { metric: m };
}

function initialTaskStates(g: TaskGroup, now: number): Record<string, TaskState> {
  const out: Record<string, TaskState> = {};
  for (const t of g.Tasks) {
    out[t.Name] = {
      State: 'pending',
      Failed: false,
      Restarts: 0,
      LastRestart: null,
      StartedAt: null,
      FinishedAt: null,
      Events: [],
    };
  }
  void now;
  return out;
}

function nameIndex(name: string): number {
  const m = /\[(\d+)\]$/.exec(name);
  return m ? Number(m[1]) : -1;
}

/** Delay before the next reschedule of an allocation (ns), per the policy's delay function. */
export function rescheduleDelay(a: Allocation, g: TaskGroup): number {
  const p = g.ReschedulePolicy;
  if (!p) return 0;
  const n = a.RescheduleTracker?.Events.length ?? 0;
  let d = p.Delay;
  if (p.DelayFunction === 'exponential') d = p.Delay * 2 ** n;
  else if (p.DelayFunction === 'fibonacci') {
    let x = p.Delay;
    let y = p.Delay;
    for (let i = 1; i < n; i++) [x, y] = [y, x + y];
    d = n === 0 ? p.Delay : y;
  }
  if (p.MaxDelay > 0) d = Math.min(d, p.MaxDelay);
  return d;
}

/** Whether a failed allocation may be rescheduled now or later under its policy. */
export function rescheduleEligible(a: Allocation, g: TaskGroup, nowMs: number): boolean {
  const p = g.ReschedulePolicy;
  if (!p) return false;
  if (p.Unlimited) return true;
  if (p.Attempts <= 0) return false;
  const nowNs = nowMs * 1e6;
  const recent = (a.RescheduleTracker?.Events ?? []).filter((e) => nowNs - e.RescheduleTime < p.Interval);
  return recent.length < p.Attempts;
}

function failTime(a: Allocation): number {
  let last = a.ModifyTime;
  for (const ts of Object.values(a.TaskStates ?? {})) {
    if (ts.FinishedAt) last = Math.max(last, Date.parse(ts.FinishedAt) * 1e6);
  }
  return last / 1e6;
}

/**
 * Computes what an evaluation changes: placements, stops, in-place updates, reschedules and the
 * deployment, without writing anything (the caller applies or reports the plan).
 */
export function schedule(ctx: SchedContext, job: Job | undefined, ev: Evaluation): SchedulePlan {
  const plan: SchedulePlan = {
    place: [],
    stop: [],
    inPlace: [],
    replaced: new Map(),
    failed: {},
    queued: {},
    desired: {},
    deployment: undefined,
    deploymentCreated: false,
    cancelled: [],
    followups: [],
    claims: [],
  };
  const world = buildWorld(ctx);
  const all = ctx.state.ofJob('allocs', ev.Namespace, ev.JobID);
  const mine = job ? all.filter((a) => a.Job === null || a.Job.CreateIndex === job.CreateIndex) : all;
  const stop = (a: Allocation, description: string): void => {
    plan.stop.push({ alloc: a, description });
    release(world, a);
  };
  const du = (name: string): DesiredUpdates =>
    (plan.desired[name] ??= {
      Ignore: 0,
      Place: 0,
      Migrate: 0,
      Stop: 0,
      InPlaceUpdate: 0,
      DestructiveUpdate: 0,
      Canary: 0,
      Preemptions: 0,
    });

  const parentOnly =
    job !== undefined && (job.Periodic !== null || job.ParameterizedJob !== null) && !job.Dispatched;
  if (!job || job.Stop || parentOnly) {
    for (const a of all.filter((x) => x.DesiredStatus === 'run' && !clientTerminal(x))) {
      stop(a, 'alloc not needed due to job update');
      du(a.TaskGroup).Stop++;
    }
    // Cancel running deployments of a stopped job.
    for (const d of ctx.state.ofJob('deployments', ev.Namespace, ev.JobID))
      if (d.Status === 'running' || d.Status === 'paused')
        plan.cancelled.push({
          ...d,
          Status: 'cancelled',
          StatusDescription: 'Cancelled because job is stopped',
        });
    return plan;
  }

  // Stop allocations of groups that no longer exist.
  const groupNames = new Set(job.TaskGroups.map((g) => g.Name));
  for (const a of mine) {
    if (!groupNames.has(a.TaskGroup) && isLive(a)) {
      stop(a, 'alloc not needed as task group was removed');
      du(a.TaskGroup).Stop++;
    }
  }

  // The deployment of this version, when one is needed.
  const deployments = ctx.state.ofJob('deployments', job.Namespace, job.ID);
  let deployment = deployments.find(
    (d) => d.JobVersion === job.Version && d.JobCreateIndex === job.CreateIndex && d.Status === 'running',
  );
  /** A failed deployment of this version halts its rollout (no more destructive updates or reschedules). */
  const failedForVersion = deployments.some(
    (d) => d.JobVersion === job.Version && d.JobCreateIndex === job.CreateIndex && d.Status === 'failed',
  );
  const terminalForVersion = deployments.some(
    (d) => d.JobVersion === job.Version && d.JobCreateIndex === job.CreateIndex && d.Status !== 'running',
  );
  for (const d of deployments) {
    if (d.Status === 'running' && d.ID !== deployment?.ID)
      plan.cancelled.push({
        ...d,
        Status: 'cancelled',
        StatusDescription: 'Cancelled due to newer version of job',
      });
  }
  const wantsDeployment =
    job.Type === 'service' && job.TaskGroups.some((g) => g.Update !== null) && !terminalForVersion;
  let dep: Deployment | undefined = deployment ? structuredClone(deployment) : undefined;
  const ensureDeployment = (): Deployment | undefined => {
    if (!wantsDeployment) return undefined;
    if (!dep) {
      dep = {
        ID: ctx.newId(),
        Namespace: job.Namespace,
        JobID: job.ID,
        JobVersion: job.Version,
        JobCreateIndex: job.CreateIndex,
        JobModifyIndex: job.JobModifyIndex,
        JobSpecModifyIndex: job.JobModifyIndex,
        EvalPriority: ev.Priority,
        IsMultiregion: false,
        Status: 'running',
        StatusDescription: 'Deployment is running',
        TaskGroups: {},
        CreateIndex: ctx.index,
        ModifyIndex: ctx.index,
        CreateTime: ctx.now * 1e6,
        ModifyTime: ctx.now * 1e6,
      };
      plan.deploymentCreated = true;
    }
    return dep;
  };

  for (const g of job.TaskGroups) {
    const d = du(g.Name);
    const groupAllocs = mine.filter((a) => a.TaskGroup === g.Name);
    const live = groupAllocs.filter(isLive);
    const isBatch = job.Type === 'batch' || job.Type === 'sysbatch';
    const complete = isBatch
      ? groupAllocs.filter((a) => a.DesiredStatus === 'run' && a.ClientStatus === 'complete')
      : [];
    const failedOpen = groupAllocs.filter(
      (a) => a.DesiredStatus === 'run' && a.ClientStatus === 'failed' && a.NextAllocation === '',
    );
    const used = new Set<number>();
    for (const a of [...live, ...complete]) used.add(nameIndex(a.Name));

    // Failed allocations: reschedule (now or later), or keep their slot when the policy is exhausted.
    const reschedNow: Allocation[] = [];
    let occupied = 0;
    for (const a of failedOpen) {
      const halted = failedForVersion && a.JobVersion === job.Version && a.DeploymentID !== '';
      if (ctx.forceReschedule || (!halted && rescheduleEligible(a, g, ctx.now))) {
        const delayNs = ctx.forceReschedule ? 0 : rescheduleDelay(a, g);
        const at = failTime(a) + delayNs / 1e6;
        if (at <= ctx.now + 1) reschedNow.push(a);
        else {
          if (a.FollowupEvalID === '') plan.followups.push({ alloc: a, at });
          used.add(nameIndex(a.Name));
          occupied++;
        }
      } else {
        used.add(nameIndex(a.Name));
        occupied++;
      }
    }

    // System jobs: one allocation per feasible node.
    if (job.Type === 'system' || job.Type === 'sysbatch') {
      const have = new Set([...live, ...complete].map((a) => a.NodeID));
      let placedAny = false;
      for (const node of world.nodes) {
        if (have.has(node.ID)) continue;
        const r = selectNode(ctx, world, job, g, { only: node.ID });
        if (r.node) {
          placedAny = true;
          placeAlloc(ctx, world, plan, job, g, r, ev, `${job.ID}.${g.Name}[0]`, undefined, undefined);
          d.Place++;
        } else if ((r.metric.NodesExhausted ?? 0) > 0) {
          mergeFailure(plan, g.Name, r.metric);
        }
      }
      void placedAny;
      for (const a of live) {
        if (a.JobVersion !== job.Version) {
          const oldGroup = a.Job?.TaskGroups.find((x) => x.Name === g.Name);
          if (oldGroup && !tasksUpdated(oldGroup, g)) {
            plan.inPlace.push({ ...a, Job: job, JobVersion: job.Version });
            d.InPlaceUpdate++;
          } else {
            stop(a, 'alloc is being updated due to job update');
            const r = selectNode(ctx, world, job, g, { only: a.NodeID });
            if (r.node) placeAlloc(ctx, world, plan, job, g, r, ev, a.Name, undefined, undefined);
            d.DestructiveUpdate++;
          }
        } else d.Ignore++;
      }
      continue;
    }

    const current = live.filter(
      (a) => a.JobVersion === job.Version || (a.Job?.Version ?? -1) === job.Version,
    );
    const old = live.filter((a) => !current.includes(a));
    const inPlace: Allocation[] = [];
    const destructive: Allocation[] = [];
    for (const a of old) {
      const oldGroup = a.Job?.TaskGroups.find((x) => x.Name === g.Name);
      if (oldGroup && !tasksUpdated(oldGroup, g)) inPlace.push(a);
      else destructive.push(a);
    }
    // Canaries: before a promoted deployment, place canaries and leave the old allocations.
    const canaryWanted = g.Update && g.Update.Canary > 0 && destructive.length > 0 ? g.Update.Canary : 0;
    const depState = dep?.TaskGroups[g.Name];
    const promoted = depState?.Promoted ?? false;
    if (canaryWanted > 0 && !promoted) {
      const dd = ensureDeployment();
      const have = current.filter((a) => a.DeploymentStatus?.Canary).length;
      for (let i = have; i < canaryWanted; i++) {
        const r = selectNode(ctx, world, job, g, {});
        if (!r.node) {
          mergeFailure(plan, g.Name, r.metric);
          break;
        }
        const name = `${job.ID}.${g.Name}[${i}]`;
        placeAlloc(ctx, world, plan, job, g, r, ev, name, dd, undefined, true);
        d.Canary++;
      }
      d.Ignore += destructive.length + current.length;
      if (dd) groupState(dd, g, canaryWanted, ctx.now);
      continue;
    }

    // Too many: stop the extras, outdated and highest-named first.
    let keep = [...current, ...inPlace, ...destructive];
    const slots = g.Count - complete.length - occupied;
    if (keep.length > Math.max(0, slots)) {
      const ordered = [...keep].sort((a, b) => {
        const ao = current.includes(a) ? 1 : 0;
        const bo = current.includes(b) ? 1 : 0;
        if (ao !== bo) return ao - bo;
        return nameIndex(b.Name) - nameIndex(a.Name);
      });
      const extra = keep.length - Math.max(0, slots);
      for (const a of ordered.slice(0, extra)) {
        stop(a, 'alloc not needed due to job update');
        d.Stop++;
        used.delete(nameIndex(a.Name));
      }
      keep = keep.filter((a) => !ordered.slice(0, extra).includes(a));
    }
    const destructiveLeft = destructive.filter((a) => keep.includes(a));
    for (const a of inPlace.filter((x) => keep.includes(x))) {
      const updated: Allocation = { ...a, Job: job, JobVersion: job.Version };
      if (dep || (wantsDeployment && g.Update)) {
        const dd = ensureDeployment();
        if (dd) {
          updated.DeploymentID = dd.ID;
          groupState(dd, g, 0, ctx.now);
          const st = dd.TaskGroups[g.Name];
          if (st && a.DeploymentID !== dd.ID) {
            st.PlacedAllocs++;
            if (a.ClientStatus === 'running') st.HealthyAllocs++;
          }
          if (a.ClientStatus === 'running')
            updated.DeploymentStatus = {
              Healthy: true,
              Timestamp: new Date(ctx.now).toISOString(),
              Canary: false,
              ModifyIndex: 0,
            };
        }
      }
      plan.inPlace.push(updated);
      d.InPlaceUpdate++;
    }
    d.Ignore += keep.filter((a) => current.includes(a)).length;

    // Destructive updates, limited by max_parallel while a deployment is in progress.
    let budget = failedForVersion && g.Update ? 0 : destructiveLeft.length;
    if (g.Update && wantsDeployment) {
      const unhealthyNew = current.filter((a) => a.DeploymentStatus?.Healthy !== true).length;
      budget = Math.max(0, g.Update.MaxParallel - unhealthyNew);
    }
    const dd =
      destructiveLeft.length > 0 || keep.length < slots || reschedNow.length > 0 ? ensureDeployment() : dep;
    for (const a of destructiveLeft.slice(0, budget)) {
      stop(a, 'alloc is being updated due to job update');
      const r = selectNode(ctx, world, job, g, {});
      if (r.node) placeAlloc(ctx, world, plan, job, g, r, ev, a.Name, dd, undefined);
      else {
        mergeFailure(plan, g.Name, r.metric);
        plan.queued[g.Name] = (plan.queued[g.Name] ?? 0) + 1;
      }
      d.DestructiveUpdate++;
    }
    d.Ignore += Math.max(0, destructiveLeft.length - budget);

    // Reschedule failed allocations whose delay has passed.
    for (const a of reschedNow) {
      if (keep.length + complete.length + occupied >= g.Count) break;
      const r = selectNode(ctx, world, job, g, { avoid: a.NodeID });
      if (!r.node) {
        mergeFailure(plan, g.Name, r.metric);
        plan.queued[g.Name] = (plan.queued[g.Name] ?? 0) + 1;
        used.add(nameIndex(a.Name));
        occupied++;
        continue;
      }
      const placed = placeAlloc(ctx, world, plan, job, g, r, ev, a.Name, dd, a);
      plan.replaced.set(a.ID, placed.ID);
      used.add(nameIndex(a.Name));
      occupied++;
      d.Place++;
    }

    // Place what is missing.
    let missing = g.Count - keep.length - complete.length - occupied;
    let next = 0;
    while (missing > 0) {
      while (used.has(next)) next++;
      const r = selectNode(ctx, world, job, g, {});
      if (!r.node) {
        mergeFailure(plan, g.Name, r.metric, missing - 1);
        plan.queued[g.Name] = (plan.queued[g.Name] ?? 0) + missing;
        break;
      }
      placeAlloc(ctx, world, plan, job, g, r, ev, `${job.ID}.${g.Name}[${next}]`, dd, undefined);
      used.add(next);
      d.Place++;
      missing--;
    }
    if (dd) groupState(dd, g, canaryWanted, ctx.now);
  }
  plan.deployment = dep;
  if (dep && !plan.deploymentCreated && JSON.stringify(dep) === JSON.stringify(deployment))
    plan.deployment = undefined;
  plan.claims = [...world.volumes.values()];
  return plan;
}

function groupState(d: Deployment, g: TaskGroup, canaries: number, now: number): void {
  if (d.TaskGroups[g.Name] || !g.Update) return;
  d.TaskGroups[g.Name] = {
    AutoPromote: g.Update.AutoPromote,
    AutoRevert: g.Update.AutoRevert,
    DesiredCanaries: canaries,
    DesiredTotal: g.Count,
    HealthyAllocs: 0,
    UnhealthyAllocs: 0,
    PlacedAllocs: 0,
    PlacedCanaries: canaries > 0 ? [] : null,
    ProgressDeadline: g.Update.ProgressDeadline,
    Promoted: false,
    RequireProgressBy: g.Update.ProgressDeadline > 0 ? iso(now + g.Update.ProgressDeadline / 1e6) : null,
  };
}

function mergeFailure(plan: SchedulePlan, group: string, m: AllocMetric, coalesced = 0): void {
  const prev = plan.failed[group];
  if (prev) prev.CoalescedFailures += 1 + coalesced;
  else plan.failed[group] = { ...m, CoalescedFailures: coalesced };
}

function placeAlloc(
  ctx: SchedContext,
  world: World,
  plan: SchedulePlan,
  job: Job,
  g: TaskGroup,
  r: PlaceResult,
  ev: Evaluation,
  name: string,
  dep: Deployment | undefined,
  previous: Allocation | undefined,
  canary = false,
): Allocation {
  const node = r.node as Node;
  const ask = groupAsk(g);
  const nowNs = ctx.now * 1e6;
  const id = ctx.newId();
  const res: AllocResources = { CPU: ask.cpu, MemoryMB: ask.memory, DiskMB: ask.disk, Networks: null };
  const a: Allocation = {
    ID: id,
    Namespace: job.Namespace,
    EvalID: ev.ID,
    Name: name,
    NodeID: node.ID,
    NodeName: node.Name,
    JobID: job.ID,
    Job: job,
    TaskGroup: g.Name,
    Resources: res,
    SharedResources: { CPU: 0, MemoryMB: 0, DiskMB: ask.disk, Networks: null },
    TaskResources: ask.tasks,
    AllocatedResources: {
      Tasks: Object.fromEntries(
        Object.entries(ask.tasks).map(([k, v]) => [
          k,
          { Cpu: { CpuShares: v.CPU }, Memory: { MemoryMB: v.MemoryMB } },
        ]),
      ),
      Shared: { DiskMB: ask.disk, Networks: null, Ports: takePorts(world, g, node) },
    },
    Metrics: r.metric,
    DesiredStatus: 'run',
    DesiredDescription: '',
    DesiredTransition: { Migrate: null, Reschedule: null, ForceReschedule: null },
    ClientStatus: 'pending',
    ClientDescription: 'No tasks have started',
    TaskStates: initialTaskStates(g, ctx.now),
    DeploymentID: dep?.ID ?? '',
    DeploymentStatus: dep ? { Healthy: null, Timestamp: null, Canary: canary, ModifyIndex: 0 } : null,
    PreviousAllocation: previous?.ID ?? '',
    NextAllocation: '',
    RescheduleTracker: previous
      ? {
          Events: [
            ...(previous.RescheduleTracker?.Events ?? []),
            {
              PrevAllocID: previous.ID,
              PrevNodeID: previous.NodeID,
              RescheduleTime: nowNs,
              Delay: rescheduleDelay(previous, g),
            },
          ],
        }
      : null,
    FollowupEvalID: '',
    JobVersion: job.Version,
    CreateIndex: ctx.index,
    ModifyIndex: ctx.index,
    AllocModifyIndex: ctx.index,
    CreateTime: nowNs,
    ModifyTime: nowNs,
  };
  plan.place.push(a);
  world.live.push(a);
  const u = world.usage.get(node.ID);
  if (u) {
    u.cpu += ask.cpu;
    u.memory += ask.memory;
    u.disk += ask.disk;
  }
  if (dep) {
    const s = dep.TaskGroups[g.Name];
    if (s) {
      s.PlacedAllocs++;
      if (canary) s.PlacedCanaries = [...(s.PlacedCanaries ?? []), id];
    } else {
      groupState(dep, g, canary ? (g.Update?.Canary ?? 0) : 0, ctx.now);
      const s2 = dep.TaskGroups[g.Name];
      if (s2) {
        s2.PlacedAllocs++;
        if (canary) s2.PlacedCanaries = [...(s2.PlacedCanaries ?? []), id];
      }
    }
  }
  for (const req of Object.values(g.Volumes ?? {})) {
    if (req.Type !== 'csi') continue;
    const v = volumeOf(ctx, world, job.Namespace, req.Source);
    if (v)
      v.Claims[id] = {
        AllocationID: id,
        NodeID: node.ID,
        Mode: req.ReadOnly ? 'read' : 'write',
        State: 'taken',
      };
  }
  return a;
}
