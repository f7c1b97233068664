import { newTaskEvent, ownValue, type TaskEventType } from '@sked/model';

import type { TaskEvent, TaskState } from '../types.js';

/** Task events kept per task (the latest). */
export const KEPT_TASK_EVENTS = 10;

/**
 * A task event of `type` at `nowMs`: DisplayMessage defaults to the Message, Details to `{}`.
 * @param type - The event type (the model's TaskEventType, or a driver's own).
 * @param nowMs - Time of the event (ms).
 * @param fields - Any field to set.
 */
export function taskEvent(type: TaskEventType, nowMs: number, fields: Partial<TaskEvent> = {}): TaskEvent {
  return {
    ...newTaskEvent(type, Math.round(nowMs * 1e6)),
    DisplayMessage: fields.DisplayMessage ?? fields.Message ?? '',
    Details: fields.Details ?? {},
    GenericSource: '',
    ...fields,
  };
}

/** Appends an event to a task's state (keeping the latest {@link KEPT_TASK_EVENTS}); unknown tasks are ignored. */
export function addEvent(states: Record<string, TaskState>, task: string, e: TaskEvent): void {
  const s = ownValue(states, task);
  if (!s) return;
  s.Events = [...s.Events, e].slice(-KEPT_TASK_EVENTS);
}
