/**
 * A typed client for the scheduling service's HTTP API: jobs, allocations and CSI volumes, with
 * pagination, blocking-query watches and filters as text or as built expressions.
 *
 * See the package README for a walk-through.
 *
 * @packageDocumentation
 */

// Client
export {
  createClient,
  createSchedulerClient,
  SCHEDULER_DEFAULT_ADDRESS,
  SCHEDULER_ENV_PREFIX,
} from './client.js';
export type { ClientDefaults, SchedulerClient, SchedulerClientOptions } from './client.js';

// Shared options and endpoint shapes
export type {
  FilterInput,
  ListOptions,
  ReadOptions,
  RequestOptions,
  Result,
  WatchOptions,
} from './options.js';
export type { ListEndpoint, ReadEndpoint } from './endpoints.js';

// Jobs: the endpoints' shape, and every option type of them (JobListOptions, JobRegisterOptions, ...)
export type { JobSubmissionEndpoint, JobsApi } from './jobs/api.js';
export type * from './jobs/options.js';

// Allocations
export type {
  AllocationListOptions,
  AllocationRestartOptions,
  AllocationSignalOptions,
  AllocationStopOptions,
  AllocationsApi,
} from './allocations.js';

// Volumes
export type { VolumeDeleteOptions, VolumeListOptions, VolumesApi } from './volumes.js';

// Event stream
export type { EventStreamOptions, EventStreamReconnect } from './events.js';
export { HeartbeatTimeoutError, streamEvents } from './events.js';
// The typed events it yields, their guard and topics, from @sked/model (payload schemas: there)
export { EventPayloadKey, EventTopic, EventType, isEventOf } from '@sked/model';
export type { Event, EventOf, KnownEvent, TypedEvent, TypedEventTopic, UnknownTopicEvent } from '@sked/model';

// Exec
export type { ExecOptions, ExecSession, TerminalSize } from './exec.js';
export { ExecError, execAllocation } from './exec.js';

// Errors
export { InvalidRequestError } from './errors.js';

// Input types of @sked/model, re-exported for convenience
export type { CsiVolumeInput, JobInput } from '@sked/model';

// Re-exported from @sked/http, so that one import is enough
export { ApiError, ConfigError, createTransport } from '@sked/http';
export type { QueryMeta, Transport, TransportOptions } from '@sked/http';
