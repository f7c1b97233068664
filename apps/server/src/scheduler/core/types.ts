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
  AllocationMetric,
  Allocation as ModelAllocation,
  AllocResources as ModelAllocResources,
  CsiVolume as ModelCsiVolume,
  CsiVolumeInput,
  Deployment as ModelDeployment,
  JobSubmission,
  DriverInfo,
  Evaluation as ModelEvaluation,
  EventHeader,
  EventType,
  JobSummary as ModelJobSummary,
  Node as ModelNode,
  NodeEvent,
  NodeLegacyResources,
  NodeResources,
  RescheduleEvent,
  SchedulerJob,
  TaskEvent as ModelTaskEvent,
  TaskGroupSummary as ModelTaskGroupSummary,
  TaskState as ModelTaskState,
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

export type { JobSubmission };

/** Per task group counts of a JobSummary: the model's, with `Unknown` always counted. */
export type TaskGroupSummary = Required<ModelTaskGroupSummary>;

/** A job's summary: the model's, with every group's counts complete. */
export type JobSummary = Omit<ModelJobSummary, 'Summary'> & { Summary: Record<string, TaskGroupSummary> };

/**
 * Placement metrics: the model's AllocationMetric, plus three fields the service reports that this
 * server fills with `null` (quotas, resource exhaustion details, score metadata).
 */
export type AllocMetric = Omit<AllocationMetric, 'NodesAvailable'> & {
  NodesAvailable: Record<string, number>;
  QuotaExhausted: string[] | null;
  ResourcesExhausted: Record<string, unknown> | null;
  ScoreMetaData: unknown[] | null;
};

/**
 * An evaluation as stored: the model's Evaluation with this server's placement metrics, and the
 * fields the model leaves out (WaitUntil, RelatedEvals, LeaderACL).
 */
export interface Evaluation extends Omit<ModelEvaluation, 'FailedTGAllocs'> {
  FailedTGAllocs: Record<string, AllocMetric> | null;
  WaitUntil: string | null;
  RelatedEvals: unknown[] | null;
  LeaderACL: string;
}

/** A deployment as stored: the model's Deployment with its creation and change times. */
export interface Deployment extends ModelDeployment {
  CreateTime: number;
  ModifyTime: number;
}

/** A task event: the model's TaskEvent with GenericSource. */
export interface TaskEvent extends ModelTaskEvent {
  GenericSource: string;
}

/** The observed state of one task: the model's, with its events always a list. */
export type TaskState = Omit<ModelTaskState, 'Events'> & { Events: TaskEvent[] };

/** An allocation's resources: the model's AllocResources. */
export type AllocResources = ModelAllocResources;

/**
 * An allocation as stored (with its Job; lists and events drop it): the model's Allocation, with the
 * resources, metrics, task states and reschedule events this server always sets, and the
 * DesiredTransition flags the model leaves out.
 */
export type Allocation = Omit<
  ModelAllocation,
  | 'Job'
  | 'Resources'
  | 'SharedResources'
  | 'TaskResources'
  | 'AllocatedResources'
  | 'Metrics'
  | 'TaskStates'
  | 'RescheduleTracker'
> & {
  Job: Job | null;
  Resources: AllocResources;
  SharedResources: AllocResources;
  TaskResources: Record<string, AllocResources>;
  AllocatedResources: JsonObject | null;
  Metrics: AllocMetric;
  TaskStates: Record<string, TaskState> | null;
  RescheduleTracker: { Events: RescheduleEvent[] } | null;
  /** Version of the job the allocation runs. */
  JobVersion: number;
  /** What the scheduler should do with the allocation next (`null` = no opinion). */
  DesiredTransition: { Migrate: boolean | null; Reschedule: boolean | null; ForceReschedule: boolean | null };
};

/**
 * A simulated client node: the model's Node with the maps, resources, events and drivers this server
 * always sets (never `null`), the CPU core count, and the node pool it always names.
 */
export type Node = Omit<
  ModelNode,
  | 'Attributes'
  | 'Meta'
  | 'NodeResources'
  | 'ReservedResources'
  | 'Resources'
  | 'Reserved'
  | 'Links'
  | 'Events'
  | 'Drivers'
  | 'NodePool'
