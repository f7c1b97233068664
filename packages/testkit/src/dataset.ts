/**
 * Seeded, deterministic generators of realistic datasets for tests and benchmarks.
 *
 * @packageDocumentation
 */
import {
  AllocClientStatus,
  canonicalizeJob,
  newTaskEvent,
  type Allocation,
  type Deployment,
  type Evaluation,
  type Job,
  type JobInput,
  type JobListStub,
  type JobSummary,
  type Node,
  type TaskEvent,
  type TaskGroupSummary,
  type TaskState,
} from '@sked/model';

import { createRandom, type Random } from './random.js';

const SECOND = 1_000_000_000;
/** 2026-01-01T00:00:00Z in Unix nanoseconds: the start of generated time lines. */
const EPOCH_NS = 1_767_225_600 * SECOND;

const NAME_PREFIXES = [
  'web',
  'api',
  'worker',
  'cache',
  'batch',
  'etl',
  'cron',
  'db',
  'queue',
  'gateway',
] as const;
const OWNERS = ['team-a', 'team-b', 'team-c', 'platform', 'data', 'payments', 'search', 'infra'] as const;
const TEAMS = ['team-a', 'team-b', 'team-c', 'platform', 'data', 'payments'] as const;
const ENVS = ['prod', 'staging', 'dev'] as const;
const DRIVERS = ['mock', 'mock', 'mock', 'raw_exec', 'docker', 'exec'] as const;
const GROUP_NAMES = ['app', 'frontend', 'backend', 'cache', 'sidecar', 'worker'] as const;

/**
 * Options of {@link generateDataset}.
 */
export interface DatasetOptions {
  /** Seed: the same options give the same dataset. */
  readonly seed: number;
  /** Number of jobs. */
  readonly jobs: number;
  /**
   * Average number of allocations per job (0 = no allocations, evaluations or deployments).
   *
   * @defaultValue 2
   */
  readonly allocsPerJob?: number;
  /**
   * Namespaces the jobs are spread over.
   *
   * @defaultValue `['default']`
   */
  readonly namespaces?: readonly string[];
  /**
   * Datacenters of the nodes and jobs.
   *
   * @defaultValue `['dc1', 'dc2']`
   */
  readonly datacenters?: readonly string[];
  /**
   * Number of nodes allocations are placed on.
   *
   * @defaultValue 10
   */
  readonly nodes?: number;
  /**
   * Region of the jobs.
   *
   * @defaultValue `'global'`
   */
  readonly region?: string;
}

/**
 * A generated dataset: every object matches its `@sked/model` schema, and the objects refer to each other
 * (allocations to their job, evaluation, node and deployment; summaries count the allocations).
 */
export interface Dataset {
  /** Complete jobs (canonicalized), in generation order. */
  readonly jobs: Job[];
  /** One summary per job, same order as `jobs`. */
  readonly summaries: JobSummary[];
  /** Allocations without their `Job` (as lists return them), with task states. */
  readonly allocations: Allocation[];
  /** One registration evaluation per job that has allocations. */
  readonly evaluations: Evaluation[];
  /** One deployment per running service job that has allocations. */
  readonly deployments: Deployment[];
  /** The nodes allocations run on. */
  readonly nodes: Node[];
  /** The last index used; objects have `CreateIndex` and `ModifyIndex` between 1 and this. */
  readonly index: number;
}

/**
 * Generates a realistic dataset: jobs named like `web-00042` with task groups, tasks, `Meta` (`owner`,
 * `team`, `env`, sometimes more), datacenters `dc1`/`dc2`, status mostly running (some pending and dead),
 * priorities around 50; allocations with task states and events; summaries, evaluations, deployments, nodes.
 *
 * @param options - See {@link DatasetOptions}.
 * @returns The dataset; the same options always give a deep-equal dataset.
 * @example
 * ```ts
 * const { jobs, allocations } = generateDataset({ seed: 1, jobs: 1000 });
 * ```
 */
