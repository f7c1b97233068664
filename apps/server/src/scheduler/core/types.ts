/**
 * The stored shapes of the scheduler core, written against the field names of spec documents 1
 * and 2 (the wire names). They are structurally compatible with the schemas of `@sked/model`;
 * fields the core does not interpret are carried through untouched. Where the model's static type
 * fits the stored record (task groups, tasks, resources, volume requests, constraints, policies,
 * deployment states) it is re-exported from `@sked/model` instead of declared here, and Job extends
 * the model's; the others keep a server shape (stored fields the model lacks such as `WaitUntil` or
 * `ModifyTime`, or driver events with free-form types).
 */

import type {
  AllocClientStatus,
  AllocDesiredStatus,
  Deployment as ModelDeployment,
  DeploymentStatus,
  EvalStatus,
  EvalTriggeredBy,
  EventTopic,
  EventType,
  NodeSchedulingEligibility,
  NodeStatus,
  SchedulerJob,
  TaskEvent as ModelTaskEvent,
  TaskStateName,
  Evaluation as ModelEvaluation,
} from '@sked/model';

export type {
  Resources,
  Task,
  VolumeRequest,
  TaskGroup,
  Constraint,
  RestartPolicy,
  ReschedulePolicy,
  UpdateStrategy,
  DeploymentState,
} from '@sked/model';

/** A free-form JSON object. */
export type JsonObject = Record<string, unknown>;

/**
 * A job as stored: the model's SchedulerJob (a Job whose type may also be `system`), plus the
 * dispatch idempotency token this server keeps.
 */
export type Job = SchedulerJob & {
  /** The token of the dispatch that created this child (`""` otherwise). */
  DispatchIdempotencyToken: string;
};

/** Per task group counts of a JobSummary. */
export interface TaskGroupSummary {
  Queued: number;
  Complete: number;
  Failed: number;
  Running: number;
  Starting: number;
  Lost: number;
  Unknown: number;
}

/** A job's summary. */
export interface JobSummary {
  JobID: string;
  Namespace: string;
  Summary: Record<string, TaskGroupSummary>;
  Children: { Pending: number; Running: number; Dead: number };
  CreateIndex: number;
  ModifyIndex: number;
}

/** The original source of a job version. */
export interface JobSubmission {
  Format: string;
  JobIndex: number;
  JobID: string;
  Namespace: string;
  Source: string;
  VariableFlags: Record<string, string> | null;
  Variables: string;
  Version: number;
}

/** Why and how allocations failed to place, per task group. */
export interface AllocMetric {
  NodesEvaluated: number;
  NodesFiltered: number;
  NodesInPool: number;
  NodesAvailable: Record<string, number>;
  ClassFiltered: Record<string, number> | null;
  ConstraintFiltered: Record<string, number> | null;
  NodesExhausted: number;
  ClassExhausted: Record<string, number> | null;
  DimensionExhausted: Record<string, number> | null;
  QuotaExhausted: string[] | null;
  ResourcesExhausted: Record<string, unknown> | null;
  Scores: Record<string, number> | null;
  ScoreMetaData: unknown[] | null;
  AllocationTime: number;
  CoalescedFailures: number;
}

/**
 * An evaluation as stored: the model's Evaluation with free trigger and status strings, this
 * server's placement metrics, and the fields the model leaves out (WaitUntil, RelatedEvals, LeaderACL).
 */
export interface Evaluation extends Omit<ModelEvaluation, 'TriggeredBy' | 'Status' | 'FailedTGAllocs'> {
  TriggeredBy: EvalTriggeredBy;
  Status: EvalStatus;
  FailedTGAllocs: Record<string, AllocMetric> | null;
  WaitUntil: string | null;
  RelatedEvals: unknown[] | null;
  LeaderACL: string;
}

/** A deployment as stored: the model's Deployment with a free status string and its creation and change times. */
export interface Deployment extends Omit<ModelDeployment, 'Status'> {
  Status: DeploymentStatus;
  CreateTime: number;
  ModifyTime: number;
}

/** A task event: the model's TaskEvent with GenericSource. */
export interface TaskEvent extends ModelTaskEvent {
  GenericSource: string;
}

/** The observed state of one task. */
export interface TaskState {
  State: TaskStateName;
  Failed: boolean;
  Restarts: number;
  LastRestart: string | null;
  StartedAt: string | null;
  FinishedAt: string | null;
  Events: TaskEvent[];
}

/** One reschedule of an allocation. */
export interface RescheduleEvent {
  PrevAllocID: string;
  PrevNodeID: string;
  RescheduleTime: number;
  Delay: number;
}

/** Resources of an allocation or task. */
export interface AllocResources {
  CPU: number;
  MemoryMB: number;
  DiskMB: number;
  Networks: unknown[] | null;
}

