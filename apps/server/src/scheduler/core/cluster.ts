import { mkdtempSync, rm } from 'node:fs';
import { rm as rmAsync } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULTS } from '../../defaults.js';

import { createClientUpdate } from './allocs/client-update.js';
import { createAllocWrites } from './allocs/writes.js';
import type { Cluster } from './api.js';
import { createClientSim } from './client/client-sim.js';
import { taskDirOf } from './client/task-dir.js';
import { taskEnvOf } from './client/task-env.js';
import { systemClock, type Clock } from './clock.js';
import type { CoreContext } from './context.js';
import { createDeploymentWatcher } from './deployments/watcher.js';
import { createCollector, DEFAULT_GC } from './gc/collector.js';
import type { TaskDriver } from './drivers/driver.js';
import { createMockDriver } from './drivers/mock.js';
import { createRawExecDriver } from './drivers/raw-exec.js';
import { createEvalQueue } from './evals/eval-queue.js';
import { createPlanApplier } from './evals/plan-apply.js';
import { parseJobHcl } from './hcl/parse-job.js';
import { uuidFactory } from './internal/ids.js';
import { createDispatchJob } from './jobs/dispatch.js';
import { createPeriodic } from './jobs/periodic.js';
import { createPlanJob } from './jobs/plan.js';
import { createRegisterWrites } from './jobs/register.js';
import { upsertJob } from './jobs/upsert.js';
import { createVersionWrites } from './jobs/versions.js';
import { createNodeWrites, registerSimulatedNodes } from './nodes/writes.js';
import { DEFAULT_TIMING, type ClusterOptions } from './options.js';
import { resumeRestored } from './recover.js';
import { deriveJobStatus } from './state/job-status.js';
import { createStore } from './state/store.js';
import { createTimers } from './timers.js';
import { createContainment, type Containment, type WorkOwner } from './contain.js';
import { createVolumeWrites } from './volumes/writes.js';

export type { Cluster } from './api.js';
export type { ClusterOptions } from './options.js';

/** The task drivers of a cluster: `mock`, `raw_exec` when enabled, and any extra ones. */
function driversOf(
  options: ClusterOptions,
  clock: Clock,
): { drivers: Map<string, TaskDriver>; names: string[] } {
  const drivers = new Map<string, TaskDriver>();
  drivers.set('mock', createMockDriver(clock));
  if (typeof options.rawExec === 'object') drivers.set('raw_exec', options.rawExec);
  else if (options.rawExec === true) drivers.set('raw_exec', createRawExecDriver());
  for (const d of options.drivers ?? []) drivers.set(d.name, d);
  const names = [...new Set(['mock', ...(options.rawExec ? ['raw_exec'] : []), ...drivers.keys()])];
  return { drivers, names };
}

/** The owner of the timers indexing a restored state. */
const RESTORE: WorkOwner = { kind: 'cluster', what: 'indexing of the restored state' };

/** The shared context of the parts, from the options. */
function contextOf(options: ClusterOptions): CoreContext {
  const baseClock = options.clock ?? systemClock();
  const clock: Clock = options.now
    ? { now: options.now, setTimeout: (fn, ms) => baseClock.setTimeout(fn, ms) }
    : baseClock;
  const store = createStore(options.persistence);
  store.derive(deriveJobStatus);
  if (options.onEvents !== undefined) store.onEvents(options.onEvents);
  let contain: Containment | undefined;
  const base: Omit<CoreContext, 'contain'> = {
    region: options.region ?? DEFAULTS.region,
    store,
    clock,
    timers: createTimers(clock, () => (owner, error) => contain?.fail(owner, error)),
    timing: { ...DEFAULT_TIMING, ...options.timing },
    newId: uuidFactory(options.random ?? Math.random),
    nowMs: () => clock.now(),
    nowNs: () => Math.round(clock.now() * 1e6),
    activeAllocs: new Set(),
    blockedEvals: new Set(),
    forceReschedule: new Set(),
    noShutdownDelay: new Set(),
  };
  contain = createContainment(base, options.logError ?? ((message, error) => console.error(message, error)));
  return { ...base, contain };
}

/**
 * Creates a simulated cluster: simulated nodes (registered at once), an empty store, the scheduler
 * and the client simulation with the `mock` driver (and `raw_exec` when enabled). This is the one
 * place that connects the parts (see ./README.md for the layout).
 * @param options - See {@link ClusterOptions}.
 * @returns the cluster.
 */
