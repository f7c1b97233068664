import { nullRecord, ownValue, setOwn } from '@sked/model';
import type { AllocMetric } from '../types.js';
import type { SchedulePlan } from './plan.js';

/** A placement metric with nothing counted yet. */
export function emptyMetric(): AllocMetric {
  return {
    NodesEvaluated: 0,
    NodesFiltered: 0,
    NodesInPool: 0,
    NodesAvailable: nullRecord(),
    ClassFiltered: null,
    ConstraintFiltered: null,
    NodesExhausted: 0,
    ClassExhausted: null,
    DimensionExhausted: null,
    QuotaExhausted: null,
    ResourcesExhausted: null,
    Scores: null,
    ScoreMetaData: null,
    AllocationTime: 0,
    CoalescedFailures: 0,
  };
}

/** Counts one more `key` in a metric's map (created when null). */
export function bump(map: Record<string, number> | null, key: string): Record<string, number> {
  const m = map ?? nullRecord<number>();
  setOwn(m, key, (ownValue(m, key) ?? 0) + 1);
  return m;
}

/** Records a placement failure of a group: the first metric, then coalesced counts. */
export function mergeFailure(plan: SchedulePlan, group: string, m: AllocMetric, coalesced = 0): void {
  const prev = ownValue(plan.failed, group);
  if (prev) prev.CoalescedFailures += 1 + coalesced;
  else setOwn(plan.failed, group, { ...m, CoalescedFailures: coalesced });
}
