import type { Clock } from './clock.js';
import type { Containment } from './contain.js';
import type { ClusterTiming } from './options.js';
import type { Store } from './state/store.js';
import type { Timers } from './timers.js';

/**
 * What every part of the core shares: the store, time, IDs and the caches kept beside the store.
 * Built once by `cluster.ts`; parts receive it and never build their own.
 */
export interface CoreContext {
  readonly region: string;
  readonly store: Store;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly timing: ClusterTiming;
  /** A new UUID (from the seeded random source in tests). */
  readonly newId: () => string;
  /** Now in ms. */
  nowMs(): number;
  /** Now in ns (the wire's time unit). */
  nowNs(): number;
  /** Allocations the clients have not finished (kept after each commit; the scheduler's candidates). */
  readonly activeAllocs: Set<string>;
  /** Evaluations waiting for capacity. */
  readonly blockedEvals: Set<string>;
  /** Evaluations asking to reschedule failed allocations at once. */
  readonly forceReschedule: Set<string>;
  /** Evaluations whose stops skip the shutdown delay. */
  readonly noShutdownDelay: Set<string>;
  /** The boundary of background work: a failure marks its allocation, deployment or job failed (./contain.ts). */
  readonly contain: Containment;
}
