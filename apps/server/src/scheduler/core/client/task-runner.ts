import { formatGoDuration, ownValue, TaskEventType, TaskStateName } from '@sked/model';
import type { CoreContext } from '../context.js';
import type { DriverTaskEvent, TaskDriver } from '../drivers/driver.js';
import { iso } from '../internal/ids.js';
import type { TaskEvent, TaskState } from '../types.js';
import { createExitHandler } from './task-exit.js';
import type { AllocRun, AllocUpdate } from './runs.js';
import { buildTaskDir } from './task-dir.js';
import { taskEnv, taskPlace } from './task-env.js';
import { addEvent, taskEvent } from './task-events.js';

/** What a task runner needs around it (wired by client-sim.ts). */
export interface TaskRunnerDeps {
  readonly drivers: ReadonlyMap<string, TaskDriver>;
  readonly update: AllocUpdate;
  readonly taskDir: (allocId: string, task: string) => string;
  /** A task died for good: the alloc runner moves to its next lifecycle phase. */
  readonly advancePhase: (run: AllocRun) => void;
  /** A task started: the health check of a deployment's allocation may begin. */
  readonly checkHealthy: (run: AllocRun) => void;
}

/** Runs tasks on drivers: start, driver events, exits (through the restart policy), kills. */
export interface TaskRunner {
  readonly startTask: (run: AllocRun, name: string) => void;
  readonly killTask: (run: AllocRun, name: string, delayMs: number, reason: string) => void;
}

const dead = (s: TaskState | undefined, fields: Partial<TaskState>): void => {
  if (s) Object.assign(s, { State: TaskStateName.Dead, ...fields });
};

/** Creates the task runner. */
export function createTaskRunner(ctx: CoreContext, deps: TaskRunnerDeps): TaskRunner {
  const { store } = ctx;
  const { update } = deps;
  const envSource = { region: ctx.region, state: store.view, taskDir: deps.taskDir };
  const ev = (type: TaskEventType, fields: Partial<TaskEvent> = {}, at = ctx.nowMs()): TaskEvent =>
    taskEvent(type, at, fields);

  /** A task that cannot start: the event, and the task dead and failed. */
  const exits = createExitHandler(ctx, {
    update,
    startTask: (run, name) => startTask(run, name),
    killTask: (run, name, delayMs, reason) => killTask(run, name, delayMs, reason),
    advancePhase: deps.advancePhase,
  });

  /** A task that cannot start: the event, and the task dead and failed. */
  const failStart = (run: AllocRun, name: string, e: TaskEvent): void => {
    update(run.id, (_x, states) => {
      addEvent(states, name, e);
      dead(ownValue(states, name), { Failed: true, FinishedAt: iso(ctx.nowMs()) });
    });
  };

  const startTask = (run: AllocRun, name: string): void => {
    const tr = run.tasks.get(name);
    const a = store.allocs.get(run.id);
    if (!tr || !a || run.stopping || ctx.timers.closed) return;
    const dir = deps.taskDir(run.id, name);
    try {
      buildTaskDir(dir, tr.task, a);
    } catch (error) {
      failStart(
        run,
        name,
        ev(TaskEventType.SetupFailure, {
          SetupError: String(error),
          FailsTask: true,
          DisplayMessage: `failed to build task directory: ${String(error)}`,
        }),
      );
      return;
    }
    const driver = deps.drivers.get(tr.task.Driver);
    if (!driver) {
      failStart(
        run,
        name,
        ev(TaskEventType.DriverFailure, {
          DriverError: `missing driver "${tr.task.Driver}"`,
          FailsTask: true,
          DisplayMessage: `Failed to start task: missing driver "${tr.task.Driver}"`,
        }),
      );
      return;
    }
    tr.dead = false;
    const owner = { kind: 'allocation', id: run.id } as const;
    const env = taskEnv(a, tr.task, taskPlace(envSource, a, name));
    tr.handle = driver.start(
      { allocId: run.id, taskName: name, config: tr.task.Config ?? {}, env, dir },
      {
        // A driver reports from its own timers and processes: what the runner throws stays with the allocation.
        event: (e) => ctx.contain.run(owner, () => onDriverEvent(run, name, e)),
        exited: (r) => ctx.contain.run(owner, () => exits.onExit(run, name, r)),
      },
    );
  };

  const onDriverEvent = (run: AllocRun, name: string, e: DriverTaskEvent): void => {
    if (run.closed) return;
    update(run.id, (_a, states) => {
      const s = ownValue(states, name);
      if (!s) return;
      addEvent(
        states,
        name,
        ev(e.Type, { ...e, DisplayMessage: e.Message ?? e.DriverMessage ?? '' } as Partial<TaskEvent>),
      );
      if (e.Type === TaskEventType.Started) {
        s.State = TaskStateName.Running;
        s.StartedAt = iso(ctx.nowMs());
      }
    });
    if (e.Type === TaskEventType.Started) deps.checkHealthy(run);
  };

  const killTask = (run: AllocRun, name: string, delayMs: number, reason: string): void => {
    const tr = run.tasks.get(name);
    if (!tr || tr.dead || tr.killing) return;
    tr.killing = true;
    tr.timer?.cancel();
    const go = (): void => {
      if (!tr.handle) {
        tr.dead = true;
        update(run.id, (_x, states) => {
          const s = ownValue(states, name);
          if (s && s.State !== TaskStateName.Dead) {
            addEvent(states, name, ev(TaskEventType.Killed, { DisplayMessage: 'Task successfully killed' }));
            dead(s, { FinishedAt: iso(ctx.nowMs()) });
          }
        });
        return;
      }
      update(run.id, (_x, states) =>
        addEvent(
          states,
          name,
          ev(TaskEventType.Killing, {
            KillTimeout: tr.task.KillTimeout,
            KillReason: reason,
            DisplayMessage: `Sent interrupt. Waiting ${formatGoDuration(tr.task.KillTimeout)} before force killing`,
          }),
        ),
      );
      tr.handle
        .stop({ signal: tr.task.KillSignal || 'SIGINT', timeoutMs: tr.task.KillTimeout / 1e6 })
        .catch((error: unknown) => ctx.contain.fail({ kind: 'allocation', id: run.id }, error));
    };
    if (delayMs > 0) ctx.timers.later(go, delayMs, { kind: 'allocation', id: run.id });
    else go();
  };

  return { startTask, killTask };
}
