/**
 * Schemas (TypeBox, JSON Schema) and static types for every resource and body of the scheduling
 * service API, the secrets service's LDAP auth method and the mesh service's cluster peering API,
 * plus `validate()` with user-facing problems and job canonicalization.
 *
 * See the package README for defaults and validation decisions.
 *
 * @packageDocumentation
 */

// constraint
export {
  Affinity,
  AffinityInput,
  Constraint,
  ConstraintInput,
  Spread,
  SpreadInput,
  SpreadTarget,
  SpreadTargetInput,
} from './constraint.js';
// policies
export {
  EphemeralDisk,
  EphemeralDiskInput,
  MigrateStrategy,
  MigrateStrategyInput,
  ReschedulePolicy,
  ReschedulePolicyInput,
  RestartPolicy,
  RestartPolicyInput,
  UpdateStrategy,
  UpdateStrategyInput,
} from './policies.js';
// network
export {
  DnsConfig,
  DnsConfigInput,
  NetworkResource,
  NetworkResourceInput,
  Port,
  PortInput,
} from './network.js';
// task
export {
  Artifact,
  ArtifactInput,
  DispatchPayload,
  DispatchPayloadInput,
  Lifecycle,
  LifecycleInput,
  LogConfig,
  LogConfigInput,
  RequestedDevice,
  RequestedDeviceInput,
  Resources,
  ResourcesInput,
  ScalingPolicy,
  ScalingPolicyInput,
  Service,
  ServiceCheck,
  ServiceCheckInput,
  ServiceInput,
  Task,
  TaskCsiPluginConfig,
  TaskCsiPluginConfigInput,
  TaskInput,
  TaskSecrets,
  TaskSecretsInput,
  Template,
  TemplateInput,
  VolumeMount,
  VolumeMountInput,
} from './task.js';
// task-group
export { TaskGroup, TaskGroupInput, VolumeRequest, VolumeRequestInput } from './task-group.js';
// job
export {
  Job,
  JobChildrenSummary,
  JobInput,
  JobListStub,
  JobStatus,
  JobSubmission,
  JobSubmissionFormat,
  JobSubmissionInput,
  JobSummary,
  JobType,
  Multiregion,
  MultiregionInput,
  ParameterizedJob,
  ParameterizedJobInput,
  Periodic,
  PeriodicInput,
  TaskGroupSummary,
} from './job.js';
// evaluation
export { AllocationMetric, EvalStatus, EvalTriggeredBy, Evaluation } from './evaluation.js';
// deployment
export { Deployment, DeploymentState, DeploymentStatus } from './deployment.js';
// job-diff
export { DiffType, FieldDiff, JobDiff, ObjectDiff, TaskDiff, TaskGroupDiff } from './job-diff.js';
// job-requests
export {
  DesiredUpdates,
  JobDeregisterResponse,
  JobDispatchRequest,
  JobDispatchResponse,
  JobEvalResponse,
  JobEvaluateRequest,
  JobParseRequest,
  JobParseResponse,
  JobPeriodicForceResponse,
  JobPlanRequest,
  JobPlanResponse,
  JobRegisterRequest,
  JobRegisterResponse,
  JobRevertRequest,
  JobStabilityRequest,
  JobStabilityResponse,
  JobVersionsResponse,
} from './job-requests.js';
// allocation
export {
  AllocClientStatus,
  AllocDeploymentStatus,
  AllocDesiredStatus,
  AllocResources,
  Allocation,
  RescheduleEvent,
  RescheduleTracker,
  TaskEvent,
  TaskEventType,
  TaskState,
  TaskStateName,
} from './allocation.js';
// alloc-requests
export {
  AllocRestartRequest,
  AllocSignalRequest,
  AllocStopResponse,
  EmptyResponse,
} from './alloc-requests.js';
// volume
export {
  CsiVolume,
  CsiVolumeAccessMode,
  CsiVolumeAttachmentMode,
  CsiVolumeInput,
  CsiVolumeListStub,
  CsiVolumeRegisterRequest,
  CsiVolumeWriteResponse,
} from './volume.js';
// node
export {
  DriverInfo,
  Node,
  NodeEvent,
  NodeLegacyResources,
  NodeNetworkAddress,
  NodeNetworkResource,
  NodeResources,
  NodeSchedulingEligibility,
  NodeStatus,
} from './node.js';
// event
export { Event, EventEnvelope, EventTopic, EventType, NodeEventPayload } from './event.js';
// exec
export { ExecClientFrame, ExecServerFrame, ExecStreamFrame } from './exec.js';
// validate
export { formatProblems, matches, pointerToDotted, validate } from './validate.js';
export type { ValidateOptions, ValidationProblem, ValidationResult } from './validate.js';
// canonicalize
export { JobDefaults, JobTypeDefaults, canonicalizeJob } from './canonicalize.js';
export type { CanonicalizeJobOptions } from './canonicalize.js';
// typebox
export type { Static, TSchema } from 'typebox';