export function generateDataset(options: DatasetOptions): Dataset {
  const random = createRandom(options.seed);
  const allocsPerJob = Math.max(0, options.allocsPerJob ?? 2);
  const namespaces = nonEmpty(options.namespaces, ['default']);
  const datacenters = nonEmpty(options.datacenters, ['dc1', 'dc2']);
  const region = options.region ?? 'global';
  let index = 0;
  const nextIndex = (): number => (index += 1);

  const nodes: Node[] = [];
  const nodeCount = Math.max(1, options.nodes ?? 10);
  for (let i = 0; i < nodeCount; i += 1) {
    nodes.push(makeNode(random, i, datacenters[i % datacenters.length] ?? 'dc1', nextIndex()));
  }

  const jobs: Job[] = [];
  const summaries: JobSummary[] = [];
  const allocations: Allocation[] = [];
  const evaluations: Evaluation[] = [];
  const deployments: Deployment[] = [];

  for (let i = 0; i < options.jobs; i += 1) {
    const namespace = namespaces[i % namespaces.length] ?? 'default';
    const input = makeJobInput(random, i, namespace, datacenters, allocsPerJob);
    const createIndex = nextIndex();
    const submitTime = EPOCH_NS + i * SECOND + random.int(0, 999) * 1_000_000;
    const job: Job = {
      ...canonicalizeJob(input, { region }),
      CreateIndex: createIndex,
      ModifyIndex: createIndex,
      JobModifyIndex: createIndex,
      SubmitTime: submitTime,
    };
    const summary: JobSummary = {
      JobID: job.ID,
      Namespace: namespace,
      Summary: Object.fromEntries(job.TaskGroups.map((group) => [group.Name, emptyGroupSummary()])),
      Children: { Pending: 0, Running: 0, Dead: 0 },
      CreateIndex: createIndex,
      ModifyIndex: createIndex,
    };

    if (allocsPerJob > 0) {
      const evaluation = makeEvaluation(random, job, nextIndex(), submitTime);
      evaluations.push(evaluation);
      const deployment =
        job.Type === 'service' && job.Status === 'running'
          ? makeDeployment(random, job, nextIndex())
          : undefined;
      if (deployment !== undefined) deployments.push(deployment);
      for (const group of job.TaskGroups) {
        for (let n = 0; n < group.Count; n += 1) {
          const node = random.pick(nodes);
          const allocation = makeAllocation(random, {
            job,
            groupName: group.Name,
            taskNames: group.Tasks.map((task) => task.Name),
            index: n,
            node,
            evaluation,
            deployment,
            createIndex: nextIndex(),
            createTime: submitTime + random.int(1, 5) * SECOND,
          });
          allocations.push(allocation);
          const counts = summary.Summary[group.Name];
          if (counts !== undefined) countAllocation(counts, allocation.ClientStatus);
        }
      }
      summary.ModifyIndex = index;
      job.ModifyIndex = index;
    }
    jobs.push(job);
    summaries.push(summary);
  }
  return { jobs, summaries, allocations, evaluations, deployments, nodes, index };
}

/**
 * The list item (`GET /v1/jobs` with `meta=true`) of a job and its summary.
 *
 * @param job - A complete job.
 * @param summary - Its summary.
 * @returns The list item, with `Meta`.
 */
export function toJobListStub(job: Job, summary: JobSummary): JobListStub {
  return {
    ID: job.ID,
    ParentID: job.ParentID,
    Name: job.Name,
    Namespace: job.Namespace,
    Type: job.Type,
    Priority: job.Priority,
    Status: job.Status,
    StatusDescription: job.StatusDescription,
    Datacenters: job.Datacenters,
    Multiregion: job.Multiregion,
    ParameterizedJob: job.ParameterizedJob !== null,
    Periodic: job.Periodic !== null,
    Stop: job.Stop,
    SubmitTime: job.SubmitTime,
    JobSummary: summary,
    CreateIndex: job.CreateIndex,
    ModifyIndex: job.ModifyIndex,
    JobModifyIndex: job.JobModifyIndex,
    Meta: job.Meta,
  };
}

/**
 * Generates `count` job list items (with `Meta`) cheaply: about a second for 100,000, for benchmarks of
 * filters and paging. Same fields and distributions as {@link generateDataset}'s jobs, without task groups.
 *
 * @param count - Number of items.
 * @param seed - Seed; the same arguments give deep-equal items.
 * @returns The items, ordered by `Namespace` then `ID` within namespace creation order.
 * @example
 * ```ts
 * const items = generateJobs(100_000, 7);
 * items[42]?.ID; // e.g. 'web-00042'
 * ```
 */
export function generateJobs(count: number, seed: number): JobListStub[] {
  const random = createRandom(seed);
  const out: JobListStub[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = jobId(random, i);
    const type = pickType(random);
    const status = pickStatus(random);
    const groups = random.int(1, 3);
    const summary: Record<string, TaskGroupSummary> = {};
    for (let g = 0; g < groups; g += 1) {
      const running = status === 'running' ? random.int(1, 4) : 0;
      summary[GROUP_NAMES[g] ?? `group${g}`] = {
        Queued: status === 'pending' ? random.int(1, 3) : 0,
        Complete: status === 'dead' ? random.int(0, 3) : 0,
        Failed: random.chance(0.05) ? 1 : 0,
        Running: running,
        Starting: 0,
        Lost: 0,
      };
    }
    const index = i + 1;
    out.push({
      ID: id,
      ParentID: '',
      Name: id,
      Namespace: 'default',
      Type: type,
      Priority: random.normalInt(50, 15, 1, 100),
      Status: status,
      StatusDescription: '',
      Datacenters: pickDatacenters(random, ['dc1', 'dc2']),
      Multiregion: null,
      ParameterizedJob: false,
      Periodic: type === 'batch' && random.chance(0.3),
      Stop: status === 'dead' && random.chance(0.5),
      SubmitTime: EPOCH_NS + i * SECOND,
      JobSummary: {
        JobID: id,
        Namespace: 'default',
        Summary: summary,
        Children: { Pending: 0, Running: 0, Dead: 0 },
        CreateIndex: index,
        ModifyIndex: index,
      },
      CreateIndex: index,
      ModifyIndex: index,
      JobModifyIndex: index,
      Meta: makeMeta(random),
    });
  }
  return out;
}

