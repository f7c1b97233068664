/**
 * The stored shapes of the scheduler core, written against the field names of spec documents 1
 * and 2 (the wire names). They are structurally compatible with the schemas of `@sked/model`;
 * fields the core does not interpret are carried through untouched. Where the model's static type
 * fits the stored record exactly (constraints, restart/reschedule/update policies, deployment
 * states) it is re-exported from `@sked/model` instead of declared here; the others keep a server
 * shape (the `system` job type, stored fields the model lacks such as `WaitUntil` or
 * `DispatchIdempotencyToken`, or driver events with free-form types).
 */

import type {
  Constraint,
  RestartPolicy,
  ReschedulePolicy,
  UpdateStrategy,
  DeploymentState,
} from '@sked/model';

export type {
  Constraint,
  RestartPolicy,
  ReschedulePolicy,
  UpdateStrategy,
  DeploymentState,
} from '@sked/model';

/** A free-form JSON object. */
export type JsonObject = Record<string, unknown>;

/** Resources a task asks for. */
export interface Resources {
  CPU: number;
  Cores?: number;
  MemoryMB: number;
  MemoryMaxMB?: number;
  DiskMB: number;
  IOPS: number;
  Networks: unknown[] | null;
  Devices: unknown[] | null;
}

/** A task of a task group. */
export interface Task {
  Name: string;
  Driver: string;
  User: string;
  Config: JsonObject | null;
  Env: Record<string, string> | null;
  Services: unknown[] | null;
  Templates: unknown[] | null;
  Constraints: Constraint[] | null;
  Affinities: unknown[] | null;
  Spreads?: unknown[] | null;
  Resources: Resources;
  RestartPolicy: RestartPolicy | null;
  DispatchPayload: { File: string } | null;
  Meta: Record<string, string> | null;
  KillTimeout: number;
  KillSignal: string;
  Kind: string;
  LogConfig: { Disabled?: boolean; MaxFiles: number; MaxFileSizeMB: number } | null;
  Artifacts: unknown[] | null;
  Leader: boolean;
  Lifecycle: { Hook: string; Sidecar: boolean } | null;
  CSIPluginConfig: unknown;
  ScalingPolicies: unknown[] | null;
  VolumeMounts: unknown[] | null;
  ShutdownDelay: number;
  [extra: string]: unknown;
}

/** A volume request of a task group. */
export interface VolumeRequest {
  Name: string;
  Type: string;
  Source: string;
  ReadOnly: boolean;
  AccessMode?: string;
  AttachmentMode?: string;
  PerAlloc?: boolean;
  [extra: string]: unknown;
}

/** A task group. */
export interface TaskGroup {
  Name: string;
  Count: number;
  Constraints: Constraint[] | null;
  Affinities: unknown[] | null;
  Spreads: unknown[] | null;
  Tasks: Task[];
  RestartPolicy: RestartPolicy;
  ReschedulePolicy: ReschedulePolicy | null;
  Migrate: JsonObject | null;
  Update: UpdateStrategy | null;
  EphemeralDisk: { Sticky: boolean; SizeMB: number; Migrate: boolean };
  Networks: unknown[] | null;
  Services: unknown[] | null;
  Volumes: Record<string, VolumeRequest> | null;
  Scaling: unknown;
  Meta: Record<string, string> | null;
  ShutdownDelay: number | null;
  StopAfterClientDisconnect: number | null;
  MaxClientDisconnect: number | null;
  [extra: string]: unknown;
}

/** Periodic launch configuration. */
export interface PeriodicConfig {
  Enabled: boolean;
  Spec: string;
  SpecType: string;
  ProhibitOverlap: boolean;
  TimeZone?: string;
}

/** Parameterized job configuration. */
export interface ParameterizedJobConfig {
  Payload: string;
  MetaRequired: string[] | null;
  MetaOptional: string[] | null;
}

