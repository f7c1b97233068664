import {
  AllocClientStatus,
  AllocDesiredStatus,
  nullRecord,
  ownValue,
  setOwn,
  TaskStateName,
} from '@sked/model';
import { iso } from '../internal/ids.js';
import type {
  Allocation,
  AllocResources,
  Deployment,
  Evaluation,
  Job,
  Node,
  TaskGroup,
  TaskState,
} from '../types.js';
import type { SchedContext, SchedulePlan } from './plan.js';
import { takePorts } from './ports.js';
import { rescheduleDelay } from './reschedule.js';
import { groupAsk, occupy, volumeOf, type World } from './world.js';

/** How one allocation is placed. */
export interface PlaceOptions {
  readonly job: Job;
  readonly group: TaskGroup;
  /** The node chosen (selectNode) and the metric of its search. */
  readonly node: Node;
  readonly metric: Allocation['Metrics'];
  readonly eval: Evaluation;
  /** The allocation's name (`<job>.<group>[<index>]`). */
  readonly name: string;
  /** The deployment it belongs to, if any. */
  readonly deployment?: Deployment | undefined;
  /** The failed allocation it replaces (a reschedule). */
  readonly previous?: Allocation | undefined;
  /** Whether it is a canary of the deployment. */
  readonly canary?: boolean;
}

function initialTaskStates(g: TaskGroup): Record<string, TaskState> {
  const out = nullRecord<TaskState>();
  for (const t of g.Tasks)
    setOwn(out, t.Name, {
      State: TaskStateName.Pending,
      Failed: false,
      Restarts: 0,
      LastRestart: null,
      StartedAt: null,
      FinishedAt: null,
      Events: [],
    });
  return out;
}

/** Adds a group's state to a deployment (once), with its canaries and progress deadline. */
export function groupState(d: Deployment, g: TaskGroup, canaries: number, now: number): void {
  if (ownValue(d.TaskGroups, g.Name) || !g.Update) return;
  setOwn(d.TaskGroups, g.Name, {
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
  });
}

/** The reschedule tracker of an allocation replacing `previous`. */
function trackerOf(
  previous: Allocation | undefined,
  g: TaskGroup,
  nowNs: number,
): Allocation['RescheduleTracker'] {
  if (!previous) return null;
  const event = {
    PrevAllocID: previous.ID,
    PrevNodeID: previous.NodeID,
    RescheduleTime: nowNs,
    Delay: rescheduleDelay(previous, g),
  };
  return { Events: [...(previous.RescheduleTracker?.Events ?? []), event] };
}

/** Counts a placed allocation (and a canary) in its deployment's group state. */
function countInDeployment(ctx: SchedContext, o: PlaceOptions, id: string): void {
  const dep = o.deployment;
  if (!dep) return;
  if (!ownValue(dep.TaskGroups, o.group.Name))
    groupState(dep, o.group, o.canary ? (o.group.Update?.Canary ?? 0) : 0, ctx.now);
  const s = ownValue(dep.TaskGroups, o.group.Name);
  if (!s) return;
  s.PlacedAllocs++;
  if (o.canary) s.PlacedCanaries = [...(s.PlacedCanaries ?? []), id];
}

/** Claims the group's CSI volumes for a new allocation (on the run's copies). */
function claimVolumes(ctx: SchedContext, world: World, o: PlaceOptions, id: string): void {
  for (const req of Object.values(o.group.Volumes ?? {})) {
    if (req.Type !== 'csi') continue;
    const v = volumeOf(ctx, world, o.job.Namespace, req.Source);
    if (v)
      v.Claims[id] = {
        AllocationID: id,
        NodeID: o.node.ID,
        Mode: req.ReadOnly ? 'read' : 'write',
        State: 'taken',
      };
  }
}

/** Places one allocation: the record (resources, ports, task states, deployment status), the world's usage, claims. */
export function placeAlloc(ctx: SchedContext, world: World, plan: SchedulePlan, o: PlaceOptions): Allocation {
  const { job, group: g, node, deployment: dep } = o;
  const ask = groupAsk(g);
  const nowNs = ctx.now * 1e6;
  const id = ctx.newId();
  const res: AllocResources = { CPU: ask.cpu, MemoryMB: ask.memory, DiskMB: ask.disk, Networks: null };
  const a: Allocation = {
    ID: id,
    Namespace: job.Namespace,
    EvalID: o.eval.ID,
    Name: o.name,
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
    Metrics: o.metric,
    DesiredStatus: AllocDesiredStatus.Run,
    DesiredDescription: '',
    DesiredTransition: { Migrate: null, Reschedule: null, ForceReschedule: null },
    ClientStatus: AllocClientStatus.Pending,
    ClientDescription: 'No tasks have started',
    TaskStates: initialTaskStates(g),
    DeploymentID: dep?.ID ?? '',
    DeploymentStatus: dep
      ? { Healthy: null, Timestamp: null, Canary: o.canary ?? false, ModifyIndex: 0 }
      : null,
    PreviousAllocation: o.previous?.ID ?? '',
    NextAllocation: '',
    RescheduleTracker: trackerOf(o.previous, g, nowNs),
    FollowupEvalID: '',
    JobVersion: job.Version,
    CreateIndex: ctx.index,
    ModifyIndex: ctx.index,
    AllocModifyIndex: ctx.index,
    CreateTime: nowNs,
    ModifyTime: nowNs,
  };
  plan.place.push(a);
  occupy(world, a, node.ID, ask);
  countInDeployment(ctx, o, id);
  claimVolumes(ctx, world, o, id);
  return a;
}