> & {
  NodePool: string;
  Attributes: Record<string, string>;
  Meta: Record<string, string>;
  NodeResources: Omit<NodeResources, 'Cpu'> & { Cpu: { CpuShares: number; TotalCpuCores: number } };
  ReservedResources: { Cpu: { CpuShares: number }; Memory: { MemoryMB: number }; Disk: { DiskMB: number } };
  Resources: NodeLegacyResources;
  Reserved: NodeLegacyResources;
  Links: Record<string, string>;
  Events: NodeEvent[];
  Drivers: Record<string, DriverInfo>;
};

/** A claim of a volume by an allocation (core bookkeeping). */
export interface VolumeClaim {
  AllocationID: string;
  NodeID: string;
  Mode: 'read' | 'write';
  State: string;
}

/**
 * A CSI volume as stored: the model's CsiVolume with its claims (which the API shows as
 * ReadAllocs/WriteAllocs), the fields the model leaves out, and allocations as this server keeps them.
 */
export type CsiVolume = Omit<ModelCsiVolume, 'ReadAllocs' | 'WriteAllocs' | 'Allocations' | 'Namespace'> & {
  Namespace: string;
  ExternalID: string;
  Capacity: number;
  MountOptions: Exclude<CsiVolumeInput['MountOptions'], undefined>;
  Secrets: Record<string, string> | null;
  Parameters: Record<string, string> | null;
  Context: Record<string, string> | null;
  RequestedCapabilities: Exclude<CsiVolumeInput['RequestedCapabilities'], undefined>;
  ProviderVersion: string;
  ReadAllocs: Record<string, Allocation | null>;
  WriteAllocs: Record<string, Allocation | null>;
  Allocations: unknown[];
  /** Claims by allocation ID (core bookkeeping; the API shows them as ReadAllocs/WriteAllocs). */
  Claims: Record<string, VolumeClaim>;
};

/** The event types the server derives on each topic (state/events.ts says which change gives which). */
type AllocEventType =
  | typeof EventType.AllocationCreated
  | typeof EventType.AllocationUpdated
  | typeof EventType.AllocationUpdateDesiredStatus;
type DeploymentEventType =
  | typeof EventType.PlanResult
  | typeof EventType.DeploymentStatusUpdate
  | typeof EventType.DeploymentPromotion
  | typeof EventType.DeploymentAllocHealth;
type JobEventType =
  typeof EventType.JobRegistered | typeof EventType.JobDeregistered | typeof EventType.JobBatchDeregistered;
type NodeEventType =
  | typeof EventType.NodeRegistration
  | typeof EventType.NodeDeregistration
  | typeof EventType.NodeEligibility
  | typeof EventType.NodeDrain
  | typeof EventType.NodeEvent;

/**
 * What the server emits on each topic: the event types, and the payload in the stored shapes (the
 * model's `EventPayloads`, with this server's records; an allocation without its job).
 */
export interface ClusterEventKinds {
  Allocation: { type: AllocEventType; payload: { Allocation: Omit<Allocation, 'Job'> } };
  Deployment: { type: DeploymentEventType; payload: { Deployment: Deployment } };
  Evaluation: { type: typeof EventType.EvaluationUpdated; payload: { Evaluation: Evaluation } };
  Job: { type: JobEventType; payload: { Job: Job } };
  Node: { type: NodeEventType; payload: { Node: Node } };
}

/** A topic the server emits events on. */
export type ClusterEventTopic = keyof ClusterEventKinds;

/** An event of topic `T` before the commit gives it its index. */
export interface PendingEventOf<T extends ClusterEventTopic> extends Omit<EventHeader, 'Index' | 'Type'> {
  Topic: T;
  Type: ClusterEventKinds[T]['type'];
  Payload: ClusterEventKinds[T]['payload'];
}

/** An event of topic `T`, as the stream carries it. */
export interface ClusterEventOf<T extends ClusterEventTopic> extends PendingEventOf<T> {
  Index: number;
}

/** One event of the event stream: a union discriminated by `Topic`. */
export type ClusterEvent = { [T in ClusterEventTopic]: ClusterEventOf<T> }[ClusterEventTopic];

/** A batch of events sharing one index. */
export interface EventBatch {
  Index: number;
  Events: ClusterEvent[];
}
