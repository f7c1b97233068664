import { ownValue, TaskEventType, TaskStateName } from '@sked/model';
import type { CoreContext } from '../context.js';
import { iso } from '../internal/ids.js';
import { clientTerminal } from '../internal/status.js';
import type { Task } from '../types.js';
import { hookOf, ephemeral, type AllocRun, type AllocUpdate, type TaskRun } from './runs.js';
import type { TaskRunner } from './task-runner.js';
import { addEvent, taskEvent } from './task-events.js';

/** What the alloc runner needs around it (wired by client-sim.ts). */
export interface AllocRunnerDeps {
  readonly runs: Map<string, AllocRun>;
  readonly update: AllocUpdate;
  readonly tasks: TaskRunner;
  /** Arms the healthy-deadline timer of an allocation of a deployment. */
  readonly armDeadline: (run: AllocRun) => void;
}

/** Runs allocations on the simulated client: receive, lifecycle phases, stop, abandon. */
export interface AllocRunner {
  readonly startRun: (allocId: string) => void;
  readonly advancePhase: (run: AllocRun) => void;
  readonly stopRun: (allocId: string, skipDelay: boolean) => void;
  readonly abandonRun: (allocId: string) => void;
  readonly finishRun: (allocId: string) => void;
}

const newTaskRun = (task: Task): TaskRun => ({
  task,
  handle: undefined,
  restarts: [],
  timer: undefined,
  dead: false,
  killing: false,
  userRestart: false,
});

/** Creates the alloc runner. */
export function createAllocRunner(ctx: CoreContext, deps: AllocRunnerDeps): AllocRunner {
  const { store, timing } = ctx;
  const { runs, update, tasks: taskRunner } = deps;

  const setupAndStart = (run: AllocRun, tasks: readonly Task[]): void => {
    for (const t of tasks) {
      update(run.id, (_x, states) => {
        addEvent(
          states,
          t.Name,
          taskEvent(TaskEventType.TaskSetup, ctx.nowMs(), {
            Message: 'Building Task Directory',
            DisplayMessage: 'Building Task Directory',
          }),
        );
      });
      taskRunner.startTask(run, t.Name);
    }
  };

  const startMain = (run: AllocRun, tasks: readonly Task[]): void => {
    run.phase = 'main';
    setupAndStart(
      run,
      tasks.filter((t) => hookOf(t) === '' || hookOf(t) === 'poststart'),
    );
  };

  /** Moves an allocation through its lifecycle phases: prestart -> main (+ poststart) -> poststop. */
  const advancePhase = (run: AllocRun): void => {
    if (run.stopping || run.closed) return;
    const states = store.allocs.get(run.id)?.TaskStates ?? {};
    const tasks = [...run.tasks.values()].map((tr) => tr.task);
    const dead = (t: Task): boolean => ownValue(states, t.Name)?.State === TaskStateName.Dead;
    if (run.phase === 'prestart') {
      const pre = tasks.filter((t) => hookOf(t) === 'prestart' && ephemeral(t));
      if (pre.every((t) => dead(t) && ownValue(states, t.Name)?.Failed !== true)) startMain(run, tasks);
      return;
    }
    if (run.phase !== 'main') return;
    const main = tasks.filter((t) => hookOf(t) === '');
    if (main.length === 0 || !main.every(dead)) return;
    run.phase = 'poststop';
    for (const t of tasks)
      if (hookOf(t) !== '' && hookOf(t) !== 'poststop' && !dead(t))
        taskRunner.killTask(run, t.Name, 0, 'main tasks are dead');
    const post = tasks.filter((t) => hookOf(t) === 'poststop');
    if (post.length > 0) setupAndStart(run, post);
  };

  const startRun = (allocId: string): void => {
    const a = store.allocs.get(allocId);
    if (!a || ctx.timers.closed) return;
    const group = a.Job?.TaskGroups.find((g) => g.Name === a.TaskGroup);
    if (!group) return;
    const run: AllocRun = {
      id: allocId,
      tasks: new Map(group.Tasks.map((t) => [t.Name, newTaskRun(t)])),
      stopping: false,
      closed: false,
      phase: 'prestart',
      healthTimer: undefined,
      deadlineTimer: undefined,
    };
    runs.set(allocId, run);
    const owner = { kind: 'allocation', id: allocId } as const;
    ctx.timers.later(
      () => {
        if (run.stopping) return;
        update(allocId, (_x, states) => {
          for (const t of group.Tasks)
            addEvent(
              states,
              t.Name,
              taskEvent(TaskEventType.Received, ctx.nowMs(), { DisplayMessage: 'Task received by client' }),
            );
        });
        ctx.timers.later(
          () => {
            if (run.stopping) return;
            const prestart = group.Tasks.filter((t) => hookOf(t) === 'prestart');
            if (prestart.length > 0) setupAndStart(run, prestart);
            else startMain(run, group.Tasks);
          },
          timing.clientDelayMs / 2,
          owner,
        );
      },
      timing.clientDelayMs,
      owner,
    );
    if (a.DeploymentID && group.Update) deps.armDeadline(run);
  };

  const stopRun = (allocId: string, skipDelay: boolean): void => {
    const run = runs.get(allocId);
    if (!run) {
      // Never started by a client: finish it directly.
      update(allocId, (a, states) => {
        if (clientTerminal(a)) return;
        for (const [n, s] of Object.entries(states))
          if (s.State !== TaskStateName.Dead) {
            addEvent(
              states,
              n,
              taskEvent(TaskEventType.Killed, ctx.nowMs(), { DisplayMessage: 'Task successfully killed' }),
            );
            Object.assign(s, { State: TaskStateName.Dead, FinishedAt: iso(ctx.nowMs()) });
          }
      });
      return;
    }
    if (run.stopping) return;
    run.stopping = true;
    run.healthTimer?.cancel();
    run.deadlineTimer?.cancel();
    const a = store.allocs.get(allocId);
    const group = a?.Job?.TaskGroups.find((g) => g.Name === a.TaskGroup);
    const delay = skipDelay ? 0 : (group?.ShutdownDelay ?? 0) / 1e6;
    for (const [name, tr] of run.tasks)
      taskRunner.killTask(run, name, delay + (skipDelay ? 0 : tr.task.ShutdownDelay / 1e6), 'alloc stopped');
  };

  const finishRun = (allocId: string): void => {
    const run = runs.get(allocId);
    if (!run) return;
    run.closed = true;
    run.healthTimer?.cancel();
    run.deadlineTimer?.cancel();
    for (const tr of run.tasks.values()) tr.timer?.cancel();
    runs.delete(allocId);
  };

  /** Ends a run whose node is gone: drivers are stopped, nothing more is reported. */
  const abandonRun = (allocId: string): void => {
    const run = runs.get(allocId);
    if (!run) return;
    finishRun(allocId);
    for (const tr of run.tasks.values()) void tr.handle?.stop({ timeoutMs: 0 }).catch(() => undefined);
  };

  return { startRun, advancePhase, stopRun, abandonRun, finishRun };
}