/** A job, as stored (every field present). */
export interface Job {
  Region: string;
  Namespace: string;
  ID: string;
  ParentID: string;
  Name: string;
  Type: string;
  Priority: number;
  AllAtOnce: boolean;
  Datacenters: string[];
  NodePool: string;
  Constraints: Constraint[] | null;
  Affinities: unknown[] | null;
  Spreads: unknown[] | null;
  TaskGroups: TaskGroup[];
  Update: UpdateStrategy | JsonObject | null;
  Migrate: JsonObject | null;
  Reschedule: ReschedulePolicy | null;
  Periodic: PeriodicConfig | null;
  ParameterizedJob: ParameterizedJobConfig | null;
  Payload: string | null;
  Multiregion: unknown;
  Meta: Record<string, string> | null;
  Dispatched: boolean;
  DispatchIdempotencyToken: string;
  Stop: boolean;
  Stable: boolean;
  Version: number;
  SubmitTime: number;
  Status: string;
  StatusDescription: string;
  CreateIndex: number;
  ModifyIndex: number;
  JobModifyIndex: number;
  MeshToken: string;
  SecretsToken: string;
  SvcTokenID: string;
  SecretsNamespace: string;
  [extra: string]: unknown;
}

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

/** An evaluation. */
export interface Evaluation {
  ID: string;
  Namespace: string;
  Priority: number;
  Type: string;
  TriggeredBy: string;
  JobID: string;
  JobModifyIndex: number;
  NodeID: string;
  NodeModifyIndex: number;
  DeploymentID: string;
  Status: string;
  StatusDescription: string;
  Wait: number;
  WaitUntil: string | null;
  NextEval: string;
  PreviousEval: string;
  BlockedEval: string;
  RelatedEvals: unknown[] | null;
  FailedTGAllocs: Record<string, AllocMetric> | null;
  ClassEligibility: Record<string, boolean> | null;
  EscapedComputedClass: boolean;
  AnnotatePlan: boolean;
  QueuedAllocations: Record<string, number> | null;
  LeaderACL: string;
  SnapshotIndex: number;
  CreateIndex: number;
  ModifyIndex: number;
  CreateTime: number;
  ModifyTime: number;
}

/** A deployment. */
export interface Deployment {
  ID: string;
  Namespace: string;
  JobID: string;
  JobVersion: number;
  JobCreateIndex: number;
  JobModifyIndex: number;
  JobSpecModifyIndex: number;
  EvalPriority: number;
  IsMultiregion: boolean;
  Status: string;
  StatusDescription: string;
  TaskGroups: Record<string, DeploymentState>;
  CreateIndex: number;
  ModifyIndex: number;
  CreateTime: number;
  ModifyTime: number;
}

/** A task event. */
export interface TaskEvent {
  Type: string;
  Time: number;
  DisplayMessage: string;
  Details: Record<string, string>;
  FailsTask: boolean;
  RestartReason: string;
  SetupError: string;
  DriverError: string;
  Message: string;
  KillError: string;
  KillReason: string;
  DownloadError: string;
  ValidationError: string;
  FailedSibling: string;
  SecretsError: string;
  TaskSignalReason: string;
  TaskSignal: string;
  DriverMessage: string;
  ExitCode: number;
  Signal: number;
  KillTimeout: number;
  StartDelay: number;
  DiskLimit: number;
  GenericSource: string;
}

/** The observed state of one task. */
export interface TaskState {
  State: string;
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
  DesiredStatus: string;
  DesiredDescription: string;
  DesiredTransition: { Migrate: boolean | null; Reschedule: boolean | null; ForceReschedule: boolean | null };
  ClientStatus: string;
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
  Resources: {
    CPU: number;
    MemoryMB: number;
    DiskMB: number;
    IOPS: number;
    Networks: unknown[] | null;
    Devices: unknown[] | null;
  };
  Reserved: {
    CPU: number;
    MemoryMB: number;
    DiskMB: number;
    IOPS: number;
    Networks: unknown[] | null;
    Devices: unknown[] | null;
  };
  Links: Record<string, string>;
  Drain: boolean;
  DrainStrategy: JsonObject | null;
  SchedulingEligibility: string;
  Status: string;
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
  Topic: string;
  Type: string;
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