export function createCluster(options: ClusterOptions = {}): Cluster {
  const ctx = contextOf(options);
  const { store, region } = ctx;
  const ownRoot = options.dataRoot === undefined;
  const dataRoot = options.dataRoot ?? mkdtempSync(join(tmpdir(), 'sked-cluster-'));
  const taskDir = (allocId: string, task: string): string => taskDirOf(dataRoot, allocId, task);
  const { drivers, names: driverNames } = driversOf(options, ctx.clock);

  // Parts that call each other are connected through the arrow functions below (late bound).
  const queue = createEvalQueue(ctx, (tx, job, ev, plan) => applyPlan(tx, job, ev, plan));
  const watcher = createDeploymentWatcher(ctx, {
    queue,
    upsertJob: (tx, job, existing) => upsertJob(ctx, tx, job, existing),
  });
  const volumes = createVolumeWrites(ctx, { unblock: queue.unblock });
  const clientUpdate = createClientUpdate(ctx, {
    queue,
    finishRun: (id) => client.finishRun(id),
    releaseClaims: volumes.releaseClaims,
    setHealth: (tx, alloc, healthy) => watcher.setHealth(tx, [{ alloc, healthy }]),
  });
  const client = createClientSim(ctx, {
    drivers,
    update: clientUpdate,
    taskDir,
    reportHealth: watcher.reportHealth,
  });
  ctx.contain.connect({ update: clientUpdate, abandonRun: client.abandonRun });
  const applyPlan = createPlanApplier(ctx, {
    queue,
    stopRun: client.stopRun,
    startRun: client.startRun,
    completeIfHealthy: watcher.completeIfHealthy,
    armProgressDeadline: watcher.armProgressDeadline,
  });
  const periodic = createPeriodic(ctx, queue);
  const jobDeps = { queue, armPeriodic: periodic.armPeriodic };

  if (options.persistence?.restored === undefined) {
    registerSimulatedNodes(ctx, {
      count: options.nodes ?? DEFAULTS.nodes,
      datacenter: options.datacenter ?? DEFAULTS.datacenter,
      drivers: driverNames,
    });
  } else {
    resumeRestored(ctx, {
      queue,
      armPeriodic: periodic.armPeriodic,
      armProgressDeadline: watcher.armProgressDeadline,
      releaseClaims: volumes.releaseClaims,
    });
    // The restored tables nothing has read yet are indexed after start, one a turn.
    const settle = (): void => {
      if (store.settle()) ctx.timers.later(settle, 0, RESTORE);
    };
    ctx.timers.later(settle, 0, RESTORE);
  }

  const collector = createCollector(
    ctx,
    { ...DEFAULT_GC, ...options.gc },
    (a) => rm(dirname(taskDir(a.ID, 'task')), { recursive: true, force: true }, () => undefined),
    {
      ...(options.persistence?.restored?.times && { restored: options.persistence.restored.times }),
      ...(options.persistence?.backend?.times && { times: options.persistence.backend.times }),
    },
  );

  return {
    store,
    region,
    dataRoot,
    taskDir,
    taskEnv: (allocId, task) => taskEnvOf({ region, state: store.view, taskDir }, allocId, task),
    ...createRegisterWrites(ctx, jobDeps),
    ...createVersionWrites(ctx, jobDeps),
    planJob: createPlanJob(ctx),
    dispatchJob: createDispatchJob(ctx, queue),
    forcePeriodic: periodic.forcePeriodic,
    ...createAllocWrites(ctx, { queue, client }),
    registerVolume: volumes.registerVolume,
    deregisterVolume: volumes.deregisterVolume,
    detachVolume: volumes.detachVolume,
    promoteDeployment: watcher.promoteDeployment,
    ...createNodeWrites(ctx, { queue, stopRun: client.stopRun, abandonRun: client.abandonRun }),
    parseJob: (input) => parseJobHcl(input, { region }),
    onEvents: (listener) => store.onEvents(listener),
    idle: queue.idle,
    collectGarbage: (input) => collector.collect(input?.force === true),
    async close() {
      if (ctx.timers.closed) return;
      ctx.timers.close();
      await client.close();
      for (const d of drivers.values()) await d.close?.().catch(() => undefined);
      // removed without blocking the event loop: the task directories of thousands of allocations
      if (ownRoot) await rmAsync(dataRoot, { recursive: true, force: true });
    },
  };
}
