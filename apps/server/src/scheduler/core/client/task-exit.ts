import { formatGoDuration, JobType, ownValue, TaskEventType, TaskStateName } from '@sked/model';
import type { CoreContext } from '../context.js';
import { iso } from '../internal/ids.js';
import type { TaskEvent, TaskState } from '../types.js';
import { decideRestart } from './restart-policy.js';
import { ephemeral, type AllocRun, type AllocUpdate, type TaskRun } from './runs.js';
import { addEvent, taskEvent } from './task-events.js';

/** How a task's process ended, as its driver reports it. */
export type Exit = { exitCode: number; signal?: number; failed: boolean; error?: string };

/** What the exit handler needs (the task runner's own functions, the alloc runner's phase step). */
export interface ExitDeps {
  readonly update: AllocUpdate;
  readonly startTask: (run: AllocRun, name: string) => void;
  readonly killTask: (run: AllocRun, name: string, delayMs: number, reason: string) => void;
  readonly advancePhase: (run: AllocRun) => void;
}

const dead = (s: TaskState | undefined, fields: Partial<TaskState>): void => {
  if (s) Object.assign(s, { State: TaskStateName.Dead, ...fields });
};

/** The exit event: a driver failure (unless the driver reported it already) or Terminated. */
function exitEvent(states: Record<string, TaskState>, name: string, r: Exit, now: number): void {
  const s = ownValue(states, name);
  if (r.error !== undefined) {
    if (s?.Events.at(-1)?.Type !== TaskEventType.DriverFailure)
      addEvent(
        states,
        name,
        taskEvent(TaskEventType.DriverFailure, now, {
          DriverError: r.error,
          DisplayMessage: `Failed to start task: ${r.error}`,
        }),
      );
    return;
  }
  const signal = r.signal ? `, Signal: ${r.signal}` : '';
  addEvent(
    states,
    name,
    taskEvent(TaskEventType.Terminated, now, {
      ExitCode: r.exitCode,
      Signal: r.signal ?? 0,
      DisplayMessage: `Exit Code: ${r.exitCode}${signal}`,
    }),
  );
}

/**
 * Handles a task's exit: a kill completes, a user restart starts it again, otherwise the restart
 * policy decides; a task dead for good takes its siblings down when it failed or led, or moves the
 * allocation to its next lifecycle phase.
 */
export function createExitHandler(
  ctx: CoreContext,
  deps: ExitDeps,
): { readonly onExit: (run: AllocRun, name: string, r: Exit) => void } {
  const { store } = ctx;
  const { update, startTask, killTask } = deps;
  const ev = (type: TaskEventType, fields: Partial<TaskEvent> = {}, at = ctx.nowMs()): TaskEvent =>
    taskEvent(type, at, fields);

  /** A task killed (or stopped with its allocation) exited. */
  const onKilled = (run: AllocRun, tr: TaskRun, name: string, now: number): void => {
    tr.dead = true;
    update(run.id, (_x, states) => {
      addEvent(states, name, ev(TaskEventType.Killed, { DisplayMessage: 'Task successfully killed' }, now));
      dead(ownValue(states, name), { FinishedAt: iso(now) });
    });
  };

  /** A task restarted by the user exited: it starts again at once. */
  const onUserRestart = (run: AllocRun, tr: TaskRun, name: string, r: Exit, now: number): void => {
    tr.userRestart = false;
    update(run.id, (_x, states) => {
      addEvent(
        states,
        name,
        ev(
          TaskEventType.Terminated,
          { ExitCode: r.exitCode, Signal: r.signal ?? 0, DisplayMessage: `Exit Code: ${r.exitCode}` },
          now,
        ),
      );
      addEvent(
        states,
        name,
        ev(
          TaskEventType.Restarting,
          { RestartReason: 'User requested restart', StartDelay: 0, DisplayMessage: 'Task restarting in 0s' },
          now,
        ),
      );
      const s = ownValue(states, name);
      if (s)
        Object.assign(s, { State: TaskStateName.Pending, Restarts: s.Restarts + 1, LastRestart: iso(now) });
    });
    startTask(run, name);
  };

  /** A task exited on its own: the restart policy decides. */
  const onPolicyExit = (run: AllocRun, tr: TaskRun, name: string, r: Exit, now: number): void => {
    const type = store.allocs.get(run.id)?.Job?.Type ?? JobType.Service;
    const decision = decideRestart({
      policy: tr.task.RestartPolicy,
      restarts: tr.restarts,
      nowMs: now,
      success: !r.failed && r.exitCode === 0,
      runsToCompletion: type === JobType.Batch || type === JobType.SysBatch || ephemeral(tr.task),
    });
    update(run.id, (_x, states) => {
      const s = ownValue(states, name);
      if (!s) return;
      exitEvent(states, name, r, now);
      if (decision.action === 'finish') dead(s, { Failed: decision.failed, FinishedAt: iso(now) });
      else if (decision.action === 'fail') {
        addEvent(
          states,
          name,
          ev(
            TaskEventType.NotRestarting,
            { RestartReason: decision.reason, FailsTask: true, DisplayMessage: decision.reason },
            now,
          ),
        );
        dead(s, { Failed: true, FinishedAt: iso(now) });
        tr.dead = true;
      } else {
        addEvent(
          states,
          name,
          ev(
            TaskEventType.Restarting,
            {
              RestartReason: decision.reason,
              StartDelay: decision.startDelayNs,
              DisplayMessage: `Task restarting in ${formatGoDuration(decision.startDelayNs)}`,
            },
            now,
          ),
        );
        Object.assign(s, { State: TaskStateName.Pending });
        s.Restarts += 1;
        s.LastRestart = iso(now);
        tr.restarts = decision.restarts;
        tr.timer = ctx.timers.later(() => startTask(run, name), decision.delayMs, {
          kind: 'allocation',
          id: run.id,
        });
      }
    });
    afterExit(run, tr, name, now);
  };

  /** A task that died for good: a failed task or a dead leader takes its siblings down. */
  const afterExit = (run: AllocRun, tr: TaskRun, name: string, now: number): void => {
    const state = ownValue(store.allocs.get(run.id)?.TaskStates, name);
    if (state?.State !== TaskStateName.Dead) return;
    tr.dead = true;
    const failed = state.Failed;
    if (!failed && !tr.task.Leader) {
      deps.advancePhase(run);
      return;
    }
    for (const [other, otr] of run.tasks) {
      if (other === name || otr.dead) continue;
      update(run.id, (_x, states) =>
        addEvent(
          states,
          other,
          failed
            ? ev(
                TaskEventType.SiblingFailed,
                { FailedSibling: name, DisplayMessage: `Task's sibling "${name}" failed` },
                now,
              )
            : ev(TaskEventType.LeaderDead, { DisplayMessage: 'Leader Task in Group dead' }, now),
        ),
      );
      killTask(run, other, 0, failed ? `Sibling task "${name}" failed` : 'Leader task dead');
    }
  };

  const onExit = (run: AllocRun, name: string, r: Exit): void => {
    const tr = run.tasks.get(name);
    if (!tr || run.closed) return;
    tr.handle = undefined;
    if (!store.allocs.get(run.id)) return;
    const now = ctx.nowMs();
    if (tr.killing || run.stopping) onKilled(run, tr, name, now);
    else if (tr.userRestart) onUserRestart(run, tr, name, r, now);
    else onPolicyExit(run, tr, name, r, now);
  };

  return { onExit };
}