function nonEmpty(list: readonly string[] | undefined, fallback: readonly string[]): readonly string[] {
  return list === undefined || list.length === 0 ? fallback : list;
}

function jobId(random: Random, i: number): string {
  return `${random.pick(NAME_PREFIXES)}-${String(i).padStart(5, '0')}`;
}

function pickType(random: Random): Job['Type'] {
  const roll = random.next();
  return roll < 0.7 ? 'service' : roll < 0.95 ? 'batch' : 'sysbatch';
}

function pickStatus(random: Random): Job['Status'] {
  const roll = random.next();
  return roll < 0.7 ? 'running' : roll < 0.85 ? 'pending' : 'dead';
}

function pickDatacenters(random: Random, datacenters: readonly string[]): string[] {
  if (datacenters.length > 1 && random.chance(0.3)) return [...datacenters];
  return [random.pick(datacenters)];
}

function makeMeta(random: Random): Record<string, string> {
  const meta: Record<string, string> = {
    owner: random.pick(OWNERS),
    team: random.pick(TEAMS),
    env: random.pick(ENVS),
  };
  if (random.chance(0.2)) meta.version = `v${random.int(1, 9)}.${random.int(0, 20)}`;
  if (random.chance(0.1)) meta['cost-center'] = `cc-${random.int(100, 999)}`;
  return meta;
}

function makeJobInput(
  random: Random,
  i: number,
  namespace: string,
  datacenters: readonly string[],
  allocsPerJob: number,
): JobInput {
  const id = jobId(random, i);
  const type = pickType(random);
  const status = pickStatus(random);
  const groupCount = random.int(1, 3);
  const total = allocsPerJob === 0 ? groupCount : Math.max(1, random.int(allocsPerJob - 1, allocsPerJob + 1));
  const groups = [];
  for (let g = 0; g < groupCount; g += 1) {
    const count = Math.floor(total / groupCount) + (g < total % groupCount ? 1 : 0);
    const taskCount = random.int(1, 2);
    const tasks = [];
    for (let t = 0; t < taskCount; t += 1) {
      tasks.push({
        Name: t === 0 ? 'main' : `sidecar${t}`,
        Driver: random.pick(DRIVERS),
        Config: { command: '/bin/sleep', args: [String(random.int(10, 3600))] },
        Resources: {
          CPU: random.pick([100, 250, 500, 1000]),
          MemoryMB: random.pick([64, 128, 256, 512, 1024]),
        },
        ...(random.chance(0.3) ? { Env: { LOG_LEVEL: random.pick(['debug', 'info', 'warn']) } } : {}),
      });
    }
    groups.push({
      Name: GROUP_NAMES[g] ?? `group${g}`,
      Count: count,
      Tasks: tasks,
      ...(type === 'service' && random.chance(0.5)
        ? {
            Networks: [{ DynamicPorts: [{ Label: 'http', To: 8080 }] }],
            Services: [{ PortLabel: 'http', Tags: [random.pick(ENVS)] }],
          }
        : {}),
    });
  }
  return {
    ID: id,
    Namespace: namespace,
    Type: type,
    Status: status,
    Stop: status === 'dead' && random.chance(0.5),
    Priority: random.normalInt(50, 15, 1, 100),
    Datacenters: pickDatacenters(random, datacenters),
    Meta: makeMeta(random),
    Version: random.int(0, 5),
    ...(type === 'batch' && random.chance(0.3)
      ? { Periodic: { Spec: '*/15 * * * *', ProhibitOverlap: true } }
      : {}),
    TaskGroups: groups,
  };
}

function emptyGroupSummary(): TaskGroupSummary {
  return { Queued: 0, Complete: 0, Failed: 0, Running: 0, Starting: 0, Lost: 0, Unknown: 0 };
}

