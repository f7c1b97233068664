/** Generated nodes, evaluations and deployments. */
import type { Deployment, Evaluation, Job, Node } from '@sked/model';
import type { Random } from '../random.js';
import { EPOCH_NS, SECOND, iso } from './vocabulary.js';

export function makeNode(random: Random, i: number, datacenter: string, createIndex: number): Node {
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

export function makeEvaluation(random: Random, job: Job, createIndex: number, time: number): Evaluation {
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

export function makeDeployment(random: Random, job: Job, createIndex: number): Deployment {
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
