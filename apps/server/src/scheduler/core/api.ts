import type { CsiVolumeInput, JobDiff, JobSubmissionInput, SchedulerJobInput } from '@sked/model';
import type { ParseJobInput, ParsedJobFile } from './hcl/parse-job.js';
import type { ReadonlyStore } from './state/store.js';
import type { AllocMetric, EventBatch, Evaluation, Job } from './types.js';

/** A volume of a register request: the model's `CsiVolumeInput`, as the route validated it. */
export type VolumeRegistration = CsiVolumeInput;

/** The response of register, update, revert, evaluate and stop. */
export interface RegisterResponse {
  EvalID: string;
  EvalCreateIndex: number;
  JobModifyIndex: number;
  Index: number;
}

/** The response of a plan (dry run). */
export interface PlanResponse {
  Index: number;
  JobModifyIndex: number;
  Diff: JobDiff | null;
  Annotations: { DesiredTGUpdates: Record<string, Record<string, number>>; PreemptedAllocs: null };
  FailedTGAllocs: Record<string, AllocMetric> | null;
  CreatedEvals: Evaluation[] | null;
  NextPeriodicLaunch: string | null;
  Warnings: string;
}

/** The simulated cluster: state store, write operations, scheduler and clients. */
export interface Cluster {
  /** The state store, read-only (writes go through the methods below). */
  readonly store: ReadonlyStore;
  /** Region served. */
  readonly region: string;
  /** Root of the task directories. */
  readonly dataRoot: string;
  /** The task directory of a task of an allocation. */
  taskDir(allocId: string, task: string): string;
  /**
   * The environment a task of an allocation runs with (`SKED_*` variables under the task's `Env`),
   * the same the task runner gives its driver: exec starts commands with it.
   * @returns `undefined` when the allocation or the task is unknown.
   */
  taskEnv(allocId: string, task: string): Record<string, string> | undefined;
  /**
   * Creates or updates a job (check-and-set with `enforceIndex`/`jobModifyIndex`, `preserveCounts`,
   * `evalPriority`, `submission` kept for the 6 latest versions) and creates a `job-register` evaluation.
   * @throws {@link ClusterError} 400 for an invalid job or a check-and-set conflict.
   */
  registerJob(input: {
    /** The job, validated by the route (the body's `Job`, with the namespace it is written to). */
    job: SchedulerJobInput;
    enforceIndex?: boolean;
    jobModifyIndex?: number;
    evalPriority?: number;
    policyOverride?: boolean;
    preserveCounts?: boolean;
    /** The job's source, validated by the route (the model's `JobSubmissionInput`). */
    submission?: JobSubmissionInput;
  }): RegisterResponse;
  /**
   * Stops a job (new version with `Stop: true`) or purges it, with a `job-deregister` evaluation.
   * `global` is ignored (single region).
   * @throws {@link ClusterError} 404 `job not found`.
   */
  deregisterJob(input: {
    namespace: string;
    id: string;
    purge?: boolean;
    global?: boolean;
    evalPriority?: number;
    noShutdownDelay?: boolean;
  }): RegisterResponse;
  /** Dry run of a registration: diff, annotations, placement failures; stores nothing. */
  planJob(input: { job: SchedulerJobInput; diff?: boolean; policyOverride?: boolean }): PlanResponse;
  /**
   * Dispatches a parameterized job (the payload's bytes, decoded from the request by
   * `decodeDispatchPayload`; meta checked; idempotency token).
   * @throws {@link ClusterError} 404 for an unknown job, 400 for every other mistake.
   */
  dispatchJob(input: {
    namespace: string;
    id: string;
    payload?: Uint8Array;
    meta?: Record<string, string>;
    idPrefixTemplate?: string;
    idempotencyToken?: string;
  }): {
    Index: number;
    JobCreateIndex: number;
    EvalCreateIndex: number;
    EvalID: string;
    DispatchedJobID: string;
  };
  /** Reverts to an older version (as a new version); `enforcePriorVersion` is a check-and-set on the current one. */
  revertJob(input: {
    namespace: string;
    id: string;
    version: number;
    enforcePriorVersion?: number;
    /** Checks the version reverted to before it is stored (throwing stores nothing). */
    admit?: (target: Job) => void;
  }): RegisterResponse;
  /** Marks a job version stable or not. */
  setJobStability(input: { namespace: string; id: string; version: number; stable: boolean }): {
    Index: number;
    JobModifyIndex: number;
  };
  /** Creates an evaluation for a job; `forceReschedule` reschedules failed allocations at once. */
  evaluateJob(input: { namespace: string; id: string; forceReschedule?: boolean }): RegisterResponse;
  /** Launches a periodic job's child now. */
  forcePeriodic(input: { namespace: string; id: string }): {
    EvalID: string;
    EvalCreateIndex: number;
    Index: number;
  };
  /** The job's versions, newest first, with the diff of each to the one before when `diffs`. */
  jobVersions(input: { namespace: string; id: string; diffs?: boolean }): {
    Versions: Job[];
    Diffs: JobDiff[] | null;
  };
  /** Stops an allocation; an `alloc-stop` evaluation places its replacement. */
  stopAlloc(input: { allocId: string; noShutdownDelay?: boolean }): { EvalID: string; Index: number };
  /** Sends a signal (default SIGKILL) to one running task or to all. */
  signalAlloc(input: { allocId: string; signal?: string; task?: string }): Record<string, never>;
  /** Restarts one running task, or all, in place. */
  restartAlloc(input: { allocId: string; task?: string; allTasks?: boolean }): Record<string, never>;
  /**
   * Registers CSI volumes (validated by the route; in the namespace each names, or `namespace`);
   * an existing ID is 400 `volume "<id>" already exists`, a missing `PluginID` 400.
   */
  registerVolume(input: { namespace: string; volumes: readonly VolumeRegistration[] }): {
    Index: number;
  };
  /** Deregisters a volume; in use is 400 (`force` drops claims of terminal allocations only). */
  deregisterVolume(input: { namespace: string; id: string; force?: boolean }): { Index: number };
  /** Drops a volume's claims on a node; in use is 400. */
  detachVolume(input: { namespace: string; id: string; node: string }): { Index: number };
  /** Stops (or purges) several jobs in one write (events `JobBatchDeregistered`). */
  batchDeregisterJobs(input: { jobs: readonly { namespace: string; id: string }[]; purge?: boolean }): {
    Index: number;
    JobEvals: Record<string, string>;
  };
  /**
   * Promotes the canaries of a running deployment (event `DeploymentPromotion`); the rollout goes on.
   * @throws {@link ClusterError} 404 `deployment not found`, 400 when it is not running or has no canaries.
   */
  promoteDeployment(input: { deploymentId: string }): { EvalID: string; Index: number };
  /** Removes a node: its allocations are lost and replaced elsewhere (event `NodeDeregistration`). */
  deregisterNode(input: { nodeId: string }): { Index: number };
  /** Marks a node eligible or ineligible for placements. */
  setNodeEligibility(input: { nodeId: string; eligible: boolean }): { Index: number };
  /** Drains a node (its allocations are stopped and replaced elsewhere) or ends the drain. */
  drainNode(input: { nodeId: string; enable: boolean }): { Index: number };
  /**
   * Parses HCL2 job text (async: the HCL parser is WebAssembly): a canonical Job with
   * `canonicalize`, else the file's fields as written.
   */
  parseJob(input: ParseJobInput): Promise<Job | ParsedJobFile>;
  /** Subscribes to event batches of every committed write. */
  onEvents(listener: (batch: EventBatch) => void): () => void;
  /**
   * Collects garbage now (`PUT /v1/system/gc`): with `force`, everything finished regardless of
   * age, as the service's forced collection; otherwise by the thresholds. Returns the counts.
   */
  collectGarbage(input?: { force?: boolean }): {
    Index: number;
    jobs: number;
    evals: number;
    allocs: number;
    deployments: number;
  };
  /** Whether no evaluation is waiting to be processed (for tests with the system clock). */
  idle(): boolean;
  /** Stops timers and drivers, removes the default data root. */
  close(): Promise<void>;
}