function countAllocation(counts: TaskGroupSummary, status: Allocation['ClientStatus']): void {
  switch (status) {
    case 'pending':
      counts.Starting += 1;
      return;
    case 'running':
      counts.Running += 1;
      return;
    case 'complete':
      counts.Complete += 1;
      return;
    case 'failed':
      counts.Failed += 1;
      return;
    case 'lost':
      counts.Lost += 1;
      return;
    case 'unknown':
      counts.Unknown = (counts.Unknown ?? 0) + 1;
      return;
  }
}

function makeNode(random: Random, i: number, datacenter: string, createIndex: number): Node {
  const name = `node-${String(i + 1).padStart(4, '0')}`;
  const ip = `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}`;
  return {
    ID: random.uuid(),
    Datacenter: datacenter,
    Name: name,
    HTTPAddr: `${ip}:4646`,
    TLSEnabled: false,
    Attributes: { 'kernel.name': 'linux', 'cpu.arch': 'amd64', 'unique.hostname': name },
    NodeResources: {
      Cpu: { CpuShares: 8000 },
      Memory: { MemoryMB: 16384 },
      Disk: { DiskMB: 200_000 },
      Networks: null,
      NodeNetworks: null,
      Devices: null,
    },
    ReservedResources: null,
    Resources: { CPU: 8000, MemoryMB: 16384, DiskMB: 200_000, IOPS: 0, Networks: null, Devices: null },
    Reserved: null,
    Links: null,
    Meta: { rack: `r${(i % 4) + 1}` },
    NodeClass: '',
    NodePool: 'default',
    ComputedClass: `v1:${random.int(100_000, 999_999)}`,
    Drain: false,
    DrainStrategy: null,
    SchedulingEligibility: 'eligible',
    Status: 'ready',
    StatusDescription: '',
    StatusUpdatedAt: Math.floor(EPOCH_NS / SECOND),
    Events: [
      {
        Message: 'Node registered',
        Subsystem: 'Cluster',
        Details: null,
        Timestamp: iso(EPOCH_NS),
        CreateIndex: createIndex,
      },
    ],
    Drivers: {
      mock: {
        Attributes: null,
        Detected: true,
        Healthy: true,
        HealthDescription: 'Healthy',
        UpdateTime: iso(EPOCH_NS),
      },
    },
    CSIControllerPlugins: null,
    CSINodePlugins: null,
    HostVolumes: null,
    CreateIndex: createIndex,
    ModifyIndex: createIndex,
  };
}

function makeEvaluation(random: Random, job: Job, createIndex: number, time: number): Evaluation {
  return {
    ID: random.uuid(),
    Namespace: job.Namespace,
    Priority: job.Priority,
    Type: job.Type,
    TriggeredBy: 'job-register',
    JobID: job.ID,
    JobModifyIndex: job.JobModifyIndex,
    NodeID: '',
    NodeModifyIndex: 0,
    DeploymentID: '',
    Status: 'complete',
    StatusDescription: '',
    Wait: 0,
    NextEval: '',
    PreviousEval: '',
    BlockedEval: '',
    FailedTGAllocs: null,
    ClassEligibility: null,
    EscapedComputedClass: false,
    AnnotatePlan: false,
    QueuedAllocations: Object.fromEntries(job.TaskGroups.map((group) => [group.Name, 0])),
    SnapshotIndex: createIndex,
    CreateIndex: createIndex,
    ModifyIndex: createIndex,
    CreateTime: time,
    ModifyTime: time,
  };
}

function makeDeployment(random: Random, job: Job, createIndex: number): Deployment {
  return {
    ID: random.uuid(),
    Namespace: job.Namespace,
    JobID: job.ID,
    JobVersion: job.Version,
    JobCreateIndex: job.CreateIndex,
    JobModifyIndex: job.JobModifyIndex,
    JobSpecModifyIndex: job.JobModifyIndex,
    EvalPriority: job.Priority,
    IsMultiregion: false,
    Status: 'successful',
    StatusDescription: 'Deployment completed successfully',
    TaskGroups: Object.fromEntries(
      job.TaskGroups.map((group) => [
        group.Name,
        {
          AutoPromote: false,
          AutoRevert: false,
          DesiredCanaries: 0,
          DesiredTotal: group.Count,
          HealthyAllocs: group.Count,
          UnhealthyAllocs: 0,
          PlacedAllocs: group.Count,
          PlacedCanaries: null,
          ProgressDeadline: 600 * SECOND,
          Promoted: false,
          RequireProgressBy: null,
        },
      ]),
    ),
    CreateIndex: createIndex,
    ModifyIndex: createIndex,
  };
}

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

function makeAllocation(random: Random, context: AllocationContext): Allocation {
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

function iso(unixNs: number): string {
  return new Date(Math.floor(unixNs / 1_000_000)).toISOString();
}
