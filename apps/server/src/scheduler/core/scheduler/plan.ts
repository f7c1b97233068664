import { nullRecord, ownValue, setOwn } from '@sked/model';
import type { StateView } from '../state/store.js';
import type { Allocation, AllocMetric, CsiVolume, Deployment } from '../types.js';

/** What a plan does to one task group (Annotations.DesiredTGUpdates). */
export interface DesiredUpdates {
  Ignore: number;
  Place: number;
  Migrate: number;
  Stop: number;
  InPlaceUpdate: number;
  DestructiveUpdate: number;
  Canary: number;
  Preemptions: number;
}

/** The outcome of scheduling one evaluation (applied by the cluster, or reported by a dry run). */
export interface SchedulePlan {
  place: Allocation[];
  stop: { alloc: Allocation; description: string }[];
  inPlace: Allocation[];
  /** Old allocations replaced by a rescheduled one: old ID -> new ID. */
  replaced: Map<string, string>;
  failed: Record<string, AllocMetric>;
  queued: Record<string, number>;
  desired: Record<string, DesiredUpdates>;
  deployment: Deployment | undefined;
  deploymentCreated: boolean;
  cancelled: Deployment[];
  followups: { alloc: Allocation; at: number }[];
  claims: CsiVolume[];
  /** Whether the run stopped at its placement budget with more to place (a follow-up evaluation goes on). */
  more: boolean;
}

/** Context of a scheduling run. */
export interface SchedContext {
  /** The state the plan is computed on (read-only). */
  readonly state: StateView;
  /** The index the plan's records are created at. */
  readonly index: number;
  /** Current time in ms. */
  readonly now: number;
  readonly newId: () => string;
  /** Whether the eval asks to reschedule failed allocations at once (ForceReschedule). */
  readonly forceReschedule: boolean;
  /** Stop without the shutdown delay (recorded on the allocation for the client). */
  readonly noShutdownDelay?: boolean;
  /**
   * Most allocations this run places before it stops, leaving the rest to a follow-up evaluation
   * (`plan.more`): one write per slice, so placing a large job yields to other requests between
   * them. Unset (a job plan, a dry run): no limit.
   */
  readonly placementBudget?: number;
  /** IDs of the allocations the clients have not finished (a cache; every allocation is scanned without it). */
  readonly activeAllocIds?: Iterable<string>;
}

/** An empty plan. */
export function emptyPlan(): SchedulePlan {
  return {
    more: false,
    place: [],
    stop: [],
    inPlace: [],
    replaced: new Map(),
    failed: nullRecord(),
    queued: nullRecord(),
    desired: nullRecord(),
    deployment: undefined,
    deploymentCreated: false,
    cancelled: [],
    followups: [],
    claims: [],
  };
}

/** The desired updates of a group in a plan (created at zero). */
export function desiredOf(plan: SchedulePlan, group: string): DesiredUpdates {
  return (
    ownValue(plan.desired, group) ??
    setOwn(plan.desired, group, {
      Ignore: 0,
      Place: 0,
      Migrate: 0,
      Stop: 0,
      InPlaceUpdate: 0,
      DestructiveUpdate: 0,
      Canary: 0,
      Preemptions: 0,
    })
  );
}
