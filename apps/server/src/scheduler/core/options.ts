import type { Clock } from './clock.js';
import type { FailureLog } from './contain.js';
import type { TaskDriver } from './drivers/driver.js';
import type { GcOptions } from './gc/collector.js';
import type { StoreOptions } from './state/persistence.js';
import type { EventBatch } from './types.js';

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
  /**
   * A durable store: the backend every commit goes to, and the state restored from it. A restored
   * state keeps its nodes (none are registered) and is resumed (./recover.ts). @defaultValue memory only
   */
  readonly persistence?: StoreOptions;
  /** Garbage collection thresholds and interval (ms). @defaultValue the service's, see ./gc/collector.ts */
  readonly gc?: Partial<GcOptions>;
  /**
   * Where a failure of background work is logged (a sentence naming the allocation, deployment or
   * job marked failed, and the error with its stack; see ./contain.ts). @defaultValue console.error
   */
  readonly logError?: FailureLog;
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

/** The default delays. */
export const DEFAULT_TIMING: ClusterTiming = { evalDelayMs: 5, clientDelayMs: 20, claimReleaseMs: 1000 };
