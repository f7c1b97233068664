import { namespaceIdKey } from '@sked/query';
import { AllocDesiredStatus, nullRecord, setOwn } from '@sked/model';
import { clientTerminal } from '../internal/status.js';
import type { Allocation, AllocResources, CsiVolume, Node, TaskGroup } from '../types.js';
import type { SchedContext } from './plan.js';
import { allocPorts } from './ports.js';

/** Resources in use on a node. */
export interface Usage {
  cpu: number;
  memory: number;
  disk: number;
}

/** The mutable picture of the cluster during one scheduling run. */
export interface World {
  nodes: Node[];
  usage: Map<string, Usage>;
  /** Live allocations per job (`namespace\0id`, then by allocation ID): those placed by this plan included, those it stops not. */
  live: Map<string, Map<string, Allocation>>;
  /** Live allocations per node of each job (`namespace\0id`) and of each group (`namespace\0id\0group`). */
  onNode: Map<string, Map<string, number>>;
  /** The nodes by ID. */
  byNode: Map<string, Node>;
  /** Volumes touched by this run (copies whose claims the plan changes). */
  volumes: Map<string, CsiVolume>;
  /** Host ports in use per node. */
  ports: Map<string, Set<number>>;
  /** IDs of the allocations this run placed (live, not yet in the state: their claims count too). */
  placed: Set<string>;
}

/** The key of a job in {@link World.live} and {@link World.onNode}. */
export const jobLiveKey = (namespace: string, jobId: string): string => `${namespace}\u0000${jobId}`;

/** The key of a job's group in {@link World.onNode}. */
export const groupLiveKey = (namespace: string, jobId: string, group: string): string =>
  `${namespace}\u0000${jobId}\u0000${group}`;

function bumpOn(world: World, key: string, nodeId: string, delta: number): void {
  let counts = world.onNode.get(key);
  if (!counts) world.onNode.set(key, (counts = new Map()));
  const n = (counts.get(nodeId) ?? 0) + delta;
  if (n > 0) counts.set(nodeId, n);
  else counts.delete(nodeId);
}

/** Adds (or removes) a live allocation in the run's indexes: constant time, whatever the job's size. */
function track(world: World, a: Allocation, live: boolean): void {
  const key = jobLiveKey(a.Namespace, a.JobID);
  let ofJob = world.live.get(key);
  if (!ofJob) world.live.set(key, (ofJob = new Map()));
  if (live === ofJob.has(a.ID)) return;
  if (live) ofJob.set(a.ID, a);
  else ofJob.delete(a.ID);
  const delta = live ? 1 : -1;
  bumpOn(world, key, a.NodeID, delta);
  bumpOn(world, groupLiveKey(a.Namespace, a.JobID, a.TaskGroup), a.NodeID, delta);
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
  const tasks = nullRecord<AllocResources>();
  for (const t of g.Tasks) {
    cpu += t.Resources.CPU;
    memory += t.Resources.MemoryMB;
    setOwn(tasks, t.Name, {
      CPU: t.Resources.CPU,
      MemoryMB: t.Resources.MemoryMB,
      DiskMB: 0,
      Networks: t.Resources.Networks,
    });
  }
  return { cpu, memory, disk: g.EphemeralDisk?.SizeMB ?? 0, tasks };
}

/** The world at the start of a run: nodes, their usage and ports, the live allocations. */
export function buildWorld(ctx: SchedContext): World {
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
    if (a.DesiredStatus === AllocDesiredStatus.Run) live.push(a);
  }
  const ports = new Map<string, Set<number>>();
  for (const a of live) {
    let set = ports.get(a.NodeID);
    if (!set) ports.set(a.NodeID, (set = new Set()));
    for (const p of allocPorts(a)) set.add(p.Value);
  }
  const world: World = {
    nodes,
    usage,
    live: new Map(),
    onNode: new Map(),
    byNode: new Map(nodes.map((n) => [n.ID, n])),
    volumes: new Map(),
    ports,
    placed: new Set(),
  };
  for (const a of live) track(world, a, true);
  return world;
}

/** Frees what a stopped allocation held. */
export function release(world: World, a: Allocation): void {
  const u = world.usage.get(a.NodeID);
  if (u) {
    u.cpu -= a.Resources.CPU;
    u.memory -= a.Resources.MemoryMB;
    u.disk -= a.Resources.DiskMB;
  }
  track(world, a, false);
  world.placed.delete(a.ID);
  const set = world.ports.get(a.NodeID);
  if (set) for (const p of allocPorts(a)) set.delete(p.Value);
}

/** Adds what a placed allocation takes. */
export function occupy(world: World, a: Allocation, nodeId: string, ask: Usage): void {
  track(world, a, true);
  world.placed.add(a.ID);
  const u = world.usage.get(nodeId);
  if (u) {
    u.cpu += ask.cpu;
    u.memory += ask.memory;
    u.disk += ask.disk;
  }
}

/** The run's copy of a volume (claims change on it), loaded on first use. */
export function volumeOf(ctx: SchedContext, world: World, ns: string, id: string): CsiVolume | undefined {
  const key = namespaceIdKey(ns, id);
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
