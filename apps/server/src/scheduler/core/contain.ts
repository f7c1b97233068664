import {
  AllocClientStatus,
  DeploymentStatus,
  EvalStatus,
  EvalTriggeredBy,
  newTaskEvent,
  nullRecord,
  TaskEventType,
  TaskStateName,
} from '@sked/model';

import type { AllocUpdate } from './client/runs.js';
import type { CoreContext } from './context.js';
import { evalIdentity, newEvaluation } from './evals/factory.js';
import { iso } from './internal/ids.js';
import { clientTerminal } from './internal/status.js';
import { jobKey } from './state/keys.js';
import type { TaskEvent, TaskState } from './types.js';

/**
 * What a piece of background work serves: the one record that is marked failed when the work
 * throws (see {@link Containment}). `cluster` work (GC, indexing a restored state) has no record:
 * its failure is logged and the work goes on at its next turn.
 */
export type WorkOwner =
  | { readonly kind: 'allocation'; readonly id: string }
  | { readonly kind: 'deployment'; readonly id: string }
  | { readonly kind: 'job'; readonly namespace: string; readonly id: string }
  | { readonly kind: 'cluster'; readonly what: string };

/** Where the failure of background work is logged: a sentence naming the owner, and the error (with its stack). */
export type FailureLog = (message: string, error: unknown) => void;

/**
 * The boundary of background work: an error escaping the work of one allocation, deployment or
 * job marks that one failed (a task event, a status description, a failed evaluation), goes to the
 * log with its stack, and goes no further: the process and every other job go on.
 */
export interface Containment {
  /** Runs `fn` for `owner`; what it throws is contained. */
  run(owner: WorkOwner, fn: () => void): void;
  /** Contains an error already caught (a rejected promise). */
  fail(owner: WorkOwner, error: unknown): void;
  /** Logs a failure handled elsewhere (an evaluation marked failed by the queue). */
  readonly log: FailureLog;
  /** Connects what marks an allocation failed (the client's update and the run's end; late bound). */
  connect(parts: { update: AllocUpdate; abandonRun: (allocId: string) => void }): void;
}

/** The error's message, one line. */
export function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.split('\n')[0] ?? text;
}

/** A state for a task whose recorded state is missing or malformed (so the failure can be written). */
function usableState(state: unknown): TaskState {
  const s = state as Partial<TaskState> | null | undefined;
  return {
    State: TaskStateName.Pending,
    Failed: false,
    Restarts: 0,
    LastRestart: null,
    StartedAt: null,
    FinishedAt: null,
    ...(typeof s === 'object' && s !== null ? s : {}),
    Events: Array.isArray(s?.Events) ? s.Events : [],
  };
}

/**
 * Creates the containment of a cluster's background work.
 * @param ctx - The core context (its store is where failures are recorded).
 * @param log - Where failures are logged.
 * @returns the containment.
 */
export function createContainment(ctx: Omit<CoreContext, 'contain'>, log: FailureLog): Containment {
  const { store } = ctx;
  let parts: { update: AllocUpdate; abandonRun: (allocId: string) => void } | undefined;

  /** Every task of the allocation dead and failed, with an event saying why (rebuilt if unreadable). */
  const failAllocation = (id: string, reason: string): void => {
    parts?.abandonRun(id);
    const event = (): TaskEvent => ({
      ...newTaskEvent(TaskEventType.DriverFailure, ctx.nowNs()),
      DriverError: reason,
      FailsTask: true,
      DisplayMessage: `Client error: ${reason}`,
      Details: {},
      GenericSource: '',
    });
    store.write((tx) => {
      const a = tx.get('allocs', id);
      if (!a || clientTerminal(a)) return;
      const states = nullRecord<TaskState>();
      const names = new Set([
        ...Object.keys(a.TaskStates ?? {}),
        ...(a.Job?.TaskGroups.find((g) => g.Name === a.TaskGroup)?.Tasks.map((t) => t.Name) ?? []),
      ]);
      for (const name of names) {
        const before = usableState(Object.getOwnPropertyDescriptor(a.TaskStates ?? {}, name)?.value);
        states[name] = {
          ...before,
          State: TaskStateName.Dead,
          Failed: true,
          FinishedAt: before.FinishedAt ?? iso(ctx.nowMs()),
          Events: [...before.Events, event()].slice(-10),
        };
      }
      tx.put('allocs', {
        ...a,
        TaskStates: states,
        ClientStatus: AllocClientStatus.Failed,
        ClientDescription: `Failed tasks: ${reason}`,
        ModifyIndex: tx.index,
        ModifyTime: ctx.nowNs(),
      });
    });
    // The client's own bookkeeping of a finished allocation (capacity, claims, reschedule).
    parts?.update(id, () => undefined);
  };

  const failDeployment = (id: string, reason: string): void => {
    store.write((tx) => {
      const d = tx.get('deployments', id);
      if (!d || d.Status !== DeploymentStatus.Running) return;
      tx.put('deployments', {
        ...d,
        Status: DeploymentStatus.Failed,
        StatusDescription: `Failed due to an internal error: ${reason}`,
        ModifyIndex: tx.index,
        ModifyTime: ctx.nowNs(),
      });
    });
  };

  /** A failed evaluation of the job that says what went wrong (the job's evaluations list shows it). */
  const failJob = (namespace: string, id: string, reason: string): void => {
    store.write((tx) => {
      const job = tx.get('jobs', jobKey(namespace, id));
      if (!job) return;
      tx.put(
        'evals',
        newEvaluation({
          ...evalIdentity(job, ctx.newId(), tx.index, ctx.nowNs()),
          Priority: job.Priority,
          TriggeredBy: EvalTriggeredBy.PeriodicJob,
          Status: EvalStatus.Failed,
          StatusDescription: `internal error in the job's background work: ${reason}`,
        }),
      );
    });
  };

  const name = (owner: WorkOwner): string =>
    owner.kind === 'cluster'
      ? `the cluster's ${owner.what}`
      : owner.kind === 'job'
        ? `job ${JSON.stringify(owner.id)} in namespace ${JSON.stringify(owner.namespace)}`
        : `${owner.kind} ${owner.id}`;

  const fail = (owner: WorkOwner, error: unknown): void => {
    const reason = describeError(error);
    const marked = owner.kind === 'cluster' ? '' : '; it is marked failed';
    log(`sked-server: background work of ${name(owner)} failed${marked}: ${reason}`, error);
    if (ctx.timers.closed) return;
    try {
      if (owner.kind === 'allocation') failAllocation(owner.id, reason);
      else if (owner.kind === 'deployment') failDeployment(owner.id, reason);
      else if (owner.kind === 'job') failJob(owner.namespace, owner.id, reason);
    } catch (again) {
      log(`sked-server: ${name(owner)} could not be marked failed: ${describeError(again)}`, again);
    }
  };

  return {
    run(owner, fn) {
      try {
        fn();
      } catch (error) {
        fail(owner, error);
      }
    },
    fail,
    log,
    connect(p) {
      parts = p;
    },
  };
}
