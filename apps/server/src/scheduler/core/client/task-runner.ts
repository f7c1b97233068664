import type { CoreContext } from '../context.js';
import type { DriverTaskEvent, TaskDriver } from '../drivers/driver.js';
import { formatDuration } from '../internal/duration.js';
import { iso } from '../internal/ids.js';
import type { TaskEvent, TaskState } from '../types.js';
import { decideRestart } from './restart-policy.js';
import { ephemeral, type AllocRun, type AllocUpdate, type TaskRun } from './runs.js';
import { buildTaskDir } from './task-dir.js';
import { taskEnv } from './task-env.js';
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

type Exit = { exitCode: number; signal?: number; failed: boolean; error?: string };

const dead = (s: TaskState | undefined, fields: Partial<TaskState>): void => {
  if (s) Object.assign(s, { State: 'dead', ...fields });
};

/** Creates the task runner. */
export function createTaskRunner(ctx: CoreContext, deps: TaskRunnerDeps): TaskRunner {
  const { store } = ctx;
  const { update } = deps;
  const ev = (type: string, fields: Partial<TaskEvent> = {}, at = ctx.nowMs()): TaskEvent =>
    taskEvent(type, at, fields);

  /** A task that cannot start: the event, and the task dead and failed. */
  const failStart = (run: AllocRun, name: string, e: TaskEvent): void => {
    update(run.id, (_x, states) => {
      addEvent(states, name, e);
      dead(states[name], { Failed: true, FinishedAt: iso(ctx.nowMs()) });
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
        ev('Setup Failure', {
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
        ev('Driver Failure', {
          DriverError: `missing driver "${tr.task.Driver}"`,
          FailsTask: true,
          DisplayMessage: `Failed to start task: missing driver "${tr.task.Driver}"`,
        }),
      );
      return;
    }
    tr.dead = false;
    const env = taskEnv(a, tr.task, {
      region: ctx.region,
      datacenter: store.nodes.get(a.NodeID)?.Datacenter ?? '',
      dir,
    });
    tr.handle = driver.start(
      { allocId: run.id, taskName: name, config: tr.task.Config ?? {}, env, dir },
      { event: (e) => onDriverEvent(run, name, e), exited: (r) => onExit(run, name, r) },
    );
  };

  const onDriverEvent = (run: AllocRun, name: string, e: DriverTaskEvent): void => {
    if (run.closed) return;
    update(run.id, (_a, states) => {
      const s = states[name];
      if (!s) return;
      addEvent(
        states,
        name,
        ev(e.Type, { ...e, DisplayMessage: e.Message ?? e.DriverMessage ?? '' } as Partial<TaskEvent>),
      );
      if (e.Type === 'Started') {
        s.State = 'running';
        s.StartedAt = iso(ctx.nowMs());
      }
    });
    if (e.Type === 'Started') deps.checkHealthy(run);
  };

  /** A task killed (or stopped with its allocation) exited. */
  const onKilled = (run: AllocRun, tr: TaskRun, name: string, now: number): void => {
    tr.dead = true;
    update(run.id, (_x, states) => {
      addEvent(states, name, ev('Killed', { DisplayMessage: 'Task successfully killed' }, now));
      dead(states[name], { FinishedAt: iso(now) });
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
          'Terminated',
          { ExitCode: r.exitCode, Signal: r.signal ?? 0, DisplayMessage: `Exit Code: ${r.exitCode}` },
          now,
        ),
      );
      addEvent(
        states,
        name,
        ev(
          'Restarting',
          { RestartReason: 'User requested restart', StartDelay: 0, DisplayMessage: 'Task restarting in 0s' },
          now,
        ),
      );
      const s = states[name];
      if (s) Object.assign(s, { State: 'pending', Restarts: s.Restarts + 1, LastRestart: iso(now) });
    });
    startTask(run, name);
  };

  /** The exit event: a driver failure (unless the driver reported it already) or Terminated. */
  const exitEvent = (states: Record<string, TaskState>, name: string, r: Exit, now: number): void => {
    const s = states[name];
    if (r.error !== undefined) {
      if (s?.Events.at(-1)?.Type !== 'Driver Failure')
        addEvent(
          states,
          name,
          ev(
            'Driver Failure',
            { DriverError: r.error, DisplayMessage: `Failed to start task: ${r.error}` },
            now,
          ),
        );
      return;
    }
    const signal = r.signal ? `, Signal: ${r.signal}` : '';
    addEvent(
      states,
      name,
      ev(
        'Terminated',
        { ExitCode: r.exitCode, Signal: r.signal ?? 0, DisplayMessage: `Exit Code: ${r.exitCode}${signal}` },
        now,
      ),
    );
  };

  /** A task exited on its own: the restart policy decides. */
  const onPolicyExit = (run: AllocRun, tr: TaskRun, name: string, r: Exit, now: number): void => {
    const type = store.allocs.get(run.id)?.Job?.Type ?? 'service';
    const decision = decideRestart({
      policy: tr.task.RestartPolicy,
      restarts: tr.restarts,
      nowMs: now,
      success: !r.failed && r.exitCode === 0,
      runsToCompletion: type === 'batch' || type === 'sysbatch' || ephemeral(tr.task),
    });
    update(run.id, (_x, states) => {
      const s = states[name];
      if (!s) return;
      exitEvent(states, name, r, now);
      if (decision.action === 'finish') dead(s, { Failed: decision.failed, FinishedAt: iso(now) });
      else if (decision.action === 'fail') {
        addEvent(
          states,
          name,
          ev(
            'Not Restarting',
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
            'Restarting',
            {
              RestartReason: decision.reason,
              StartDelay: decision.startDelayNs,
              DisplayMessage: `Task restarting in ${formatDuration(decision.startDelayNs)}`,
            },
            now,
          ),
        );
        Object.assign(s, { State: 'pending' });
        s.Restarts += 1;
        s.LastRestart = iso(now);
        tr.restarts = decision.restarts;
        tr.timer = ctx.timers.later(() => startTask(run, name), decision.delayMs);
      }
    });
    afterExit(run, tr, name, now);
  };

  /** A task that died for good: a failed task or a dead leader takes its siblings down. */
  const afterExit = (run: AllocRun, tr: TaskRun, name: string, now: number): void => {
    const state = store.allocs.get(run.id)?.TaskStates?.[name];
    if (state?.State !== 'dead') return;
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
                'Sibling Task Failed',
                { FailedSibling: name, DisplayMessage: `Task's sibling "${name}" failed` },
                now,
              )
            : ev('Leader Task Dead', { DisplayMessage: 'Leader Task in Group dead' }, now),
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

  const killTask = (run: AllocRun, name: string, delayMs: number, reason: string): void => {
    const tr = run.tasks.get(name);
    if (!tr || tr.dead || tr.killing) return;
    tr.killing = true;
    tr.timer?.cancel();
    const go = (): void => {
      if (!tr.handle) {
        tr.dead = true;
        update(run.id, (_x, states) => {
          const s = states[name];
          if (s && s.State !== 'dead') {
            addEvent(states, name, ev('Killed', { DisplayMessage: 'Task successfully killed' }));
            dead(s, { FinishedAt: iso(ctx.nowMs()) });
          }
        });
        return;
      }
      update(run.id, (_x, states) =>
        addEvent(
          states,
          name,
          ev('Killing', {
            KillTimeout: tr.task.KillTimeout,
            KillReason: reason,
            DisplayMessage: `Sent interrupt. Waiting ${formatDuration(tr.task.KillTimeout)} before force killing`,
          }),
        ),
      );
      void tr.handle.stop({ signal: tr.task.KillSignal || 'SIGINT', timeoutMs: tr.task.KillTimeout / 1e6 });
    };
    if (delayMs > 0) ctx.timers.later(go, delayMs);
    else go();
  };

  return { startTask, killTask };
}
