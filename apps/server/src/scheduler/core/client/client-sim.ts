import { AllocDesiredStatus, ownValue, TaskEventType, TaskStateName } from '@sked/model';
import type { CoreContext } from '../context.js';
import type { TaskDriver } from '../drivers/driver.js';
import { badRequest, notFound } from '../errors.js';
import { clientTerminal } from '../internal/status.js';
import type { Allocation, TaskEvent } from '../types.js';
import { createAllocRunner, type AllocRunner } from './alloc-runner.js';
import { createHealthChecks, type ReportHealth } from './health.js';
import type { AllocRun, AllocUpdate } from './runs.js';
import { createTaskRunner } from './task-runner.js';
import { addEvent, taskEvent } from './task-events.js';

/** What the simulated client needs from the server side (wired by cluster.ts). */
export interface ClientDeps {
  readonly drivers: ReadonlyMap<string, TaskDriver>;
  /** The client's allocation update write (allocs/client-update.ts). */
  readonly update: AllocUpdate;
  readonly reportHealth: ReportHealth;
  readonly taskDir: (allocId: string, task: string) => string;
}

/** The simulated client nodes' side: alloc runners, and the user's signals and restarts of tasks. */
export interface ClientSim extends Pick<AllocRunner, 'startRun' | 'stopRun' | 'abandonRun' | 'finishRun'> {
  /** Records a user's task event on the live tasks of an allocation and sends the signal. */
  readonly signal: (allocId: string, task: string | undefined, signal: string) => void;
  /** Records the restart on the live tasks of an allocation and restarts them in place. */
  readonly restart: (allocId: string, task: string | undefined) => void;
  /** Stops every task (bounded wait), for close. */
  readonly close: () => Promise<void>;
}

/** The running tasks a user's signal or restart applies to (the one named, or all). */
function liveTasks(a: Allocation, task: string | undefined): string[] {
  if (clientTerminal(a) || a.DesiredStatus !== AllocDesiredStatus.Run)
    throw badRequest(`Allocation "${a.ID}" is not running`);
  const names = Object.keys(a.TaskStates ?? {});
  if (task) {
    if (!names.includes(task)) throw badRequest(`Task "${task}" not found in allocation "${a.ID}"`);
    if (ownValue(a.TaskStates, task)?.State !== TaskStateName.Running)
      throw badRequest(`Task "${task}" is not running`);
    return [task];
  }
  const running = names.filter((n) => ownValue(a.TaskStates, n)?.State === TaskStateName.Running);
  if (running.length === 0) throw badRequest(`Allocation "${a.ID}" has no running tasks`);
  return running;
}

/** Creates the client simulation. */
export function createClientSim(ctx: CoreContext, deps: ClientDeps): ClientSim {
  const runs = new Map<string, AllocRun>();
  const health = createHealthChecks(ctx, deps.reportHealth);
  const tasks = createTaskRunner(ctx, {
    drivers: deps.drivers,
    update: deps.update,
    taskDir: deps.taskDir,
    advancePhase: (run) => allocs.advancePhase(run),
    checkHealthy: health.checkHealthy,
  });
  const allocs = createAllocRunner(ctx, {
    runs,
    update: deps.update,
    tasks,
    armDeadline: health.armDeadline,
  });

  /** Records a user's task event on the live tasks of an allocation (the one named, or all of them). */
  const userTaskEvent = (
    allocId: string,
    task: string | undefined,
    type: TaskEventType,
    fields: Partial<TaskEvent>,
  ): { names: string[]; run: AllocRun | undefined } => {
    const a = ctx.store.allocs.get(allocId);
    if (!a) throw notFound('alloc not found');
    const names = liveTasks(a, task);
    const run = runs.get(a.ID);
    deps.update(a.ID, (_x, states) => {
      for (const t of names) addEvent(states, t, taskEvent(type, ctx.nowMs(), fields));
    });
    return { names, run };
  };

  return {
    startRun: allocs.startRun,
    stopRun: allocs.stopRun,
    abandonRun: allocs.abandonRun,
    finishRun: allocs.finishRun,
    signal(allocId, task, signal) {
      const { names, run } = userTaskEvent(allocId, task, TaskEventType.Signaling, {
        TaskSignal: signal,
        TaskSignalReason: 'User requested signal',
        DisplayMessage: `Task being sent signal ${signal}: User requested signal`,
      });
      for (const t of names) run?.tasks.get(t)?.handle?.signal(signal);
    },
    restart(allocId, task) {
      const { names, run } = userTaskEvent(allocId, task, TaskEventType.RestartSignal, {
        RestartReason: 'User requested restart',
        DisplayMessage: 'User requested task to restart',
      });
      for (const t of names) {
        const tr = run?.tasks.get(t);
        if (!tr?.handle) continue;
        tr.userRestart = true;
        void tr.handle.stop({ signal: tr.task.KillSignal || 'SIGINT', timeoutMs: tr.task.KillTimeout / 1e6 });
      }
    },
    async close() {
      const stops: Promise<void>[] = [];
      for (const run of runs.values())
        for (const tr of run.tasks.values())
          if (tr.handle) stops.push(tr.handle.stop({ timeoutMs: 100 }).catch(() => undefined));
      runs.clear();
      await Promise.race([Promise.all(stops), new Promise((r) => setTimeout(r, 500))]);
    },
  };
}
