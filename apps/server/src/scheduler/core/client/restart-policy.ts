import { formatGoDuration } from '@sked/model';
import type { RestartPolicy } from '../types.js';

/** Text of an exhausted restart policy (`Exceeded allowed attempts 2 in interval 30m0s and mode is "fail"`). */
export function exceededMessage(attempts: number, intervalNs: number, mode: string): string {
  return `Exceeded allowed attempts ${attempts} in interval ${formatGoDuration(intervalNs)} and mode is "${mode}"`;
}

/** What happens to a task that exited, by its restart policy. */
export type RestartDecision =
  /** The task is dead (complete, or failed without a policy). */
  | { readonly action: 'finish'; readonly failed: boolean }
  /** The task starts again after `delayMs`; `restarts` is the new restart history. */
  | {
      readonly action: 'restart';
      readonly delayMs: number;
      /** The StartDelay of the Restarting event (ns). */
      readonly startDelayNs: number;
      readonly reason: string;
      readonly restarts: readonly number[];
    }
  /** The policy is exhausted in mode `fail`: the task fails. */
  | { readonly action: 'fail'; readonly reason: string };

/** The facts the decision is made on. */
export interface ExitFacts {
  readonly policy: RestartPolicy | null | undefined;
  /** Times (ms) of the task's earlier restarts. */
  readonly restarts: readonly number[];
  readonly nowMs: number;
  /** Exit code 0 and no driver failure. */
  readonly success: boolean;
  /** Batch jobs and non-sidecar lifecycle hooks: a successful exit completes the task. */
  readonly runsToCompletion: boolean;
}

/**
 * The restart tracker, as a pure function: a successful run-to-completion task finishes; without
 * a policy the task finishes; restarts within `Attempts` per `Interval` wait `Delay`; beyond it,
 * mode `delay` waits until the interval ends (at least `Delay`) and starts a new interval, and mode
 * `fail` fails the task.
 */
export function decideRestart(f: ExitFacts): RestartDecision {
  const { policy, nowMs } = f;
  if (f.runsToCompletion && f.success) return { action: 'finish', failed: false };
  if (!policy) return { action: 'finish', failed: !f.success };
  const recent = f.restarts.filter((t) => nowMs - t < policy.Interval / 1e6);
  if (recent.length < policy.Attempts)
    return {
      action: 'restart',
      delayMs: policy.Delay / 1e6,
      startDelayNs: policy.Delay,
      reason: 'Restart within policy',
      restarts: [...recent, nowMs],
    };
  const reason = exceededMessage(policy.Attempts, policy.Interval, policy.Mode);
  if (policy.Mode !== 'delay') return { action: 'fail', reason };
  const wait = Math.max(policy.Delay / 1e6, (recent[0] ?? nowMs) + policy.Interval / 1e6 - nowMs);
  return { action: 'restart', delayMs: wait, startDelayNs: Math.round(wait * 1e6), reason, restarts: [] };
}
