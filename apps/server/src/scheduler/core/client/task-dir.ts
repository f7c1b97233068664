import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Allocation, Task } from '../types.js';

/** The task directory of a task of an allocation: `<dataRoot>/allocs/<allocId>/<task>`. */
export function taskDirOf(dataRoot: string, allocId: string, task: string): string {
  return join(dataRoot, 'allocs', allocId, task);
}

/**
 * Builds a task directory (`local/`, `secrets/`, `tmp/`) and writes a dispatch payload to
 * `local/<DispatchPayload.File>`.
 * @throws the file system's error.
 */
export function buildTaskDir(dir: string, task: Task, a: Allocation): void {
  mkdirSync(join(dir, 'local'), { recursive: true });
  mkdirSync(join(dir, 'secrets'), { recursive: true });
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  if (task.DispatchPayload?.File && a.Job?.Payload)
    writeFileSync(join(dir, 'local', task.DispatchPayload.File), Buffer.from(a.Job.Payload, 'base64'));
}
