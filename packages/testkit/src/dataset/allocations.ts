/** Generated allocations and their task states. */
import {
  AllocClientStatus,
  newTaskEvent,
  type Allocation,
  type Deployment,
  type Evaluation,
  type Job,
  type Node,
  type TaskEvent,
  type TaskState,
} from '@sked/model';
import type { Random } from '../random.js';
import { SECOND, iso } from './vocabulary.js';

interface AllocationContext {
  readonly job: Job;
  readonly groupName: string;
  readonly taskNames: readonly string[];
  readonly index: number;
  readonly node: Node;
  readonly evaluation: Evaluation;
  readonly deployment: Deployment | undefined;
  readonly createIndex: number;
  readonly createTime: number;
}

function clientStatusFor(random: Random, job: Job): Allocation['ClientStatus'] {
  if (job.Status === 'pending') return AllocClientStatus.Pending;
  if (job.Status === 'dead')
    return random.chance(0.8) ? AllocClientStatus.Complete : AllocClientStatus.Failed;
  const roll = random.next();
  return roll < 0.9
    ? AllocClientStatus.Running
    : roll < 0.95
      ? AllocClientStatus.Pending
      : AllocClientStatus.Failed;
}

export function makeAllocation(random: Random, context: AllocationContext): Allocation {
  const { job, node } = context;
  const clientStatus = clientStatusFor(random, job);
  const taskStates: Record<string, TaskState> = {};
  for (const name of context.taskNames)
    taskStates[name] = makeTaskState(random, clientStatus, context.createTime);
  return {
    ID: random.uuid(),
    Namespace: job.Namespace,
    EvalID: context.evaluation.ID,
    Name: `${job.ID}.${context.groupName}[${context.index}]`,
    NodeID: node.ID,
    NodeName: node.Name,
    JobID: job.ID,
    TaskGroup: context.groupName,
    Resources: { CPU: 100, MemoryMB: 300, DiskMB: 300, Networks: null },
    SharedResources: { CPU: 0, MemoryMB: 0, DiskMB: 300, Networks: null },
    TaskResources: Object.fromEntries(
      context.taskNames.map((name) => [name, { CPU: 100, MemoryMB: 300, DiskMB: 0, Networks: null }]),
    ),
    Metrics: {
      NodesEvaluated: random.int(1, 10),
      NodesFiltered: 0,
      NodesInPool: 10,
      NodesAvailable: { [node.Datacenter]: 10 },
      ClassFiltered: null,
      ConstraintFiltered: null,
      NodesExhausted: 0,
      ClassExhausted: null,
      DimensionExhausted: null,
      Scores: null,
      AllocationTime: random.int(10_000, 2_000_000),
      CoalescedFailures: 0,
    },
    DesiredStatus: job.Status === 'dead' && job.Stop ? 'stop' : 'run',
    DesiredDescription: '',
    ClientStatus: clientStatus,
    ClientDescription: clientDescription(clientStatus),
    TaskStates: taskStates,
    PreviousAllocation: '',
    NextAllocation: '',
    RescheduleTracker: null,
    DeploymentID: context.deployment?.ID ?? '',
    DeploymentStatus:
      context.deployment === undefined
        ? null
        : {
            Healthy: true,
            Timestamp: iso(context.createTime + 15 * SECOND),
            Canary: false,
            ModifyIndex: context.createIndex,
          },
    FollowupEvalID: '',
    CreateIndex: context.createIndex,
    ModifyIndex: context.createIndex,
    AllocModifyIndex: context.createIndex,
    CreateTime: context.createTime,
    ModifyTime: context.createTime + 2 * SECOND,
  };
}

function clientDescription(status: Allocation['ClientStatus']): string {
  switch (status) {
    case 'running':
      return 'Tasks are running';
    case 'pending':
      return 'No tasks have started';
    case 'complete':
      return 'All tasks have completed';
    case 'failed':
      return 'Failed tasks';
    default:
      return '';
  }
}

function makeTaskState(random: Random, status: Allocation['ClientStatus'], start: number): TaskState {
  const events: TaskEvent[] = [
    newTaskEvent('Received', start),
    newTaskEvent('Task Setup', start + 100_000_000),
  ];
  if (status === 'pending') {
    return {
      State: 'pending',
      Failed: false,
      Restarts: 0,
      LastRestart: null,
      StartedAt: null,
      FinishedAt: null,
      Events: events,
    };
  }
  const startedAt = start + SECOND;
  events.push(newTaskEvent('Started', startedAt));
  const restarts = random.chance(0.1) ? random.int(1, 3) : 0;
  for (let r = 0; r < restarts; r += 1) {
    events.push(
      newTaskEvent('Terminated', startedAt + (r + 1) * 10 * SECOND, {
        ExitCode: 1,
        Message: 'exit status 1',
      }),
    );
    events.push(
      newTaskEvent('Restarting', startedAt + (r + 1) * 10 * SECOND + 1, {
        RestartReason: 'Restart within policy',
        StartDelay: 15 * SECOND,
      }),
    );
    events.push(newTaskEvent('Started', startedAt + (r + 1) * 25 * SECOND));
  }
  const lastRestart = restarts === 0 ? null : iso(startedAt + restarts * 25 * SECOND);
  if (status === 'running') {
    return {
      State: 'running',
      Failed: false,
      Restarts: restarts,
      LastRestart: lastRestart,
      StartedAt: iso(startedAt),
      FinishedAt: null,
      Events: events.slice(-10),
    };
  }
  const failed = status === 'failed';
  const finishedAt = startedAt + random.int(30, 600) * SECOND;
  events.push(
    newTaskEvent('Terminated', finishedAt, {
      ExitCode: failed ? 1 : 0,
      Message: failed ? 'exit status 1' : '',
    }),
  );
  if (failed) {
    events.push(
      newTaskEvent('Not Restarting', finishedAt + 1, {
        FailsTask: true,
        RestartReason: 'Exceeded allowed attempts',
      }),
    );
  }
  return {
    State: 'dead',
    Failed: failed,
    Restarts: restarts,
    LastRestart: lastRestart,
    StartedAt: iso(startedAt),
    FinishedAt: iso(finishedAt),
    Events: events.slice(-10),
  };
}
