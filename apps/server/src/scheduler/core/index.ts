/**
 * The scheduler core of the sample server: state store, write operations, scheduler, simulated
 * nodes and clients, task drivers and the HCL2 job parser. See ./README.md.
 *
 * @packageDocumentation
 */

export type { Cluster, PlanResponse, RegisterResponse, VolumeRegistration } from './api.js';
export type { ClusterOptions, ClusterTiming } from './options.js';
export { createCluster } from './cluster.js';
export { ClusterError } from './errors.js';
export type { Clock, ManualClock, TimerHandle } from './clock.js';
export { manualClock, systemClock } from './clock.js';
export type {
  ChangeSet,
  ReadonlyStore,
  RestoredState,
  StateView,
  Store,
  StoreBackend,
  StoreOptions,
  Table,
  TableName,
  TableTypes,
  Txn,
} from './state/store.js';
export { DELETED, jobKey, versionKey } from './state/store.js';
export { TABLES } from './state/tables.js';
export type { GcOptions } from './gc/collector.js';
export { DEFAULT_GC } from './gc/collector.js';
export type { DriverTaskEvent, TaskDriver, TaskHandle, TaskSink, TaskStartSpec } from './drivers/driver.js';
export { normalizeSignal, SIGNAL_NUMBERS } from './drivers/driver.js';
export type { MockConfig } from './drivers/mock.js';
export { createMockDriver } from './drivers/mock.js';
export type { ParseJobInput, ParsedJobFile } from './hcl/parse-job.js';
export { parseJobHcl } from './hcl/parse-job.js';
export { checkConstraint, compareVersions, parseVersion, versionMatches } from './constraints.js';
export { canonicalize } from './defaults.js';
export { decodeDispatchPayload } from './internal/dispatch-payload.js';
export { durationNs } from './internal/duration.js';
export type * from './types.js';
export { defaultBaseEnv, findProgram, signalGroup } from './internal/process.js';
