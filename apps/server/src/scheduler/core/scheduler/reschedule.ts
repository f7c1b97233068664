import type { Allocation, TaskGroup } from '../types.js';

/** Delay before the next reschedule of an allocation (ns), per the policy's delay function. */
export function rescheduleDelay(a: Allocation, g: TaskGroup): number {
  const p = g.ReschedulePolicy;
  if (!p) return 0;
  const n = a.RescheduleTracker?.Events.length ?? 0;
  let d = p.Delay;
  if (p.DelayFunction === 'exponential') d = p.Delay * 2 ** n;
  else if (p.DelayFunction === 'fibonacci') {
    let x = p.Delay;
    let y = p.Delay;
    for (let i = 1; i < n; i++) [x, y] = [y, x + y];
    d = n === 0 ? p.Delay : y;
  }
  if (p.MaxDelay > 0) d = Math.min(d, p.MaxDelay);
  return d;
}

/** Whether a failed allocation may be rescheduled now or later under its policy. */
export function rescheduleEligible(a: Allocation, g: TaskGroup, nowMs: number): boolean {
  const p = g.ReschedulePolicy;
  if (!p) return false;
  if (p.Unlimited) return true;
  if (p.Attempts <= 0) return false;
  const nowNs = nowMs * 1e6;
  const recent = (a.RescheduleTracker?.Events ?? []).filter((e) => nowNs - e.RescheduleTime < p.Interval);
  return recent.length < p.Attempts;
}

/** When an allocation failed (ms): its last task's finish, or its last modification. */
export function failTime(a: Allocation): number {
  let last = a.ModifyTime;
  for (const ts of Object.values(a.TaskStates ?? {})) {
    if (ts.FinishedAt) last = Math.max(last, Date.parse(ts.FinishedAt) * 1e6);
  }
  return last / 1e6;
}

/** The index in an allocation's name (`job.group[3]` -> 3), or -1. */
export function nameIndex(name: string): number {
  const m = /\[(\d+)\]$/.exec(name);
  return m ? Number(m[1]) : -1;
}
