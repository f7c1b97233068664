import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { newTaskEvent } from '@sked/model';

import { systemClock, type Clock, type TimerHandle } from './clock.js';
import { canonicalize, prepareJob } from './defaults.js';
import { diffJobs, specChanged, tasksUpdated, type JobDiff } from './diff.js';
import { normalizeSignal, type DriverTaskEvent, type TaskDriver, type TaskHandle } from './drivers/driver.js';
import { createMockDriver } from './drivers/mock.js';
import { createRawExecDriver } from './drivers/raw-exec.js';
import { badRequest, ClusterError, notFound } from './errors.js';
import { newEvaluation } from './evaluations.js';
import { parseJobHcl, type ParseJobInput } from './hcl.js';
import { nextLaunch, parseCron } from './internal/cron.js';
import { formatDuration } from './internal/duration.js';
import { iso, uuidFactory } from './internal/ids.js';
import { simulatedNode } from './nodes.js';
import {
  allocPorts,
  clientTerminal,
  exceededMessage,
  isLive,
  schedule,
  type SchedulePlan,
} from './scheduler.js';
import { createStore, jobKey, versionKey, type Store, type Txn } from './store.js';
import type {
  Allocation,
  AllocMetric,
  ClusterEvent,
  CsiVolume,
  Deployment,
  EventBatch,
  Evaluation,
  Job,
  JobSubmission,
  JobSummary,
  Node,
  Task,
  TaskEvent,
  TaskState,
} from './types.js';

/** Options of {@link createCluster}. */
export interface ClusterOptions {
  /** Region of the cluster. @defaultValue 'global' */
  readonly region?: string;
  /** Datacenter of the simulated nodes. @defaultValue 'dc1' */
  readonly datacenter?: string;
  /** Number of simulated client nodes. @defaultValue 3 */
  readonly nodes?: number;
  /** Enables the raw_exec driver (`true`: ./drivers/raw-exec.ts), or pass a driver. @defaultValue false */
  readonly rawExec?: boolean | TaskDriver;
  /** Extra task drivers (tests). */
  readonly drivers?: readonly TaskDriver[];
  /** Current time in ms (overrides the clock's). */
  readonly now?: () => number;
  /** Timers and time. @defaultValue the system clock */
  readonly clock?: Clock;
  /** Random source in [0, 1) for IDs. @defaultValue Math.random */
  readonly random?: () => number;
  /** Where task directories live (`<dataRoot>/allocs/<allocId>/<task>`). @defaultValue a fresh temp dir, removed on close */
  readonly dataRoot?: string;
  /** Delays of the simulation, in ms. */
  readonly timing?: Partial<ClusterTiming>;
  /**
   * Receives the event batch of every committed write from the very first one (the simulated
   * nodes' NodeRegistration, written while the cluster is created), which a listener added later
   * with `onEvents` would miss. @defaultValue none
   */
  readonly onEvents?: (batch: EventBatch) => void;
}