/** An allocation, as stored (with its Job; lists and events drop it). */
export interface Allocation {
  ID: string;
  Namespace: string;
  EvalID: string;
  Name: string;
  NodeID: string;
  NodeName: string;
  JobID: string;
  Job: Job | null;
  TaskGroup: string;
  Resources: AllocResources;
  SharedResources: AllocResources;
  TaskResources: Record<string, AllocResources>;
  AllocatedResources: JsonObject | null;
  Metrics: AllocMetric;
  DesiredStatus: AllocDesiredStatus;
  DesiredDescription: string;
  DesiredTransition: { Migrate: boolean | null; Reschedule: boolean | null; ForceReschedule: boolean | null };
  ClientStatus: AllocClientStatus;
  ClientDescription: string;
  TaskStates: Record<string, TaskState> | null;
  DeploymentID: string;
  DeploymentStatus: {
    Healthy: boolean | null;
    Timestamp: string | null;
    Canary: boolean;
    ModifyIndex: number;
  } | null;
  PreviousAllocation: string;
  NextAllocation: string;
  RescheduleTracker: { Events: RescheduleEvent[] } | null;
  FollowupEvalID: string;
  JobVersion: number;
  CreateIndex: number;
  ModifyIndex: number;
  AllocModifyIndex: number;
  CreateTime: number;
  ModifyTime: number;
}

/** A node's total or reserved resources in the legacy flat form (CPU in MHz, memory and disk in MB). */
export interface NodeResourceTotals {
  CPU: number;
  MemoryMB: number;
  DiskMB: number;
  IOPS: number;
  Networks: unknown[] | null;
  Devices: unknown[] | null;
}

/** A simulated client node. */
export interface Node {
  ID: string;
  Name: string;
  Datacenter: string;
  NodePool: string;
  NodeClass: string;
  ComputedClass: string;
  HTTPAddr: string;
  TLSEnabled: boolean;
  Attributes: Record<string, string>;
  Meta: Record<string, string>;
  NodeResources: {
    Cpu: { CpuShares: number; TotalCpuCores: number };
    Memory: { MemoryMB: number };
    Disk: { DiskMB: number };
    Networks: unknown[];
    NodeNetworks: unknown[];
    Devices: unknown[] | null;
  };
  ReservedResources: { Cpu: { CpuShares: number }; Memory: { MemoryMB: number }; Disk: { DiskMB: number } };
  Resources: NodeResourceTotals;
  Reserved: NodeResourceTotals;
  Links: Record<string, string>;
  Drain: boolean;
  DrainStrategy: JsonObject | null;
  SchedulingEligibility: NodeSchedulingEligibility;
  Status: NodeStatus;
  StatusDescription: string;
  StatusUpdatedAt: number;
  Events: {
    Message: string;
    Subsystem: string;
    Details: Record<string, string> | null;
    Timestamp: string;
    CreateIndex: number;
  }[];
  Drivers: Record<
    string,
    {
      Attributes: Record<string, string> | null;
      Detected: boolean;
      Healthy: boolean;
      HealthDescription: string;
      UpdateTime: string;
    }
  >;
  CSIControllerPlugins: JsonObject | null;
  CSINodePlugins: JsonObject | null;
  HostVolumes: JsonObject | null;
  CreateIndex: number;
  ModifyIndex: number;
}

/** A claim of a volume by an allocation. */
export interface VolumeClaim {
  AllocationID: string;
  NodeID: string;
  Mode: 'read' | 'write';
  State: string;
}

/** A CSI volume. */
export interface CsiVolume {
  ID: string;
  Name: string;
  ExternalID: string;
  Namespace: string;
  Topologies: Record<string, string>[] | null;
  AccessMode: string;
  AttachmentMode: string;
  MountOptions: JsonObject | null;
  Secrets: Record<string, string> | null;
  Parameters: Record<string, string> | null;
  Context: Record<string, string> | null;
  Capacity: number;
  RequestedCapabilities: unknown[] | null;
  Schedulable: boolean;
  PluginID: string;
  Provider: string;
  ProviderVersion: string;
  Version: string;
  ControllerRequired: boolean;
  ControllersHealthy: number;
  ControllersExpected: number;
  NodesHealthy: number;
  NodesExpected: number;
  ResourceExhausted: number;
  ReadAllocs: Record<string, Allocation | null>;
  WriteAllocs: Record<string, Allocation | null>;
  Allocations: unknown[];
  /** Claims by allocation ID (core bookkeeping; the API shows them as ReadAllocs/WriteAllocs). */
  Claims: Record<string, VolumeClaim>;
  CreateIndex: number;
  ModifyIndex: number;
}

/** One event of the event stream. */
export interface ClusterEvent {
  Topic: EventTopic;
  Type: EventType;
  Key: string;
  Namespace: string;
  FilterKeys: string[] | null;
  Index: number;
  Payload: JsonObject;
}

/** A batch of events sharing one index. */
export interface EventBatch {
  Index: number;
  Events: ClusterEvent[];
}
