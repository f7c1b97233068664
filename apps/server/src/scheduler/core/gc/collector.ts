import type { CoreContext } from '../context.js';
import type { StoreBackend } from '../state/persistence.js';
import type { Allocation } from '../types.js';
import { collect, type GcCutoffs, type GcResult } from './collect.js';
import { createTimeTable } from './timetable.js';
import type { WorkOwner } from '../contain.js';

/** The owner of the collector's timers: a failure is logged and the next run goes on. */
const GC: WorkOwner = { kind: 'cluster', what: 'garbage collection' };

/** Thresholds of the garbage collector, in ms (the service's defaults in {@link DEFAULT_GC}). */
export interface GcOptions {
  /** Age of terminal evaluations (and their allocations) of service and system jobs. */
  readonly evalThresholdMs: number;
  /** Age of terminal evaluations (and their allocations) of batch jobs that still exist. */
  readonly batchEvalThresholdMs: number;
  /** Age of dead batch jobs and stopped jobs. */
  readonly jobThresholdMs: number;
  /** Age of finished deployments. */
  readonly deploymentThresholdMs: number;
  /** Interval between collections. */
  readonly intervalMs: number;
}

/** The service's defaults: evaluations 1 h, batch evaluations 24 h, jobs 4 h, deployments 1 h, every 5 min. */
export const DEFAULT_GC: GcOptions = {
  evalThresholdMs: 3_600_000,
  batchEvalThresholdMs: 86_400_000,
  jobThresholdMs: 4 * 3_600_000,
  deploymentThresholdMs: 3_600_000,
  intervalMs: 300_000,
};

/** The garbage collector of a cluster. */
export interface Collector {
  /**
   * Collects now. `force` ignores the ages (everything finished goes), as the service's forced
   * collection does.
   */
  collect(force: boolean): GcResult & { Index: number };
  /** Number of (index, time) pairs the time table holds (bounded by the longest threshold). */
  readonly timeTableSize: number;
}

/**
 * Creates the garbage collector: a time table sampled on a timer (every tenth of the shortest
 * threshold, 10 ms to 1 s), and a collection every `intervalMs`.
 * @param ctx - The core context.
 * @param options - Thresholds and interval.
 * @param gone - Called for every collected allocation (its task directory is removed).
 * @param kept - The time table restored from a data dir, and where to keep its new pairs.
 */
export function createCollector(
  ctx: CoreContext,
  options: GcOptions,
  gone: (a: Allocation) => void,
  kept: { restored?: readonly (readonly [number, number])[]; times?: StoreBackend['times'] } = {},
): Collector {
  const { store } = ctx;
  const table = createTimeTable();
  for (const [index, ms] of kept.restored ?? []) table.witness(index, ms);
  const witness = (index: number, ms: number): void => {
    if (!table.witness(index, ms)) return;
    kept.times?.add(index, ms);
  };
  const thresholds = [
    options.evalThresholdMs,
    options.batchEvalThresholdMs,
    options.jobThresholdMs,
    options.deploymentThresholdMs,
  ];
  const sampleMs = Math.min(1000, Math.max(10, Math.floor(Math.min(...thresholds) / 10)));
  const longest = Math.max(...thresholds);

  const sample = (): void => {
    witness(store.index, ctx.nowMs());
    ctx.timers.later(sample, sampleMs, GC);
  };
  sample();

  const run = (force: boolean): GcResult & { Index: number } => {
    const now = ctx.nowMs();
    witness(store.index, now);
    const at = (ms: number): number => (force ? Number.POSITIVE_INFINITY : table.indexAt(now - ms));
    const cut: GcCutoffs = {
      eval: at(options.evalThresholdMs),
      batchEval: at(options.batchEvalThresholdMs),
      job: at(options.jobThresholdMs),
      deployment: at(options.deploymentThresholdMs),
    };
    const removed: Allocation[] = [];
    const result = store.write((tx) => collect(tx, cut, (a) => removed.push(a)));
    table.prune(now - longest);
    kept.times?.prune(now - longest);
    for (const a of removed) {
      ctx.activeAllocs.delete(a.ID);
      gone(a);
    }
    return { ...result, Index: store.index };
  };

  const periodic = (): void => {
    try {
      run(false);
    } finally {
      ctx.timers.later(periodic, options.intervalMs, GC);
    }
  };
  ctx.timers.later(periodic, options.intervalMs, GC);

  return {
    collect: run,
    get timeTableSize() {
      return table.size;
    },
  };
}
