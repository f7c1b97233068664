import { diffJobs, DiffType, jsonEqual, type Task } from '@sked/model';

import type { Job, TaskGroup } from './types.js';

const TASK_UPDATE_KEYS: readonly (keyof Task)[] = [
  'Driver',
  'User',
  'Config',
  'Env',
  'Resources',
  'Artifacts',
  'Templates',
  'Secrets',
  'Lifecycle',
  'DispatchPayload',
  'VolumeMounts',
  'Meta',
  'KillSignal',
  'Kind',
  'Leader',
  'CSIPluginConfig',
];

/**
 * Whether moving an allocation from group `a` to group `b` needs a new allocation (destructive) rather
 * than an in-place update: a task added, removed, or changed in its driver, config, environment,
 * resources, artifacts, templates, lifecycle or meta; or the group's networks, volumes or disk.
 */
export function tasksUpdated(a: TaskGroup, b: TaskGroup): boolean {
  if (a.Tasks.length !== b.Tasks.length) return true;
  const eq = jsonEqual;
  if (!eq(a.Networks, b.Networks) || !eq(a.Volumes, b.Volumes) || !eq(a.EphemeralDisk, b.EphemeralDisk))
    return true;
  if (!eq(a.Meta, b.Meta)) return true;
  for (const ta of a.Tasks) {
    const tb = b.Tasks.find((t) => t.Name === ta.Name);
    if (!tb) return true;
    for (const k of TASK_UPDATE_KEYS) if (!eq(ta[k], tb[k])) return true;
  }
  return false;
}

/** Whether two job versions differ in their specification (not in indexes, status or version). */
export function specChanged(a: Job, b: Job): boolean {
  return diffJobs(a, b).Type !== DiffType.None;
}
