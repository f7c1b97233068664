import { ownValue, TaskStateName } from '@sked/model';
import type { TimerHandle } from '../clock.js';
import type { TaskHandle } from '../drivers/driver.js';
import type { Allocation, Task, TaskState } from '../types.js';

/** The client's state of one task of an allocation. */
export interface TaskRun {
  readonly task: Task;
  handle: TaskHandle | undefined;
  /** Times (ms) of the restarts in the current interval. */
  restarts: readonly number[];
  timer: TimerHandle | undefined;
  dead: boolean;
  killing: boolean;
  userRestart: boolean;
}

/** The client's state of one allocation (the alloc runner). */
export interface AllocRun {
  readonly id: string;
  phase: 'prestart' | 'main' | 'poststop';
  readonly tasks: Map<string, TaskRun>;
  stopping: boolean;
  closed: boolean;
  healthTimer: TimerHandle | undefined;
  deadlineTimer: TimerHandle | undefined;
}

/** A client-side change of an allocation's task states, written as one store write. */
export type AllocUpdate = (
  allocId: string,
  fn: (a: Allocation, states: Record<string, TaskState>) => void,
) => Allocation | undefined;

/** The lifecycle hook of a task (`""` for a main task). */
export const hookOf = (t: Task): string => t.Lifecycle?.Hook ?? '';

/** Lifecycle tasks that are not sidecars run to completion (exit 0 is not restarted). */
export const ephemeral = (t: Task): boolean => hookOf(t) !== '' && t.Lifecycle?.Sidecar !== true;

/** Whether every long-running task (main tasks and sidecars) of an allocation is running. */
export function allRunning(a: Allocation): boolean {
  const group = a.Job?.TaskGroups.find((g) => g.Name === a.TaskGroup);
  const tasks = (group?.Tasks ?? []).filter((t) => !ephemeral(t));
  return (
    tasks.length > 0 && tasks.every((t) => ownValue(a.TaskStates, t.Name)?.State === TaskStateName.Running)
  );
}
