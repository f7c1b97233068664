/**
 * Schemas (TypeBox, JSON Schema) and static types for every resource and body of the scheduling
 * service API, the secrets service's LDAP auth method and the mesh service's cluster peering API,
 * with `validate()` (problems a user can act on), job canonicalization, the scheduler's semantic job
 * checks (`jobProblems()`) and cron specs (`parseCron()`, `nextCronLaunch()`).
 *
 * See the package README (`packages/model/README.md`) for defaults and validation decisions.
 *
 * @packageDocumentation
 */

// Errors
export { ValidationError } from './errors.js';
// Placement rules
export {
  Affinity,
  AffinityInput,
  Constraint,
  ConstraintInput,
  ConstraintOperands,
  Spread,
  SpreadInput,
  SpreadTarget,
  SpreadTargetInput,
} from './constraint.js';
export type { ConstraintOperand } from './constraint.js';
// Group and task policies
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
// Networks and ports
export {
  DnsConfig,
  DnsConfigInput,
  NetworkResource,
  NetworkResourceInput,
  Port,
  PortInput,
} from './network.js';
// Tasks
export { ScalingPolicy, ScalingPolicyInput, Task, TaskInput } from './task.js';
export { Service, ServiceCheck, ServiceCheckInput, ServiceInput } from './task-service.js';
export {
  Artifact,
  ArtifactInput,
  DispatchPayload,
  DispatchPayloadInput,
  Lifecycle,
  LifecycleInput,
  LogConfig,
  LogConfigInput,
  TaskCsiPluginConfig,
  TaskCsiPluginConfigInput,
  TaskSecrets,
  TaskSecretsInput,
  Template,
  TemplateInput,
  VolumeMount,
  VolumeMountInput,
} from './task-parts.js';
export { RequestedDevice, RequestedDeviceInput, Resources, ResourcesInput } from './task-resources.js';
// Task groups
export { TaskGroup, TaskGroupInput, VolumeRequest, VolumeRequestInput } from './task-group.js';
// Jobs
export { Job, JobInput, SchedulerJobInput } from './job.js';
export {
  JobChildrenSummary,
  JobListStub,
  JobSubmission,
  JobSubmissionFormat,
  JobSubmissionInput,
  JobSummary,
  TaskGroupSummary,
} from './job-reads.js';
export { JobStatus, JobType, SchedulerJobType } from './job-types.js';
export {
  Multiregion,
  MultiregionInput,
  ParameterizedJob,
  ParameterizedJobInput,
  Periodic,
  PeriodicInput,
} from './job-launch.js';
export type { SchedulerJob } from './job.js';
// Evaluations
export { AllocationMetric, EvalStatus, EvalTriggeredBy, Evaluation } from './evaluation.js';
// Deployments
export { Deployment, DeploymentState, DeploymentStatus } from './deployment.js';
// Job diffs
export { DiffType, FieldDiff, JobDiff, ObjectDiff, TaskDiff, TaskGroupDiff } from './job-diff.js';
export { diffJobs } from './diff-jobs.js';
// Job request and response bodies
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
  MaxDispatchPayloadBytes,
} from './job-requests.js';
// Allocations
export {
  AllocClientStatus,
  AllocDeploymentStatus,
  AllocDesiredStatus,
  AllocResources,
  Allocation,
  newTaskEvent,
  RescheduleEvent,
  RescheduleTracker,
  TaskEvent,
  TaskEventType,
  TaskState,
  TaskStateName,
} from './allocation.js';
export type { TaskEventOf } from './allocation.js';
// Allocation request and response bodies
export {
  AllocRestartRequest,
  AllocSignalRequest,
  AllocStopResponse,
  EmptyResponse,
} from './alloc-requests.js';
// Storage volumes
export {
  CsiVolume,
  CsiVolumeAccessMode,
  CsiVolumeAttachmentMode,
  CsiVolumeInput,
  CsiVolumeListStub,
  CsiVolumeRegisterRequest,
  CsiVolumeWriteResponse,
} from './volume.js';
// Nodes
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
// Event stream
export { Event, EventEnvelope, EventTopic, EventType } from './event.js';
export { EventPayload, EventPayloadKey, NodeEventPayload } from './event-payloads.js';
export { isEventOf } from './typed-event.js';
export type {
  EventHeader,
  EventOf,
  EventPayloads,
  KnownEvent,
  TypedEvent,
  TypedEventTopic,
  UnknownTopicEvent,
} from './typed-event.js';
// List queries
export { FilterConflictMessage } from './list-query.js';
// Exec frames
export { ExecClientFrame, ExecServerFrame, ExecStreamFrame } from './exec.js';
// Secrets service: LDAP auth method
export {
  LdapAuth,
  LdapConfigResponse,
  LdapGroup,
  LdapGroupResponse,
  LdapGroupWriteRequest,
  LdapListResponse,
  LdapLoginRequest,
  LdapLoginResponse,
  LdapUser,
  LdapUserResponse,
  LdapUserWriteRequest,
  SecretsEnvelope,
} from './ldap.js';
export { LdapConfig, LdapConfigDefaults, LdapConfigRequest, LdapTokenType } from './ldap-config.js';
export type { SecretsEnvelopeSchema } from './ldap.js';
// Mesh service: cluster peering
export {
  Peering,
  PeeringEstablishRequest,
  PeeringEstablishResponse,
  PeeringGenerateTokenRequest,
  PeeringGenerateTokenResponse,
  PeeringState,
  PeeringStreamStatus,
} from './peering.js';
// Validation
export { assertValid, formatProblems, matches, pointerToDotted, validate } from './validate.js';
export type { AssertValidOptions, ValidateOptions, ValidationProblem, ValidationResult } from './validate.js';
// OpenAPI description of the three APIs
export { openApiDocument } from './openapi/document.js';
export type { OpenApiDocument } from './openapi/document.js';
// Canonicalization
export { JobDefaults, JobTypeDefaults, canonicalizeJob } from './canonicalize.js';
export type { CanonicalizeJobOptions, JobTypePolicyDefaults } from './canonicalize.js';
// Semantic job validation and cron specs
export { jobProblems } from './job-problems.js';
export {
  hasControlCharacter,
  NAMESPACE_NAME_PATTERN,
  namespaceNameProblem,
  pathEscapesTaskDir,
} from './names.js';
export { cronProblem, nextCronLaunch, parseCron } from './cron.js';
export type { CronSpec } from './cron.js';
// Values written as text, read as the services read them (Go's duration and bool, byte sizes)
export {
  formatGoDuration,
  MAX_TIMER_MS,
  parseGoDuration,
  parseSecondsOrDuration,
  timerLimitProblem,
} from './go-duration.js';
export type { DurationResult } from './go-duration.js';
export { parseGoBool } from './go-bool.js';
export { parseByteSize } from './byte-size.js';
export type { ByteSizeResult } from './byte-size.js';
// Deep equality of JSON values as the services read them
export { jsonEqual } from './json-equal.js';
// Records keyed by names from input (own keys only)
export { nullRecord, ownValue, setOwn } from './own.js';
// Helpers types used in the inferred schema types
export type { OptionalProperties } from './internal/schema.js';
// TypeBox types used in signatures
export type { Static, TSchema } from 'typebox';