/** Delays of the simulation (ms). */
export interface ClusterTiming {
  /** From a write to the processing of its evaluation. @defaultValue 5 */
  readonly evalDelayMs: number;
  /** From placement to the client receiving the allocation and setting up its tasks. @defaultValue 20 */
  readonly clientDelayMs: number;
  /** From an allocation finishing to the release of its volume claims. @defaultValue 1000 */
  readonly claimReleaseMs: number;
}

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
  /** The state store (read access for routes). */
  readonly store: Store;
  /** Region served. */
  readonly region: string;
  /** Root of the task directories. */
  readonly dataRoot: string;
  /** The task directory of a task of an allocation. */
  taskDir(allocId: string, task: string): string;
  /**
   * Creates or updates a job (check-and-set with `enforceIndex`/`jobModifyIndex`, `preserveCounts`,
   * `evalPriority`, `submission` kept for the 6 latest versions) and creates a `job-register` evaluation.
   * @throws {@link ClusterError} 400 for an invalid job or a check-and-set conflict.
   */
  registerJob(input: {
    job: Record<string, unknown>;
    enforceIndex?: boolean;
    jobModifyIndex?: number;
    evalPriority?: number;
    policyOverride?: boolean;
    preserveCounts?: boolean;
    submission?: unknown;
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
  planJob(input: { job: Record<string, unknown>; diff?: boolean; policyOverride?: boolean }): PlanResponse;
  /**
   * Dispatches a parameterized job (payload base64 of at most 16384 bytes, meta checked, idempotency token).
   * @throws {@link ClusterError} 404 for an unknown job, 400 for every other mistake.
   */
  dispatchJob(input: {
    namespace: string;
    id: string;
    payload?: string;
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
  /** Registers CSI volumes; an existing ID is 400 `volume "<id>" already exists`. */
  registerVolume(input: { namespace: string; pathId?: string; volumes: readonly unknown[] }): {
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
  /** Parses HCL2 job text into a Job (async: the HCL parser is WebAssembly). */
  parseJob(input: ParseJobInput): Promise<Job>;
  /** Subscribes to event batches of every committed write. */
  onEvents(listener: (batch: EventBatch) => void): () => void;
  /** Whether no evaluation is waiting to be processed (for tests with the system clock). */
  idle(): boolean;
  /** Stops timers and drivers, removes the default data root. */
  close(): Promise<void>;
}

const ROLLBACK = Symbol('rollback');

interface TaskRun {
  readonly task: Task;
  handle: TaskHandle | undefined;
  restarts: number[];
  timer: TimerHandle | undefined;
  dead: boolean;
  killing: boolean;
  userRestart: boolean;
}

interface AllocRun {
  readonly id: string;
  phase: 'prestart' | 'main' | 'poststop';
  readonly tasks: Map<string, TaskRun>;
  stopping: boolean;
  closed: boolean;
  timers: Set<TimerHandle>;
  healthTimer: TimerHandle | undefined;
  deadlineTimer: TimerHandle | undefined;
}

function stripJob(a: Allocation): Record<string, unknown> {
  const { Job: _job, ...rest } = a;
  return rest;
}

function te(type: string, nowMs: number, fields: Partial<TaskEvent> = {}): TaskEvent {
  return {
    ...newTaskEvent(type, Math.round(nowMs * 1e6)),
    DisplayMessage: fields.DisplayMessage ?? fields.Message ?? '',
    Details: fields.Details ?? {},
    GenericSource: '',
    ...fields,
  };
}

/**
 * Creates a simulated cluster: simulated nodes (registered at once), an empty store, the scheduler
 * and the client simulation with the `mock` driver (and `raw_exec` when enabled).
 * @param options - See {@link ClusterOptions}.
 * @returns the cluster.
 */
export function createCluster(options: ClusterOptions = {}): Cluster {
  const region = options.region ?? 'global';
  const baseClock = options.clock ?? systemClock();
  const clock: Clock = options.now
    ? { now: options.now, setTimeout: (fn, ms) => baseClock.setTimeout(fn, ms) }
    : baseClock;
  const random = options.random ?? Math.random;
  const newId = uuidFactory(random);
  const timing: ClusterTiming = {
    evalDelayMs: 5,
    clientDelayMs: 20,
    claimReleaseMs: 1000,
    ...options.timing,
  };
  const ownRoot = options.dataRoot === undefined;
  const dataRoot = options.dataRoot ?? mkdtempSync(join(tmpdir(), 'sked-cluster-'));
  const store = createStore();
  if (options.onEvents !== undefined) store.onEvents(options.onEvents);
  const drivers = new Map<string, TaskDriver>();
  drivers.set('mock', createMockDriver(clock));
  if (typeof options.rawExec === 'object') drivers.set('raw_exec', options.rawExec);
  else if (options.rawExec === true) drivers.set('raw_exec', createRawExecDriver());
  for (const d of options.drivers ?? []) drivers.set(d.name, d);
  const driverNames = [...new Set(['mock', ...(options.rawExec ? ['raw_exec'] : []), ...drivers.keys()])];
  const runs = new Map<string, AllocRun>();
  const timers = new Set<TimerHandle>();
  const evalTimers = new Map<string, TimerHandle>();
  const deploymentTimers = new Map<string, TimerHandle>();
  const periodicTimers = new Map<string, TimerHandle>();
  const noShutdownDelay = new Set<string>();
  /** Allocations the clients have not finished, and blocked evaluations (caches kept after each commit). */
  const activeAllocs = new Set<string>();
  const blockedEvals = new Set<string>();
  const forceReschedule = new Set<string>();
  let closed = false;
  const nowMs = (): number => clock.now();
  const nowNs = (): number => Math.round(clock.now() * 1e6);

  const later = (fn: () => void, ms: number): TimerHandle => {
    const t = clock.setTimeout(() => {
      timers.delete(t);
      if (!closed) fn();
    }, ms);
    timers.add(t);
    return t;
  };

  // ---- events ---------------------------------------------------------------------------------

  const allocEvent = (tx: Txn, type: string, a: Allocation): void =>
    tx.emit({
      Topic: 'Allocation',
      Type: type,
      Key: a.ID,
      Namespace: a.Namespace,
      FilterKeys: [a.JobID, a.EvalID, ...(a.DeploymentID ? [a.DeploymentID] : [])],
      Payload: { Allocation: stripJob(a) },
    });
  /** Stores an evaluation and emits its EvaluationUpdated event. */
  const putEval = (tx: Txn, e: Evaluation): void => {
    tx.put('evals', e);
    tx.emit({
      Topic: 'Evaluation',
      Type: 'EvaluationUpdated',
      Key: e.ID,
      Namespace: e.Namespace,
      FilterKeys: [e.JobID, ...(e.DeploymentID ? [e.DeploymentID] : [])],
      Payload: { Evaluation: e },
    });
    tx.after(() => {
      if (e.Status === 'blocked') blockedEvals.add(e.ID);
      else blockedEvals.delete(e.ID);
    });
  };
  const jobEvent = (tx: Txn, type: string, j: Job): void =>
    tx.emit({
      Topic: 'Job',
      Type: type,
      Key: j.ID,
      Namespace: j.Namespace,
      FilterKeys: null,
      Payload: { Job: j },
    });
  const deploymentEvent = (tx: Txn, type: string, d: Deployment): void =>
    tx.emit({
      Topic: 'Deployment',
      Type: type,
      Key: d.ID,
      Namespace: d.Namespace,
      FilterKeys: [d.JobID],
      Payload: { Deployment: d },
    });
  /** Stores a deployment and emits a deployment event of `type`. */
  const putDeployment = (tx: Txn, type: string, d: Deployment): void => {
    tx.put('deployments', d);
    deploymentEvent(tx, type, d);
  };
  const nodeEvent = (tx: Txn, type: string, n: Node, topic = 'Node'): void =>
    tx.emit({ Topic: topic, Type: type, Key: n.ID, Namespace: '', FilterKeys: null, Payload: { Node: n } });

  // ---- evaluations ----------------------------------------------------------------------------

  /** The fields every new evaluation of a job takes from the job and the write. */
  const evalIdentity = (
    job: { Namespace: string; ID: string; Type: string; Priority: number; JobModifyIndex: number },
    index: number,
  ): Pick<
    Evaluation,
    'ID' | 'Namespace' | 'Priority' | 'Type' | 'JobID' | 'JobModifyIndex' | 'CreateIndex' | 'CreateTime'
  > => ({
    ID: newId(),
    Namespace: job.Namespace,
    Priority: job.Priority,
    Type: job.Type,
    JobID: job.ID,
    JobModifyIndex: job.JobModifyIndex,
    CreateIndex: index,
    CreateTime: nowNs(),
  });

  const makeEval = (
    tx: Txn,
    job: { Namespace: string; ID: string; Type: string; Priority: number; JobModifyIndex: number },
    triggeredBy: string,
    priority = 0,
    extra: Partial<Evaluation> = {},
  ): Evaluation => {
    const e = newEvaluation({
      ...evalIdentity(job, tx.index),
      Priority: priority > 0 ? priority : job.Priority,
      TriggeredBy: triggeredBy,
      ...extra,
    });
    putEval(tx, e);
    const at = e.WaitUntil ? Date.parse(e.WaitUntil) - nowMs() : timing.evalDelayMs;
    if (e.Status === 'pending') tx.after(() => enqueue(e.ID, Math.max(timing.evalDelayMs, at)));
    return e;
  };

  const enqueue = (id: string, delay: number): void => {
    if (closed || evalTimers.has(id)) return;
    const t = later(() => {
      evalTimers.delete(id);
      processEval(id);
    }, delay);
    evalTimers.set(id, t);
  };

  let unblockQueued = false;
  const unblock = (): void => {
    if (unblockQueued) return;
    unblockQueued = true;
    later(() => {
      unblockQueued = false;
      for (const id of blockedEvals) enqueue(id, 0);
    }, timing.evalDelayMs);
  };

  const processEval = (id: string): void => {
    try {
      store.write((tx) => {
        const ev = tx.get('evals', id);
        if (!ev || (ev.Status !== 'pending' && ev.Status !== 'blocked')) return;
        const job = tx.get('jobs', jobKey(ev.Namespace, ev.JobID));
        const plan = schedule(
          {
            tx,
            now: nowMs(),
            newId,
            forceReschedule: forceReschedule.has(ev.ID),
            noShutdownDelay: noShutdownDelay.has(ev.ID),
            activeAllocIds: activeAllocs,
          },
          job,
          ev,
        );
        applyPlan(tx, job, ev, plan);
      });
    } catch (error) {
      // A scheduler fault must not take the server down: record it on the evaluation.
      store.write((tx) => {
        const ev = tx.get('evals', id);
        if (!ev) return;
        putEval(tx, {
          ...ev,
          Status: 'failed',
          StatusDescription: `scheduler error: ${String(error)}`,
          ModifyIndex: tx.index,
        });
      });
    } finally {
      forceReschedule.delete(id);
      noShutdownDelay.delete(id);
    }
  };

  const applyPlan = (tx: Txn, job: Job | undefined, ev: Evaluation, plan: SchedulePlan): void => {
    const skipDelay = noShutdownDelay.has(ev.ID);
    for (const { alloc, description } of plan.stop) {
      const a: Allocation = {
        ...alloc,
        DesiredStatus: 'stop',
        DesiredDescription: description,
        ModifyIndex: tx.index,
        AllocModifyIndex: tx.index,
        ModifyTime: nowNs(),
      };
      tx.put('allocs', a);
      allocEvent(tx, 'AllocationUpdateDesiredStatus', a);
      tx.after(() => stopRun(a.ID, skipDelay));
    }
    for (const alloc of plan.place) {
      tx.put('allocs', alloc);
      allocEvent(tx, 'AllocationCreated', alloc);
      tx.after(() => {
        activeAllocs.add(alloc.ID);
        startRun(alloc.ID);
      });
    }
    for (const alloc of plan.inPlace) {
      const a = { ...alloc, ModifyIndex: tx.index, AllocModifyIndex: tx.index, ModifyTime: nowNs() };
      tx.put('allocs', a);
      allocEvent(tx, 'AllocationUpdated', a);
    }
    for (const [oldId, newAllocId] of plan.replaced) {
      const old = tx.get('allocs', oldId);
      if (old) tx.put('allocs', { ...old, NextAllocation: newAllocId, ModifyIndex: tx.index });
    }
    for (const { alloc, at } of plan.followups) {
      if (!job) continue;
      const f = makeEval(tx, job, 'alloc-failure', ev.Priority, {
        Status: 'pending',
        StatusDescription: 'created for delayed rescheduling',
        WaitUntil: iso(at),
        Wait: Math.round((at - nowMs()) * 1e6),
        PreviousEval: ev.ID,
      });
      const cur = tx.get('allocs', alloc.ID) ?? alloc;
      tx.put('allocs', { ...cur, FollowupEvalID: f.ID, ModifyIndex: tx.index });
    }
    for (const d of plan.cancelled) {
      const c = { ...d, ModifyIndex: tx.index, ModifyTime: nowNs() };
      putDeployment(tx, 'DeploymentStatusUpdate', c);
    }
    if (plan.deployment) {
      const d = { ...plan.deployment, ModifyIndex: tx.index, ModifyTime: nowNs() };
      putDeployment(tx, 'PlanResult', d);
      if (d.Status === 'running') completeIfHealthy(tx, d);
      tx.after(() => armProgressDeadline(d.ID));
    }
    for (const v of plan.claims) {
      const cur = tx.get('volumes', jobKey(v.Namespace, v.ID));
      if (cur && JSON.stringify(cur.Claims) !== JSON.stringify(v.Claims))
        tx.put('volumes', { ...cur, Claims: v.Claims, ModifyIndex: tx.index });
    }
    if (plan.stop.length > 0) tx.after(unblock);

    const queued: Record<string, number> = {};
    for (const g of job?.TaskGroups ?? []) queued[g.Name] = plan.queued[g.Name] ?? 0;
    const failed = Object.keys(plan.failed).length > 0 ? plan.failed : null;
    const updated: Evaluation = {
      ...ev,
      Status: failed && ev.Status === 'blocked' ? 'blocked' : 'complete',
      StatusDescription: failed && ev.Status === 'blocked' ? ev.StatusDescription : '',
      QueuedAllocations: queued,
      FailedTGAllocs: failed,
      DeploymentID: plan.deployment?.ID ?? ev.DeploymentID,
      SnapshotIndex: tx.index - 1,
      ModifyIndex: tx.index,
      ModifyTime: nowNs(),
    };
    const others = tx
      .ofJob('evals', ev.Namespace, ev.JobID)
      .filter((e) => e.Status === 'blocked' && e.ID !== ev.ID);
    if (failed && ev.Status !== 'blocked' && job) {
      const existing = others[0];
      if (existing) {
        const b = { ...existing, FailedTGAllocs: failed, QueuedAllocations: queued, ModifyIndex: tx.index };
        putEval(tx, b);
        updated.BlockedEval = existing.ID;
      } else {
        const b = makeEval(tx, job, ev.TriggeredBy, ev.Priority, {
          Status: 'blocked',
          StatusDescription: 'created to place remaining allocations',
          PreviousEval: ev.ID,
          FailedTGAllocs: failed,
          QueuedAllocations: queued,
          ClassEligibility: {},
        });
        updated.BlockedEval = b.ID;
      }
    } else if (!failed) {
      for (const o of others) {
        putEval(tx, {
          ...o,
          Status: 'cancelled',
          StatusDescription: 'canceled after more recent eval was processed',
          ModifyIndex: tx.index,
        });
      }
    }
    putEval(tx, updated);
    refreshJob(tx, ev.Namespace, ev.JobID);
  };

  // ---- job status and summary -----------------------------------------------------------------

  const refreshJob = (tx: Txn, namespace: string, id: string): void => {
    const job = tx.get('jobs', jobKey(namespace, id));
    if (!job) return;
    const allocs = tx
      .ofJob('allocs', namespace, id)
      .filter((a) => a.Job === null || a.Job.CreateIndex === job.CreateIndex);
    const evals = tx.ofJob('evals', namespace, id).filter((e) => e.CreateIndex >= job.CreateIndex);
    let status: string;
    const parent = (job.Periodic !== null || job.ParameterizedJob !== null) && !job.Dispatched;
    if (parent) status = job.Stop ? 'dead' : 'running';
    else if (allocs.some((a) => !clientTerminal(a))) status = 'running';
    else if (evals.some((e) => e.Status === 'pending' || e.Status === 'blocked') && !job.Stop)
      status = 'pending';
    else if (job.Stop || allocs.length > 0) status = 'dead';
    else status = 'pending';
    if (status !== job.Status) {
      const j = { ...job, Status: status, ModifyIndex: tx.index };
      tx.put('jobs', j);
      const v = tx.get('jobVersions', versionKey(namespace, id, job.Version));
      if (v) tx.put('jobVersions', { ...v, Status: status });
      jobEvent(tx, 'JobRegistered', j);
    }
    const summary: JobSummary = {
      JobID: id,
      Namespace: namespace,
      Summary: {},
      Children: { Pending: 0, Running: 0, Dead: 0 },
      CreateIndex: job.CreateIndex,
      ModifyIndex: tx.index,
    };
    const noAllocs = (): (typeof summary.Summary)[string] => ({
      Queued: 0,
      Complete: 0,
      Failed: 0,
      Running: 0,
      Starting: 0,
      Lost: 0,
      Unknown: 0,
    });
    for (const g of job.TaskGroups) summary.Summary[g.Name] = noAllocs();
    for (const a of allocs) {
      const s = (summary.Summary[a.TaskGroup] ??= noAllocs());
      if (a.ClientStatus === 'pending') s.Starting++;
      else if (a.ClientStatus === 'running') s.Running++;
      else if (a.ClientStatus === 'complete') s.Complete++;
      else if (a.ClientStatus === 'failed') s.Failed++;
      else if (a.ClientStatus === 'lost') s.Lost++;
      else s.Unknown++;
    }
    const latest = evals.filter((e) => e.Status === 'complete' || e.Status === 'blocked').at(-1);
    const blocked = evals.find((e) => e.Status === 'blocked');
    for (const [g, n] of Object.entries((blocked ?? latest)?.QueuedAllocations ?? {})) {
      const s = summary.Summary[g];
      if (s && !job.Stop) s.Queued = n;
    }
    if (parent) {
      for (const child of tx.all('jobs')) {
        if (child.ParentID !== id || child.Namespace !== namespace) continue;
        if (child.Status === 'dead') summary.Children.Dead++;
        else if (child.Status === 'running') summary.Children.Running++;
        else summary.Children.Pending++;
      }
    }
    const prev = tx.get('summaries', jobKey(namespace, id));
    const same =
      prev && JSON.stringify({ ...prev, ModifyIndex: 0 }) === JSON.stringify({ ...summary, ModifyIndex: 0 });
    if (!same) tx.put('summaries', summary);
    if (job.ParentID !== '' && (!same || status !== job.Status)) refreshJob(tx, namespace, job.ParentID);
  };

  // ---- job writes -----------------------------------------------------------------------------

  /** Stores the submitted source of a job version, keeping the 6 latest. */
  const putSubmission = (tx: Txn, job: Job, submission: object): void => {
    const s = submission as Record<string, unknown>;
    const sub: JobSubmission = {
      Format: typeof s['Format'] === 'string' && s['Format'] !== '' ? s['Format'] : 'hcl2',
      JobIndex: tx.index,
      JobID: job.ID,
      Namespace: job.Namespace,
      Source: typeof s['Source'] === 'string' ? s['Source'] : '',
      VariableFlags: (s['VariableFlags'] as Record<string, string> | null | undefined) ?? null,
      Variables: typeof s['Variables'] === 'string' ? s['Variables'] : '',
      Version: job.Version,
    };
    tx.put('submissions', sub);
    const subs = tx.ofJob('submissions', job.Namespace, job.ID);
    for (const old of subs.slice(0, Math.max(0, subs.length - 6)))
      tx.delete('submissions', versionKey(old.Namespace, old.JobID, old.Version));
  };

  /** Stores a new version of a job (or keeps the current one when the spec is unchanged). */
  const upsertJob = (
    tx: Txn,
    job: Job,
    existing: Job | undefined,
    submission?: unknown,
    emit = true,
  ): Job => {
    if (existing && !specChanged(existing, job) && existing.Stop === job.Stop) {
      // the same job again: no new version, but a submission given with it is kept for that version
      if (submission && typeof submission === 'object') putSubmission(tx, existing, submission);
      return existing;
    }
    const stored: Job = {
      ...job,
      Version: existing ? existing.Version + 1 : 0,
      CreateIndex: existing ? existing.CreateIndex : tx.index,
      ModifyIndex: tx.index,
      JobModifyIndex: tx.index,
      SubmitTime: nowNs(),
      Status: existing?.Status ?? 'pending',
      StatusDescription: '',
      Stable: false,
    };
    tx.put('jobs', stored);
    tx.put('jobVersions', stored);
    const versions = tx.ofJob('jobVersions', job.Namespace, job.ID);
    for (const old of versions.slice(0, Math.max(0, versions.length - 6)))
      tx.delete('jobVersions', versionKey(old.Namespace, old.ID, old.Version));
    if (submission && typeof submission === 'object') putSubmission(tx, stored, submission);
    if (emit) jobEvent(tx, 'JobRegistered', stored);
    return stored;
  };

  const isParent = (j: Job): boolean => (j.Periodic !== null || j.ParameterizedJob !== null) && !j.Dispatched;

  const mustJob = (tx: Txn, namespace: string, id: string): Job => {
    const job = tx.get('jobs', jobKey(namespace, id));
    if (!job) throw notFound('job not found');
    return job;
  };

  const registerJob: Cluster['registerJob'] = (input) => {
    const job = prepareJob(input.job, { region });
    if (job.Region !== region) throw badRequest(`No path to region "${job.Region}"`);
    return store.write((tx) => {
      const existing = tx.get('jobs', jobKey(job.Namespace, job.ID));
      if (input.enforceIndex) {
        const want = input.jobModifyIndex ?? 0;
        if (want === 0 && existing)
          throw badRequest(
            `Enforcing job modify index 0: job already exists with job modify index ${existing.JobModifyIndex}`,
          );
        if (want !== 0 && !existing)
          throw badRequest(`Enforcing job modify index ${want}: job does not exist`);
        if (existing && existing.JobModifyIndex !== want)
          throw badRequest(
            `Enforcing job modify index ${want}: job exists with conflicting job modify index: ${existing.JobModifyIndex}`,
          );
      }
      if (input.preserveCounts && existing) {
        job.TaskGroups = job.TaskGroups.map((g) => {
          const old = existing.TaskGroups.find((x) => x.Name === g.Name);
          return old ? { ...g, Count: old.Count } : g;
        });
      }
      const stored = upsertJob(tx, job, existing, input.submission);
      let evalId = '';
      let evalIndex = 0;
      if (!isParent(stored)) {
        const e = makeEval(tx, stored, 'job-register', input.evalPriority ?? 0);
        evalId = e.ID;
        evalIndex = tx.index;
      }
      refreshJob(tx, stored.Namespace, stored.ID);
      if (stored.Periodic) tx.after(() => armPeriodic(stored.Namespace, stored.ID));
      return {
        EvalID: evalId,
        EvalCreateIndex: evalIndex,
        JobModifyIndex: stored.JobModifyIndex,
        Index: tx.index,
      };
    });
  };

  /** Stops (or purges) one job inside a write; returns its deregister evaluation. */
  const deregisterIn = (
    tx: Txn,
    input: {
      namespace: string;
      id: string;
      purge?: boolean;
      evalPriority?: number;
      noShutdownDelay?: boolean;
    },
    eventType: 'JobDeregistered' | 'JobBatchDeregistered',
  ): RegisterResponse => {
    const job = mustJob(tx, input.namespace, input.id);
    let jmi = tx.index;
    if (input.purge) {
      tx.delete('jobs', jobKey(job.Namespace, job.ID));
      tx.delete('summaries', jobKey(job.Namespace, job.ID));
      for (const v of tx.ofJob('jobVersions', job.Namespace, job.ID))
        tx.delete('jobVersions', versionKey(v.Namespace, v.ID, v.Version));
      for (const s of tx.ofJob('submissions', job.Namespace, job.ID))
        tx.delete('submissions', versionKey(s.Namespace, s.JobID, s.Version));
      jobEvent(tx, eventType, job);
    } else {
      const stopped = job.Stop ? job : upsertJob(tx, { ...job, Stop: true }, job, undefined, false);
      jmi = stopped.JobModifyIndex;
      jobEvent(tx, eventType, stopped);
    }
    const e = makeEval(tx, job, 'job-deregister', input.evalPriority ?? 0, { JobModifyIndex: jmi });
    if (input.noShutdownDelay) noShutdownDelay.add(e.ID);
    if (!input.purge) refreshJob(tx, job.Namespace, job.ID);
    if (job.ParentID) refreshJob(tx, job.Namespace, job.ParentID);
    if (job.Periodic) tx.after(() => armPeriodic(job.Namespace, job.ID));
    return { EvalID: e.ID, EvalCreateIndex: tx.index, JobModifyIndex: jmi, Index: tx.index };
  };

  const deregisterJob: Cluster['deregisterJob'] = (input) =>
    store.write((tx) => deregisterIn(tx, input, 'JobDeregistered'));

  const batchDeregisterJobs: Cluster['batchDeregisterJobs'] = (input) =>
    store.write((tx) => {
      if (input.jobs.length === 0) throw badRequest('No jobs to deregister');
      const evals: Record<string, string> = {};
      for (const j of input.jobs) {
        const r = deregisterIn(tx, { ...j, purge: input.purge ?? false }, 'JobBatchDeregistered');
        evals[`${j.namespace}.${j.id}`] = r.EvalID;
      }
      return { Index: tx.index, JobEvals: evals };
    });

  const planJob: Cluster['planJob'] = (input) => {
    const job = prepareJob(input.job, { region });
    if (job.Region !== region) throw badRequest(`No path to region "${job.Region}"`);
    let result: PlanResponse | undefined;
    try {
      store.write((tx) => {
        const existing = tx.get('jobs', jobKey(job.Namespace, job.ID));
        const stored = upsertJob(tx, job, existing);
        const ev: Evaluation = {
          ...makeEvalShape(stored, tx.index),
          AnnotatePlan: true,
        };
        const plan = schedule(
          { tx, now: nowMs(), newId, forceReschedule: false },
          isParent(stored) ? undefined : stored,
          ev,
        );
        const desired: Record<string, Record<string, number>> = {};
        for (const [g, d] of Object.entries(plan.desired)) desired[g] = { ...d };
        let diff: JobDiff | null = null;
        if (input.diff) {
          diff = diffJobs(existing, stored);
          for (const g of diff.TaskGroups ?? []) {
            const d = plan.desired[g.Name];
            if (d) {
              const u: Record<string, number> = {};
              if (d.Place) u['create'] = d.Place;
              if (d.Stop) u['destroy'] = d.Stop;
              if (d.Migrate) u['migrate'] = d.Migrate;
              if (d.InPlaceUpdate) u['in-place update'] = d.InPlaceUpdate;
              if (d.DestructiveUpdate) u['create/destroy update'] = d.DestructiveUpdate;
              if (d.Canary) u['canary'] = d.Canary;
              if (d.Ignore) u['ignore'] = d.Ignore;
              g.Updates = Object.keys(u).length ? u : null;
            }
            const oldGroup = existing?.TaskGroups.find((x) => x.Name === g.Name);
            const newGroup = stored.TaskGroups.find((x) => x.Name === g.Name);
            if (oldGroup && newGroup) {
              const destructive = tasksUpdated(oldGroup, newGroup);
              for (const t of g.Tasks ?? [])
                if (t.Type === 'Edited')
                  t.Annotations = [destructive ? 'forces create/destroy update' : 'forces in-place update'];
            }
          }
        }
        const failed = Object.keys(plan.failed).length > 0 ? plan.failed : null;
        result = {
          Index: existing?.JobModifyIndex ?? 0,
          JobModifyIndex: existing?.JobModifyIndex ?? 0,
          Diff: diff,
          Annotations: { DesiredTGUpdates: desired, PreemptedAllocs: null },
          FailedTGAllocs: failed,
          CreatedEvals: failed
            ? [
                {
                  ...makeEvalShape(stored, 0),
                  ID: newId(),
                  Status: 'blocked',
                  StatusDescription: 'created to place remaining allocations',
                  PreviousEval: ev.ID,
                  FailedTGAllocs: failed,
                },
              ]
            : null,
          NextPeriodicLaunch: (() => {
            const at = nextLaunchOf(stored);
            return at === undefined ? null : iso(at);
          })(),
          Warnings: '',
        };
        throw ROLLBACK;
      });
    } catch (error) {
      if (error !== ROLLBACK) throw error;
    }
    return result as PlanResponse;
  };

  const makeEvalShape = (job: Job, index: number): Evaluation =>
    newEvaluation({ ...evalIdentity(job, index), TriggeredBy: 'job-register' });

  const dispatchJob: Cluster['dispatchJob'] = (input) =>
    store.write((tx) => {
      const parent = mustJob(tx, input.namespace, input.id);
      const pj = parent.ParameterizedJob;
      if (!pj || parent.Dispatched)
        throw badRequest(`Specified job "${parent.ID}" is not a parameterized job`);
      if (parent.Stop) throw badRequest(`Specified job "${parent.ID}" is stopped`);
      const payloadText = input.payload ?? '';
      if (payloadText !== '' && !/^[A-Za-z0-9+/]*={0,2}$/.test(payloadText.replace(/\s/g, '')))
        throw badRequest('Payload must be base64-encoded');
      const payload = Buffer.from(payloadText, 'base64');
      if (payload.length > 16384) throw badRequest(`Payload exceeds maximum size; ${payload.length} > 16384`);
      if (pj.Payload === 'forbidden' && payload.length > 0)
        throw badRequest('Payload is not allowed for this job');
      if (pj.Payload === 'required' && payload.length === 0)
        throw badRequest('Payload is not provided but required');
      const meta = input.meta ?? {};
      const required = pj.MetaRequired ?? [];
      const optional = pj.MetaOptional ?? [];
      const missing = required.filter((k) => !(k in meta));
      if (missing.length > 0)
        throw badRequest(`Dispatch did not provide required meta keys: [${missing.join(' ')}]`);
      const extra = Object.keys(meta).filter((k) => !required.includes(k) && !optional.includes(k));
      if (extra.length > 0)
        throw badRequest(`Dispatch provided unpermitted meta keys: [${extra.sort().join(' ')}]`);
      const token = input.idempotencyToken ?? '';
      if (token !== '') {
        const prior = tx
          .all('jobs')
          .find(
            (j) =>
              j.ParentID === parent.ID &&
              j.Namespace === parent.Namespace &&
              j.DispatchIdempotencyToken === token &&
              j.Status !== 'dead',
          );
        if (prior)
          return {
            Index: prior.ModifyIndex,
            JobCreateIndex: prior.CreateIndex,
            EvalCreateIndex: 0,
            EvalID: '',
            DispatchedJobID: prior.ID,
          };
      }
      const suffix = newId().slice(0, 8);
      const sec = Math.floor(nowMs() / 1000);
      const prefix = input.idPrefixTemplate ? `${input.idPrefixTemplate}-` : '';
      const childId = `${parent.ID}/dispatch-${prefix}${sec}-${suffix}`;
      const child = canonicalize(
        {
          ...parent,
          ID: childId,
          Name: childId,
          ParentID: parent.ID,
          Dispatched: true,
          DispatchIdempotencyToken: token,
          ParameterizedJob: null,
          Payload: payload.length > 0 ? payload.toString('base64') : null,
          Meta: { ...parent.Meta, ...meta },
          Status: 'pending',
        },
        { region },
      );
      child.ParameterizedJob = pj;
      const stored = upsertJob(tx, child, undefined);
      const e = makeEval(tx, stored, 'job-register');
      refreshJob(tx, stored.Namespace, stored.ID);
      refreshJob(tx, parent.Namespace, parent.ID);
      return {
        Index: tx.index,
        JobCreateIndex: stored.CreateIndex,
        EvalCreateIndex: tx.index,
        EvalID: e.ID,
        DispatchedJobID: childId,
      };
    });

  const revertJob: Cluster['revertJob'] = (input) =>
    store.write((tx) => {
      const job = mustJob(tx, input.namespace, input.id);
      if (input.enforcePriorVersion !== undefined && input.enforcePriorVersion !== job.Version)
        throw badRequest(
          `Current job has version ${job.Version}; enforcing version ${input.enforcePriorVersion}`,
        );
      if (input.version === job.Version) throw badRequest(`can't revert to current version ${job.Version}`);
      const target = tx.get('jobVersions', versionKey(input.namespace, input.id, input.version));
      if (!target)
        throw badRequest(
          `job "${input.id}" in namespace "${input.namespace}" at version ${input.version} not found`,
        );
      const stored = upsertJob(tx, { ...target, Status: job.Status }, job);
      const e = isParent(stored) ? undefined : makeEval(tx, stored, 'job-register');
      refreshJob(tx, stored.Namespace, stored.ID);
      if (stored.Periodic) tx.after(() => armPeriodic(stored.Namespace, stored.ID));
      return {
        EvalID: e?.ID ?? '',
        EvalCreateIndex: e ? tx.index : 0,
        JobModifyIndex: stored.JobModifyIndex,
        Index: tx.index,
      };
    });

  const setJobStability: Cluster['setJobStability'] = (input) =>
    store.write((tx) => {
      const job = mustJob(tx, input.namespace, input.id);
      const v = tx.get('jobVersions', versionKey(input.namespace, input.id, input.version));
      if (!v)
        throw badRequest(
          `job "${input.id}" in namespace "${input.namespace}" at version ${input.version} not found`,
        );
      // already so: nothing is written and the index does not move
      if (v.Stable === input.stable && (job.Version !== input.version || job.Stable === input.stable))
        return { Index: store.index, JobModifyIndex: store.index };
      tx.put('jobVersions', { ...v, Stable: input.stable, ModifyIndex: tx.index });
      if (job.Version === input.version) {
        const j = { ...job, Stable: input.stable, ModifyIndex: tx.index };
        tx.put('jobs', j);
        jobEvent(tx, 'JobRegistered', j);
      }
      return { Index: tx.index, JobModifyIndex: tx.index };
    });

  const evaluateJob: Cluster['evaluateJob'] = (input) =>
    store.write((tx) => {
      const job = mustJob(tx, input.namespace, input.id);
      if (job.Periodic && !job.Dispatched) throw badRequest("can't evaluate periodic job");
      if (job.ParameterizedJob && !job.Dispatched) throw badRequest("can't evaluate parameterized job");
      const e = makeEval(tx, job, 'job-register');
      if (input.forceReschedule) {
        forceReschedule.add(e.ID);
        for (const a of tx.ofJob('allocs', job.Namespace, job.ID)) {
          if (a.ClientStatus === 'failed' && a.DesiredStatus === 'run' && a.NextAllocation === '')
            tx.put('allocs', {
              ...a,
              DesiredTransition: { ...a.DesiredTransition, ForceReschedule: true },
              ModifyIndex: tx.index,
            });
        }
        tx.after(() => undefined);
      }
      return { EvalID: e.ID, EvalCreateIndex: tx.index, JobModifyIndex: job.JobModifyIndex, Index: tx.index };
    });

  /** Launches a child of a periodic job (force, or the cron timer). */
  const launchPeriodic = (tx: Txn, job: Job): Evaluation => {
    let sec = Math.floor(nowMs() / 1000);
    while (tx.get('jobs', jobKey(job.Namespace, `${job.ID}/periodic-${sec}`))) sec++;
    const childId = `${job.ID}/periodic-${sec}`;
    const child = canonicalize(
      { ...job, ID: childId, Name: childId, ParentID: job.ID, Periodic: null, Status: 'pending' },
      { region },
    );
    const stored = upsertJob(tx, child, undefined);
    const e = makeEval(tx, stored, 'periodic-job');
    refreshJob(tx, stored.Namespace, stored.ID);
    refreshJob(tx, job.Namespace, job.ID);
    return e;
  };

  const forcePeriodic: Cluster['forcePeriodic'] = (input) =>
    store.write((tx) => {
      const job = mustJob(tx, input.namespace, input.id);
      if (!job.Periodic || job.Dispatched || job.ParentID !== '')
        throw badRequest("can't force launch non-periodic job");
      if (job.Stop) throw badRequest(`Specified job "${job.ID}" is stopped`);
      const e = launchPeriodic(tx, job);
      return { EvalID: e.ID, EvalCreateIndex: tx.index, Index: tx.index };
    });

  /** The next cron launch of a periodic job (ms), if it is enabled. */
  const nextLaunchOf = (job: Job): number | undefined => {
    if (!job.Periodic || !job.Periodic.Enabled || job.Stop || job.ParentID !== '') return undefined;
    try {
      return nextLaunch(parseCron(job.Periodic.Spec), nowMs());
    } catch {
      return undefined;
    }
  };

  /** (Re)arms the cron timer of a periodic job after it was written. */
  const armPeriodic = (namespace: string, id: string): void => {
    const key = jobKey(namespace, id);
    periodicTimers.get(key)?.cancel();
    periodicTimers.delete(key);
    const job = store.jobs.get(key);
    const at = job ? nextLaunchOf(job) : undefined;
    if (at === undefined) return;
    periodicTimers.set(
      key,
      later(() => {
        periodicTimers.delete(key);
        store.write((tx) => {
          const cur = tx.get('jobs', key);
          if (!cur || !cur.Periodic || cur.Stop) return;
          const running = tx
            .all('jobs')
            .some((c) => c.ParentID === cur.ID && c.Namespace === cur.Namespace && c.Status !== 'dead');
          if (cur.Periodic.ProhibitOverlap && running) return;
          launchPeriodic(tx, cur);
        });
        armPeriodic(namespace, id);
      }, at - nowMs()),
    );
  };

  const jobVersions: Cluster['jobVersions'] = (input) => {
    const versions = store.ofJob('jobVersions', input.namespace, input.id).reverse();
    if (versions.length === 0) throw notFound('job not found');
    let diffs: JobDiff[] | null = null;
    if (input.diffs) {
      diffs = [];
      for (let i = 0; i + 1 < versions.length; i++) diffs.push(diffJobs(versions[i + 1], versions[i]));
    }
    return { Versions: versions, Diffs: diffs };
  };

  // ---- allocation writes ----------------------------------------------------------------------

  const mustAlloc = (tx: Txn, id: string): Allocation => {
    const a = tx.get('allocs', id);
    if (!a) throw notFound('alloc not found');
    return a;
  };

  const stopAlloc: Cluster['stopAlloc'] = (input) =>
    store.write((tx) => {
      const a = mustAlloc(tx, input.allocId);
      const stopped: Allocation = {
        ...a,
        DesiredStatus: 'stop',
        DesiredDescription: 'alloc was stopped by user',
        DesiredTransition: { ...a.DesiredTransition, Migrate: true },
        ModifyIndex: tx.index,
        AllocModifyIndex: tx.index,
        ModifyTime: nowNs(),
      };
      tx.put('allocs', stopped);
      allocEvent(tx, 'AllocationUpdateDesiredStatus', stopped);
      const job = tx.get('jobs', jobKey(a.Namespace, a.JobID)) ?? a.Job;
      const e = makeEval(
        tx,
        job ?? { Namespace: a.Namespace, ID: a.JobID, Type: 'service', Priority: 50, JobModifyIndex: 0 },
        'alloc-stop',
      );
      tx.after(() => stopRun(a.ID, input.noShutdownDelay ?? false));
      return { EvalID: e.ID, Index: tx.index };
    });

  const liveTask = (a: Allocation, task: string | undefined): string[] => {
    if (clientTerminal(a) || a.DesiredStatus !== 'run')
      throw badRequest(`Allocation "${a.ID}" is not running`);
    const names = Object.keys(a.TaskStates ?? {});
    if (task) {
      if (!names.includes(task)) throw badRequest(`Task "${task}" not found in allocation "${a.ID}"`);
      if (a.TaskStates?.[task]?.State !== 'running') throw badRequest(`Task "${task}" is not running`);
      return [task];
    }
    const running = names.filter((n) => a.TaskStates?.[n]?.State === 'running');
    if (running.length === 0) throw badRequest(`Allocation "${a.ID}" has no running tasks`);
    return running;
  };

  /** Records a user's task event on the live tasks of an allocation (the one named, or all of them). */
  const userTaskEvent = (
    allocId: string,
    task: string | undefined,
    type: string,
    fields: Partial<TaskEvent>,
  ): { tasks: string[]; run: ReturnType<typeof runs.get> } => {
    const a = store.allocs.get(allocId);
    if (!a) throw notFound('alloc not found');
    const tasks = liveTask(a, task);
    const run = runs.get(a.ID);
    clientUpdate(a.ID, (_x, states) => {
      for (const t of tasks) addEvent(states, t, te(type, nowMs(), fields));
    });
    return { tasks, run };
  };

  const signalAlloc: Cluster['signalAlloc'] = (input) => {
    const sig = input.signal === undefined || input.signal === '' ? 'SIGKILL' : input.signal;
    const name = normalizeSignal(sig);
    if (!name) throw badRequest(`Unknown signal "${sig}"`);
    const { tasks, run } = userTaskEvent(input.allocId, input.task, 'Signaling', {
      TaskSignal: name,
      TaskSignalReason: 'User requested signal',
      DisplayMessage: `Task being sent signal ${name}: User requested signal`,
    });
    for (const t of tasks) run?.tasks.get(t)?.handle?.signal(name);
    return {};
  };

  const restartAlloc: Cluster['restartAlloc'] = (input) => {
    const { tasks, run } = userTaskEvent(input.allocId, input.task, 'Restart Signaled', {
      RestartReason: 'User requested restart',
      DisplayMessage: 'User requested task to restart',
    });
    for (const t of tasks) {
      const tr = run?.tasks.get(t);
      if (tr?.handle) {
        tr.userRestart = true;
        void tr.handle.stop({ signal: tr.task.KillSignal || 'SIGINT', timeoutMs: tr.task.KillTimeout / 1e6 });
      }
    }
    return {};
  };

  // ---- volumes --------------------------------------------------------------------------------

  const ACCESS = [
    'single-node-reader-only',
    'single-node-writer',
    'multi-node-reader-only',
    'multi-node-single-writer',
    'multi-node-multi-writer',
  ];
  const ATTACH = ['file-system', 'block-device'];

  const registerVolume: Cluster['registerVolume'] = (input) =>
    store.write((tx) => {
      if (input.volumes.length === 0) throw badRequest('No volumes to register');
      const nodes = tx.all('nodes').length;
      for (const raw of input.volumes) {
        const o = (raw ?? {}) as Record<string, unknown>;
        const id = typeof o['ID'] === 'string' ? o['ID'] : '';
        if (id === '') throw badRequest('Volume ID is required');
        if (
          input.pathId !== undefined &&
          input.pathId !== '' &&
          input.volumes.length === 1 &&
          id !== input.pathId
        )
          throw badRequest(`Volume ID "${id}" does not match the volume ID in the path "${input.pathId}"`);
        const namespace =
          typeof o['Namespace'] === 'string' && o['Namespace'] !== '' ? o['Namespace'] : input.namespace;
        const pluginId = typeof o['PluginID'] === 'string' ? o['PluginID'] : '';
        if (pluginId === '') throw badRequest(`Volume "${id}" is missing a PluginID`);
        const access = typeof o['AccessMode'] === 'string' ? o['AccessMode'] : '';
        if (access !== '' && !ACCESS.includes(access))
          throw badRequest(`Volume "${id}" has an unknown AccessMode "${access}"`);
        const attach = typeof o['AttachmentMode'] === 'string' ? o['AttachmentMode'] : '';
        if (attach !== '' && !ATTACH.includes(attach))
          throw badRequest(`Volume "${id}" has an unknown AttachmentMode "${attach}"`);
        if (tx.get('volumes', jobKey(namespace, id))) throw badRequest(`volume "${id}" already exists`);
        const str = (k: string): string => (typeof o[k] === 'string' ? (o[k] as string) : '');
        const v: CsiVolume = {
          ID: id,
          Name: str('Name') || id,
          ExternalID: str('ExternalID'),
          Namespace: namespace,
          Topologies: Array.isArray(o['Topologies']) ? (o['Topologies'] as Record<string, string>[]) : null,
          AccessMode: access || 'single-node-writer',
          AttachmentMode: attach || 'file-system',
          MountOptions: (o['MountOptions'] as Record<string, unknown> | undefined) ?? null,
          Secrets: (o['Secrets'] as Record<string, string> | undefined) ?? null,
          Parameters: (o['Parameters'] as Record<string, string> | undefined) ?? null,
          Context: (o['Context'] as Record<string, string> | undefined) ?? null,
          Capacity: typeof o['Capacity'] === 'number' ? o['Capacity'] : 0,
          RequestedCapabilities: Array.isArray(o['RequestedCapabilities'])
            ? o['RequestedCapabilities']
            : null,
          Schedulable: true,
          PluginID: pluginId,
          Provider: pluginId,
          ProviderVersion: '1.0.0',
          Version: '',
          ControllerRequired: false,
          ControllersHealthy: 0,
          ControllersExpected: 0,
          NodesHealthy: nodes,
          NodesExpected: nodes,
          ResourceExhausted: 0,
          ReadAllocs: {},
          WriteAllocs: {},
          Allocations: [],
          Claims: {},
          CreateIndex: tx.index,
          ModifyIndex: tx.index,
        };
        tx.put('volumes', v);
      }
      tx.after(unblock);
      return { Index: tx.index };
    });

  const claimLive = (tx: Txn, allocId: string): boolean => {
    const a = tx.get('allocs', allocId);
    return a !== undefined && !clientTerminal(a);
  };

  const deregisterVolume: Cluster['deregisterVolume'] = (input) =>
    store.write((tx) => {
      const v = tx.get('volumes', jobKey(input.namespace, input.id));
      if (!v) throw notFound('volume not found');
      const claims = Object.values(v.Claims);
      if (claims.some((c) => claimLive(tx, c.AllocationID)) || (!input.force && claims.length > 0))
        throw badRequest(`volume "${v.ID}" is in use`);
      tx.delete('volumes', jobKey(v.Namespace, v.ID));
      return { Index: tx.index };
    });

  const detachVolume: Cluster['detachVolume'] = (input) =>
    store.write((tx) => {
      if (input.node === '') throw badRequest('The "node" query parameter is required');
      const v = tx.get('volumes', jobKey(input.namespace, input.id));
      if (!v) throw notFound('volume not found');
      const nodes = tx.all('nodes').filter((n) => n.ID === input.node || n.ID.startsWith(input.node));
      const node = nodes[0];
      if (!node || nodes.length > 1)
        throw notFound(nodes.length > 1 ? `node prefix "${input.node}" is ambiguous` : 'node not found');
      const onNode = Object.values(v.Claims).filter((c) => c.NodeID === node.ID);
      if (onNode.some((c) => claimLive(tx, c.AllocationID))) throw badRequest(`volume "${v.ID}" is in use`);
      if (onNode.length === 0) return { Index: store.index }; // not attached there: nothing to write
      const claims = { ...v.Claims };
      for (const c of onNode) delete claims[c.AllocationID];
      tx.put('volumes', { ...v, Claims: claims, ModifyIndex: tx.index });
      return { Index: tx.index };
    });

  const releaseClaims = (allocId: string): void => {
    store.write((tx) => {
      for (const v of tx.all('volumes')) {
        if (!v.Claims[allocId]) continue;
        if (claimLive(tx, allocId)) continue;
        const claims = { ...v.Claims };
        delete claims[allocId];
        tx.put('volumes', { ...v, Claims: claims, ModifyIndex: tx.index });
      }
    });
    unblock();
  };

  // ---- nodes ----------------------------------------------------------------------------------

  const mustNode = (tx: Txn, id: string): Node => {
    const n = tx.get('nodes', id);
    if (!n) throw notFound('node not found');
    return n;
  };

  const nodeEventEntry = (tx: Txn, n: Node, message: string): Node['Events'] =>
    [
      ...n.Events,
      {
        Message: message,
        Subsystem: 'Cluster',
        Details: null,
        Timestamp: iso(nowMs()),
        CreateIndex: tx.index,
      },
    ].slice(-10);

  const setNodeEligibility: Cluster['setNodeEligibility'] = (input) =>
    store.write((tx) => {
      const n = mustNode(tx, input.nodeId);
      const eligibility = input.eligible ? 'eligible' : 'ineligible';
      if (n.SchedulingEligibility === eligibility) return { Index: store.index };
      const u: Node = {
        ...n,
        SchedulingEligibility: eligibility,
        Events: nodeEventEntry(tx, n, `Node marked as ${eligibility}`),
        ModifyIndex: tx.index,
      };
      tx.put('nodes', u);
      nodeEvent(tx, 'NodeEligibility', u);
      nodeEvent(tx, 'NodeEvent', u);
      if (input.eligible) tx.after(unblock);
      return { Index: tx.index };
    });

  const promoteDeployment: Cluster['promoteDeployment'] = (input) =>
    store.write((tx) => {
      const d0 = tx.get('deployments', input.deploymentId);
      if (!d0) throw notFound('deployment not found');
      if (d0.Status !== 'running') throw badRequest(`Deployment "${d0.ID}" is ${d0.Status}, not running`);
      const groups = Object.values(d0.TaskGroups);
      if (!groups.some((g) => g.DesiredCanaries > 0 && !g.Promoted))
        throw badRequest(`Deployment "${d0.ID}" has no canaries to promote`);
      const d: Deployment = structuredClone(d0);
      for (const g of Object.values(d.TaskGroups)) if (g.DesiredCanaries > 0) g.Promoted = true;
      d.StatusDescription = 'Deployment is running';
      d.ModifyIndex = tx.index;
      d.ModifyTime = nowNs();
      putDeployment(tx, 'DeploymentPromotion', d);
      const job = tx.get('jobs', jobKey(d.Namespace, d.JobID));
      if (!job) throw notFound('job not found');
      const e = makeEval(tx, job, 'deployment-watcher', d.EvalPriority, { DeploymentID: d.ID });
      return { EvalID: e.ID, Index: tx.index };
    });

  const deregisterNode: Cluster['deregisterNode'] = (input) =>
    store.write((tx) => {
      const n = mustNode(tx, input.nodeId);
      tx.delete('nodes', n.ID);
      nodeEvent(tx, 'NodeDeregistration', { ...n, Status: 'down', ModifyIndex: tx.index });
      const jobs = new Map<string, Allocation>();
      for (const a of tx.all('allocs')) {
        if (a.NodeID !== n.ID || clientTerminal(a)) continue;
        const lost: Allocation = {
          ...a,
          DesiredStatus: 'stop',
          DesiredDescription: 'alloc is lost since its node is down',
          ClientStatus: 'lost',
          ClientDescription: 'alloc is lost since its node is down',
          ModifyIndex: tx.index,
          AllocModifyIndex: tx.index,
          ModifyTime: nowNs(),
        };
        tx.put('allocs', lost);
        allocEvent(tx, 'AllocationUpdated', lost);
        jobs.set(jobKey(a.Namespace, a.JobID), a);
        tx.after(() => {
          activeAllocs.delete(a.ID);
          abandonRun(a.ID);
        });
      }
      for (const a of jobs.values()) {
        const job = tx.get('jobs', jobKey(a.Namespace, a.JobID));
        if (job) makeEval(tx, job, 'node-update', 0, { NodeID: n.ID });
        refreshJob(tx, a.Namespace, a.JobID);
      }
      return { Index: tx.index };
    });

  const drainNode: Cluster['drainNode'] = (input) =>
    store.write((tx) => {
      const n = mustNode(tx, input.nodeId);
      const u: Node = {
        ...n,
        Drain: input.enable,
        DrainStrategy: input.enable
          ? { Deadline: 3600e9, IgnoreSystemJobs: false, ForceDeadline: null }
          : null,
        SchedulingEligibility: input.enable ? 'ineligible' : 'eligible',
        Events: nodeEventEntry(tx, n, input.enable ? 'Node drain strategy set' : 'Node drain strategy unset'),
        ModifyIndex: tx.index,
      };
      tx.put('nodes', u);
      nodeEvent(tx, 'NodeDrain', u, 'Node');
      nodeEvent(tx, 'NodeEvent', u);
      if (input.enable) {
        const jobs = new Map<string, Allocation>();
        for (const a of tx.all('allocs')) {
          if (a.NodeID !== n.ID || !isLive(a)) continue;
          const m: Allocation = {
            ...a,
            DesiredStatus: 'stop',
            DesiredDescription: 'alloc is being migrated',
            DesiredTransition: { ...a.DesiredTransition, Migrate: true },
            ModifyIndex: tx.index,
            AllocModifyIndex: tx.index,
          };
          tx.put('allocs', m);
          allocEvent(tx, 'AllocationUpdateDesiredStatus', m);
          tx.after(() => stopRun(a.ID, false));
          jobs.set(jobKey(a.Namespace, a.JobID), a);
        }
        for (const a of jobs.values()) {
          const job = tx.get('jobs', jobKey(a.Namespace, a.JobID));
          if (job) makeEval(tx, job, 'node-drain', 0, { NodeID: n.ID });
        }
      } else tx.after(unblock);
      return { Index: tx.index };
    });

  // ---- the client simulation ------------------------------------------------------------------

  const addEvent = (states: Record<string, TaskState>, task: string, e: TaskEvent): void => {
    const s = states[task];
    if (!s) return;
    s.Events = [...s.Events, e].slice(-10);
  };

  /** Applies a client-side change to an allocation (task states) as one write. */
  const clientUpdate = (
    allocId: string,
    fn: (a: Allocation, states: Record<string, TaskState>, tx: Txn) => void,
  ): Allocation | undefined =>
    store.write((tx) => {
      const cur = tx.get('allocs', allocId);
      if (!cur) return undefined;
      const states = structuredClone(cur.TaskStates ?? {});
      const a: Allocation = { ...cur };
      fn(a, states, tx);
      a.TaskStates = states;
      const list = Object.values(states);
      const wasTerminal = clientTerminal(cur);
      if (!wasTerminal) {
        if (list.length > 0 && list.every((s) => s.State === 'dead')) {
          a.ClientStatus = list.some((s) => s.Failed) ? 'failed' : 'complete';
          a.ClientDescription = a.ClientStatus === 'failed' ? 'Failed tasks' : 'All tasks have completed';
        } else if (list.some((s) => s.State === 'running')) {
          a.ClientStatus = 'running';
          a.ClientDescription = 'Tasks are running';
        } else {
          a.ClientStatus = 'pending';
          a.ClientDescription = 'No tasks have started';
        }
      }
      a.ModifyIndex = tx.index;
      a.ModifyTime = nowNs();
      tx.put('allocs', a);
      allocEvent(tx, 'AllocationUpdated', a);
      if (!wasTerminal && clientTerminal(a)) {
        tx.after(() => {
          activeAllocs.delete(a.ID);
          finishRun(a.ID);
          unblock();
          later(() => releaseClaims(a.ID), timing.claimReleaseMs);
        });
        if (a.ClientStatus === 'failed' && a.DesiredStatus === 'run') {
          const job = tx.get('jobs', jobKey(a.Namespace, a.JobID));
          if (job && !job.Stop) makeEval(tx, job, 'alloc-failure');
          if (a.DeploymentID && a.DeploymentStatus?.Healthy !== true) setHealth(tx, a, false);
        }
      }
      if (cur.ClientStatus !== a.ClientStatus) refreshJob(tx, a.Namespace, a.JobID);
      return a;
    });

  const taskEnv = (a: Allocation, t: Task, dir: string): Record<string, string> => {
    const env: Record<string, string> = {
      SKED_ALLOC_ID: a.ID,
      SKED_ALLOC_NAME: a.Name,
      SKED_ALLOC_INDEX: String(/\[(\d+)\]$/.exec(a.Name)?.[1] ?? '0'),
      SKED_JOB_ID: a.JobID,
      SKED_JOB_NAME: a.Job?.Name ?? a.JobID,
      SKED_GROUP_NAME: a.TaskGroup,
      SKED_TASK_NAME: t.Name,
      SKED_TASK_DIR: dir,
      SKED_NAMESPACE: a.Namespace,
      SKED_REGION: region,
      SKED_DC: store.nodes.get(a.NodeID)?.Datacenter ?? '',
      SKED_CPU_LIMIT: String(t.Resources.CPU),
      SKED_MEMORY_LIMIT: String(t.Resources.MemoryMB),
    };
    for (const p of allocPorts(a)) {
      const label = p.Label.replace(/[^A-Za-z0-9_]/g, '_');
      env[`SKED_PORT_${label}`] = String(p.To > 0 ? p.To : p.Value);
      env[`SKED_HOST_PORT_${label}`] = String(p.Value);
      env[`SKED_IP_${label}`] = p.HostIP;
      env[`SKED_ADDR_${label}`] = `${p.HostIP}:${p.Value}`;
    }
    for (const [k, v] of Object.entries({ ...a.Job?.Meta, ...t.Meta }))
      env[`SKED_META_${k.replace(/[^A-Za-z0-9_]/g, '_')}`] = v;
    return { ...env, ...t.Env };
  };

  const taskDir = (allocId: string, task: string): string => join(dataRoot, 'allocs', allocId, task);

  const hookOf = (t: Task): string => t.Lifecycle?.Hook ?? '';
  /** Lifecycle tasks that are not sidecars run to completion (exit 0 is not restarted). */
  const ephemeral = (t: Task): boolean => hookOf(t) !== '' && t.Lifecycle?.Sidecar !== true;

  const setupAndStart = (run: AllocRun, tasks: readonly Task[]): void => {
    for (const t of tasks) {
      clientUpdate(run.id, (_x, states) => {
        addEvent(
          states,
          t.Name,
          te('Task Setup', nowMs(), {
            Message: 'Building Task Directory',
            DisplayMessage: 'Building Task Directory',
          }),
        );
      });
      startTask(run, t.Name);
    }
  };

  /** Moves an allocation through its lifecycle phases: prestart -> main (+ poststart) -> poststop. */
  const advancePhase = (run: AllocRun): void => {
    if (run.stopping || run.closed) return;
    const states = store.allocs.get(run.id)?.TaskStates ?? {};
    const tasks = [...run.tasks.values()].map((tr) => tr.task);
    const dead = (t: Task): boolean => states[t.Name]?.State === 'dead';
    if (run.phase === 'prestart') {
      const pre = tasks.filter((t) => hookOf(t) === 'prestart' && ephemeral(t));
      if (pre.every((t) => dead(t) && states[t.Name]?.Failed !== true)) {
        run.phase = 'main';
        setupAndStart(
          run,
          tasks.filter((t) => hookOf(t) === '' || hookOf(t) === 'poststart'),
        );
      }
      return;
    }
    if (run.phase === 'main') {
      const main = tasks.filter((t) => hookOf(t) === '');
      if (main.length > 0 && main.every(dead)) {
        run.phase = 'poststop';
        for (const t of tasks)
          if (hookOf(t) !== '' && hookOf(t) !== 'poststop' && !dead(t))
            killTask(run, t.Name, 0, 'main tasks are dead');
        const post = tasks.filter((t) => hookOf(t) === 'poststop');
        if (post.length > 0) setupAndStart(run, post);
      }
    }
  };

  const startRun = (allocId: string): void => {
    const a = store.allocs.get(allocId);
    if (!a || closed) return;
    const group = a.Job?.TaskGroups.find((g) => g.Name === a.TaskGroup);
    if (!group) return;
    const run: AllocRun = {
      id: allocId,
      tasks: new Map(
        group.Tasks.map((t) => [
          t.Name,
          {
            task: t,
            handle: undefined,
            restarts: [],
            timer: undefined,
            dead: false,
            killing: false,
            userRestart: false,
          },
        ]),
      ),
      stopping: false,
      closed: false,
      phase: 'prestart',
      timers: new Set(),
      healthTimer: undefined,
      deadlineTimer: undefined,
    };
    runs.set(allocId, run);
    later(() => {
      if (run.stopping) return;
      clientUpdate(allocId, (_x, states) => {
        for (const t of group.Tasks)
          addEvent(states, t.Name, te('Received', nowMs(), { DisplayMessage: 'Task received by client' }));
      });
      later(() => {
        if (run.stopping) return;
        const prestart = group.Tasks.filter((t) => hookOf(t) === 'prestart');
        if (prestart.length > 0) setupAndStart(run, prestart);
        else {
          run.phase = 'main';
          setupAndStart(
            run,
            group.Tasks.filter((t) => hookOf(t) === '' || hookOf(t) === 'poststart'),
          );
        }
      }, timing.clientDelayMs / 2);
    }, timing.clientDelayMs);
    if (a.DeploymentID) {
      const upd = group.Update;
      if (upd)
        run.deadlineTimer = later(() => {
          const cur = store.allocs.get(allocId);
          if (cur && cur.DeploymentStatus?.Healthy == null && !run.stopping)
            store.write((tx) => setHealth(tx, cur, false, 'Task not running by healthy_deadline'));
        }, upd.HealthyDeadline / 1e6);
    }
  };

  const startTask = (run: AllocRun, name: string): void => {
    const tr = run.tasks.get(name);
    const a = store.allocs.get(run.id);
    if (!tr || !a || run.stopping || closed) return;
    const dir = taskDir(run.id, name);
    try {
      mkdirSync(join(dir, 'local'), { recursive: true });
      mkdirSync(join(dir, 'secrets'), { recursive: true });
      mkdirSync(join(dir, 'tmp'), { recursive: true });
      if (tr.task.DispatchPayload?.File && a.Job?.Payload)
        writeFileSync(join(dir, 'local', tr.task.DispatchPayload.File), Buffer.from(a.Job.Payload, 'base64'));
    } catch (error) {
      clientUpdate(run.id, (_x, states) => {
        addEvent(
          states,
          name,
          te('Setup Failure', nowMs(), {
            SetupError: String(error),
            FailsTask: true,
            DisplayMessage: `failed to build task directory: ${String(error)}`,
          }),
        );
        const s = states[name];
        if (s) Object.assign(s, { State: 'dead', Failed: true, FinishedAt: iso(nowMs()) });
      });
      return;
    }
    const driver = drivers.get(tr.task.Driver);
    if (!driver) {
      clientUpdate(run.id, (_x, states) => {
        addEvent(
          states,
          name,
          te('Driver Failure', nowMs(), {
            DriverError: `missing driver "${tr.task.Driver}"`,
            FailsTask: true,
            DisplayMessage: `Failed to start task: missing driver "${tr.task.Driver}"`,
          }),
        );
        const s = states[name];
        if (s) Object.assign(s, { State: 'dead', Failed: true, FinishedAt: iso(nowMs()) });
      });
      return;
    }
    tr.dead = false;
    tr.handle = driver.start(
      { allocId: run.id, taskName: name, config: tr.task.Config ?? {}, env: taskEnv(a, tr.task, dir), dir },
      {
        event: (e) => onDriverEvent(run, name, e),
        exited: (r) => onExit(run, name, r),
      },
    );
  };

  const onDriverEvent = (run: AllocRun, name: string, e: DriverTaskEvent): void => {
    if (run.closed) return;
    clientUpdate(run.id, (_a, states) => {
      const s = states[name];
      if (!s) return;
      addEvent(
        states,
        name,
        te(e.Type, nowMs(), {
          ...e,
          DisplayMessage: e.Message ?? e.DriverMessage ?? '',
        } as Partial<TaskEvent>),
      );
      if (e.Type === 'Started') {
        s.State = 'running';
        s.StartedAt = iso(nowMs());
      }
    });
    if (e.Type === 'Started') checkHealthy(run);
  };

  const onExit = (
    run: AllocRun,
    name: string,
    r: { exitCode: number; signal?: number; failed: boolean; error?: string },
  ): void => {
    const tr = run.tasks.get(name);
    if (!tr || run.closed) return;
    tr.handle = undefined;
    const a = store.allocs.get(run.id);
    if (!a) return;
    const type = a.Job?.Type ?? 'service';
    const now = nowMs();
    if (tr.killing || run.stopping) {
      tr.dead = true;
      clientUpdate(run.id, (_x, states) => {
        addEvent(states, name, te('Killed', now, { DisplayMessage: 'Task successfully killed' }));
        const s = states[name];
        if (s) Object.assign(s, { State: 'dead', FinishedAt: iso(now) });
      });
      return;
    }
    if (tr.userRestart) {
      tr.userRestart = false;
      clientUpdate(run.id, (_x, states) => {
        addEvent(
          states,
          name,
          te('Terminated', now, {
            ExitCode: r.exitCode,
            Signal: r.signal ?? 0,
            DisplayMessage: `Exit Code: ${r.exitCode}`,
          }),
        );
        addEvent(
          states,
          name,
          te('Restarting', now, {
            RestartReason: 'User requested restart',
            StartDelay: 0,
            DisplayMessage: 'Task restarting in 0s',
          }),
        );
        const s = states[name];
        if (s) Object.assign(s, { State: 'pending', Restarts: s.Restarts + 1, LastRestart: iso(now) });
      });
      startTask(run, name);
      return;
    }
    const success = !r.failed && r.exitCode === 0;
    const policy = tr.task.RestartPolicy;
    const batch = type === 'batch' || type === 'sysbatch';
    clientUpdate(run.id, (_x, states) => {
      const s = states[name];
      if (!s) return;
      if (r.error !== undefined) {
        // A driver may already have reported its failure as an event.
        if (s.Events.at(-1)?.Type !== 'Driver Failure')
          addEvent(
            states,
            name,
            te('Driver Failure', now, {
              DriverError: r.error,
              DisplayMessage: `Failed to start task: ${r.error}`,
            }),
          );
      } else
        addEvent(
          states,
          name,
          te('Terminated', now, {
            ExitCode: r.exitCode,
            Signal: r.signal ?? 0,
            DisplayMessage: `Exit Code: ${r.exitCode}${r.signal ? `, Signal: ${r.signal}` : ''}`,
          }),
        );
      if ((batch || ephemeral(tr.task)) && success) {
        Object.assign(s, { State: 'dead', Failed: false, FinishedAt: iso(now) });
        return;
      }
      if (!policy) {
        Object.assign(s, { State: 'dead', Failed: !success, FinishedAt: iso(now) });
        return;
      }
      tr.restarts = tr.restarts.filter((t) => now - t < policy.Interval / 1e6);
      if (tr.restarts.length < policy.Attempts) {
        tr.restarts.push(now);
        const delay = policy.Delay;
        addEvent(
          states,
          name,
          te('Restarting', now, {
            RestartReason: 'Restart within policy',
            StartDelay: delay,
            DisplayMessage: `Task restarting in ${formatDuration(delay)}`,
          }),
        );
        Object.assign(s, { State: 'pending' });
        s.Restarts += 1;
        s.LastRestart = iso(now);
        tr.timer = later(() => startTask(run, name), delay / 1e6);
      } else if (policy.Mode === 'delay') {
        const wait = Math.max(policy.Delay / 1e6, (tr.restarts[0] ?? now) + policy.Interval / 1e6 - now);
        addEvent(
          states,
          name,
          te('Restarting', now, {
            RestartReason: exceededMessage(policy.Attempts, policy.Interval, policy.Mode),
            StartDelay: Math.round(wait * 1e6),
            DisplayMessage: `Task restarting in ${formatDuration(Math.round(wait * 1e6))}`,
          }),
        );
        Object.assign(s, { State: 'pending' });
        s.Restarts += 1;
        s.LastRestart = iso(now);
        tr.restarts = [];
        tr.timer = later(() => startTask(run, name), wait);
      } else {
        const msg = exceededMessage(policy.Attempts, policy.Interval, policy.Mode);
        addEvent(
          states,
          name,
          te('Not Restarting', now, { RestartReason: msg, FailsTask: true, DisplayMessage: msg }),
        );
        Object.assign(s, { State: 'dead', Failed: true, FinishedAt: iso(now) });
        tr.dead = true;
      }
    });
    const state = store.allocs.get(run.id)?.TaskStates?.[name];
    if (state?.State === 'dead') {
      tr.dead = true;
      // A failed task, or a dead leader, takes its siblings down.
      const failed = state.Failed;
      if (failed || tr.task.Leader) {
        for (const [other, otr] of run.tasks) {
          if (other === name || otr.dead) continue;
          clientUpdate(run.id, (_x, states) =>
            addEvent(
              states,
              other,
              failed
                ? te('Sibling Task Failed', now, {
                    FailedSibling: name,
                    DisplayMessage: `Task's sibling "${name}" failed`,
                  })
                : te('Leader Task Dead', now, { DisplayMessage: 'Leader Task in Group dead' }),
            ),
          );
          killTask(run, other, 0, failed ? `Sibling task "${name}" failed` : 'Leader task dead');
        }
      } else advancePhase(run);
    }
  };

  const killTask = (run: AllocRun, name: string, delayMs: number, reason: string): void => {
    const tr = run.tasks.get(name);
    if (!tr || tr.dead || tr.killing) return;
    tr.killing = true;
    tr.timer?.cancel();
    const go = (): void => {
      if (!tr.handle) {
        tr.dead = true;
        clientUpdate(run.id, (_x, states) => {
          const s = states[name];
          if (s && s.State !== 'dead') {
            addEvent(states, name, te('Killed', nowMs(), { DisplayMessage: 'Task successfully killed' }));
            Object.assign(s, { State: 'dead', FinishedAt: iso(nowMs()) });
          }
        });
        return;
      }
      const signal = tr.task.KillSignal || 'SIGINT';
      clientUpdate(run.id, (_x, states) =>
        addEvent(
          states,
          name,
          te('Killing', nowMs(), {
            KillTimeout: tr.task.KillTimeout,
            KillReason: reason,
            DisplayMessage: `Sent interrupt. Waiting ${formatDuration(tr.task.KillTimeout)} before force killing`,
          }),
        ),
      );
      void tr.handle.stop({ signal, timeoutMs: tr.task.KillTimeout / 1e6 });
    };
    if (delayMs > 0) later(go, delayMs);
    else go();
  };

  const stopRun = (allocId: string, skipDelay: boolean): void => {
    const run = runs.get(allocId);
    if (!run) {
      // Never started by a client: finish it directly.
      clientUpdate(allocId, (a, states) => {
        if (clientTerminal(a)) return;
        for (const [n, s] of Object.entries(states))
          if (s.State !== 'dead') {
            addEvent(states, n, te('Killed', nowMs(), { DisplayMessage: 'Task successfully killed' }));
            Object.assign(s, { State: 'dead', FinishedAt: iso(nowMs()) });
          }
      });
      return;
    }
    if (run.stopping) return;
    run.stopping = true;
    run.healthTimer?.cancel();
    run.deadlineTimer?.cancel();
    const a = store.allocs.get(allocId);
    const group = a?.Job?.TaskGroups.find((g) => g.Name === a.TaskGroup);
    const delay = skipDelay ? 0 : (group?.ShutdownDelay ?? 0) / 1e6;
    let anyStarted = false;
    for (const [name, tr] of run.tasks) {
      if (tr.handle) anyStarted = true;
      killTask(run, name, delay + (skipDelay ? 0 : tr.task.ShutdownDelay / 1e6), 'alloc stopped');
    }
    void anyStarted;
  };

  /** Ends a run whose node is gone: drivers are stopped, nothing more is reported. */
  const abandonRun = (allocId: string): void => {
    const run = runs.get(allocId);
    if (!run) return;
    finishRun(allocId);
    for (const tr of run.tasks.values()) void tr.handle?.stop({ timeoutMs: 0 }).catch(() => undefined);
  };

  const finishRun = (allocId: string): void => {
    const run = runs.get(allocId);
    if (!run) return;
    run.closed = true;
    run.healthTimer?.cancel();
    run.deadlineTimer?.cancel();
    for (const tr of run.tasks.values()) tr.timer?.cancel();
    runs.delete(allocId);
  };

  // ---- deployments ----------------------------------------------------------------------------

  /** Whether every long-running task (main tasks and sidecars) of an allocation is running. */
  const allRunning = (a: Allocation): boolean => {
    const group = a.Job?.TaskGroups.find((g) => g.Name === a.TaskGroup);
    const tasks = (group?.Tasks ?? []).filter((t) => !ephemeral(t));
    return tasks.length > 0 && tasks.every((t) => a.TaskStates?.[t.Name]?.State === 'running');
  };

  const checkHealthy = (run: AllocRun): void => {
    const a = store.allocs.get(run.id);
    if (!a || !a.DeploymentID || a.DeploymentStatus?.Healthy != null) return;
    const group = a.Job?.TaskGroups.find((g) => g.Name === a.TaskGroup);
    if (!allRunning(a)) return;
    const min = (group?.Update?.MinHealthyTime ?? 0) / 1e6;
    run.healthTimer?.cancel();
    run.healthTimer = later(() => {
      const cur = store.allocs.get(run.id);
      if (!cur || run.stopping || cur.DeploymentStatus?.Healthy != null) return;
      if (!allRunning(cur)) return;
      run.deadlineTimer?.cancel();
      store.write((tx) => setHealth(tx, cur, true));
    }, min);
  };

  const setHealth = (tx: Txn, alloc: Allocation, healthy: boolean, why?: string): void => {
    const a = tx.get('allocs', alloc.ID) ?? alloc;
    const d0 = tx.get('deployments', a.DeploymentID);
    const u: Allocation = {
      ...a,
      DeploymentStatus: {
        Healthy: healthy,
        Timestamp: iso(nowMs()),
        Canary: a.DeploymentStatus?.Canary ?? false,
        ModifyIndex: tx.index,
      },
      ModifyIndex: tx.index,
    };
    tx.put('allocs', u);
    allocEvent(tx, 'AllocationUpdated', u);
    if (!d0 || d0.Status !== 'running') return;
    const d: Deployment = structuredClone(d0);
    const s = d.TaskGroups[a.TaskGroup];
    if (!s) return;
    if (healthy) s.HealthyAllocs++;
    else s.UnhealthyAllocs++;
    d.ModifyIndex = tx.index;
    d.ModifyTime = nowNs();
    const job = tx.get('jobs', jobKey(d.Namespace, d.JobID));
    if (!healthy) {
      d.Status = 'failed';
      d.StatusDescription = why
        ? `Failed due to unhealthy allocations: ${why}`
        : 'Failed due to unhealthy allocations';
      if (s.AutoRevert && job && job.Version === d.JobVersion) {
        const stable = tx
          .ofJob('jobVersions', d.Namespace, d.JobID)
          .filter((v) => v.Stable && v.Version < d.JobVersion)
          .at(-1);
        if (stable) {
          d.StatusDescription += ` - rolling back to job version ${stable.Version}`;
          putDeployment(tx, 'DeploymentStatusUpdate', d);
          const reverted = upsertJob(tx, { ...stable, Status: job.Status }, job);
          makeEval(tx, reverted, 'deployment-watcher', d.EvalPriority, { DeploymentID: d.ID });
          return;
        }
        d.StatusDescription += ' - no stable job version to auto revert to';
      }
      putDeployment(tx, 'DeploymentStatusUpdate', d);
      return;
    }
    deploymentEvent(tx, 'DeploymentAllocHealth', d);
    const groups = Object.values(d.TaskGroups);
    const canariesHealthy = (g: (typeof groups)[number]): boolean =>
      g.DesiredCanaries > 0 &&
      !g.Promoted &&
      (g.PlacedCanaries ?? []).length >= g.DesiredCanaries &&
      (g.PlacedCanaries ?? []).every((id) =>
        id === u.ID ? true : tx.get('allocs', id)?.DeploymentStatus?.Healthy === true,
      );
    if (groups.some((g) => g.DesiredCanaries > 0 && !g.Promoted)) {
      if (
        groups.every((g) => g.DesiredCanaries === 0 || g.Promoted || (g.AutoPromote && canariesHealthy(g)))
      ) {
        for (const g of groups) if (g.DesiredCanaries > 0) g.Promoted = true;
        d.StatusDescription = 'Deployment is running';
        putDeployment(tx, 'DeploymentPromotion', d);
      } else {
        if (groups.every((g) => g.DesiredCanaries === 0 || g.Promoted || canariesHealthy(g)))
          d.StatusDescription = 'Deployment is running but requires manual promotion';
        tx.put('deployments', d);
        return;
      }
    }
    if (completeIfHealthy(tx, d)) return;
    tx.put('deployments', d);
    if (job) makeEval(tx, job, 'deployment-watcher', d.EvalPriority, { DeploymentID: d.ID });
    tx.after(() => armProgressDeadline(d.ID));
  };

  /** Marks a deployment successful (and its job version stable) once every group is healthy. */
  const completeIfHealthy = (tx: Txn, d: Deployment): boolean => {
    const groups = Object.values(d.TaskGroups);
    const job = tx.get('jobs', jobKey(d.Namespace, d.JobID));
    if (
      groups.length > 0 &&
      groups.every((g) => g.HealthyAllocs >= g.DesiredTotal && (g.DesiredCanaries === 0 || g.Promoted))
    ) {
      d.Status = 'successful';
      d.StatusDescription = 'Deployment completed successfully';
      putDeployment(tx, 'DeploymentStatusUpdate', d);
      deploymentTimers.get(d.ID)?.cancel();
      const v = tx.get('jobVersions', versionKey(d.Namespace, d.JobID, d.JobVersion));
      if (v) tx.put('jobVersions', { ...v, Stable: true });
      if (job && job.Version === d.JobVersion) {
        const j = { ...job, Stable: true, ModifyIndex: tx.index };
        tx.put('jobs', j);
        jobEvent(tx, 'JobRegistered', j);
      }
      return true;
    }
    return false;
  };

  const armProgressDeadline = (id: string): void => {
    const d = store.deployments.get(id);
    if (!d || d.Status !== 'running') return;
    const deadline = Math.max(...Object.values(d.TaskGroups).map((g) => g.ProgressDeadline), 0) / 1e6;
    if (deadline <= 0) return;
    deploymentTimers.get(id)?.cancel();
    deploymentTimers.set(
      id,
      later(() => {
        deploymentTimers.delete(id);
        store.write((tx) => {
          const cur = tx.get('deployments', id);
          if (!cur || cur.Status !== 'running') return;
          const f = {
            ...cur,
            Status: 'failed',
            StatusDescription: 'Failed due to progress deadline',
            ModifyIndex: tx.index,
          };
          putDeployment(tx, 'DeploymentStatusUpdate', f);
        });
      }, deadline),
    );
  };

  // ---- start-up -------------------------------------------------------------------------------

  store.write((tx) => {
    for (let i = 0; i < (options.nodes ?? 3); i++) {
      const n = simulatedNode(i, newId(), nowMs(), {
        datacenter: options.datacenter ?? 'dc1',
        drivers: driverNames,
        region,
      });
      const stored = {
        ...n,
        CreateIndex: tx.index,
        ModifyIndex: tx.index,
        Events: n.Events.map((e) => ({ ...e, CreateIndex: tx.index })),
      };
      tx.put('nodes', stored);
      nodeEvent(tx, 'NodeRegistration', stored);
    }
  });

  return {
    store,
    region,
    dataRoot,
    taskDir,
    registerJob,
    deregisterJob,
    planJob,
    dispatchJob,
    revertJob,
    setJobStability,
    evaluateJob,
    forcePeriodic,
    jobVersions,
    stopAlloc,
    signalAlloc,
    restartAlloc,
    registerVolume,
    deregisterVolume,
    detachVolume,
    batchDeregisterJobs,
    promoteDeployment,
    deregisterNode,
    setNodeEligibility,
    drainNode,
    parseJob: (input) => parseJobHcl(input, { region }),
    onEvents: (listener) => store.onEvents(listener),
    idle: () => evalTimers.size === 0,
    async close() {
      if (closed) return;
      closed = true;
      for (const t of timers) t.cancel();
      timers.clear();
      const stops: Promise<void>[] = [];
      for (const run of runs.values())
        for (const tr of run.tasks.values())
          if (tr.handle) stops.push(tr.handle.stop({ timeoutMs: 100 }).catch(() => undefined));
      runs.clear();
      await Promise.race([Promise.all(stops), new Promise((r) => setTimeout(r, 500))]);
      for (const d of drivers.values()) await d.close?.().catch(() => undefined);
      if (ownRoot) rmSync(dataRoot, { recursive: true, force: true });
    },
  };
}

export { ClusterError };
export type { ClusterEvent };
