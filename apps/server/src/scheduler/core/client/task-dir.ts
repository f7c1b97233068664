import { closeSync, constants, mkdirSync, openSync, realpathSync, writeSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

import type { Allocation, Task } from '../types.js';

/** The task directory of a task of an allocation: `<dataRoot>/allocs/<allocId>/<task>`. */
export function taskDirOf(dataRoot: string, allocId: string, task: string): string {
  return join(dataRoot, 'allocs', allocId, task);
}

/** Whether `path` is `root` or lies under it (both absolute and resolved). */
function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Writes `data` to `path` (relative to `dir`, the task directory) only if the file stays inside the
 * task directory: the path resolved lexically must be inside it, its parent directory (created when
 * missing) must be inside it once every symbolic link is resolved, and the file itself is opened with
 * `O_NOFOLLOW` (a symbolic link planted at its name is not followed).
 * @throws an Error naming the path when it would leave the task directory; the file system's error.
 */
export function writeInsideTaskDir(dir: string, path: string, data: Buffer): void {
  const escape = (): Error =>
    new Error(`the path ${JSON.stringify(path)} escapes the task directory ${JSON.stringify(dir)}`);
  if (path.includes('\u0000')) throw escape();
  const root = resolve(dir);
  const target = resolve(root, path);
  if (!inside(root, target) || target === root) throw escape();
  mkdirSync(dirname(target), { recursive: true });
  if (!inside(realpathSync(root), realpathSync(dirname(target)))) throw escape();
  const fd = openSync(
    target,
    constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
    0o644,
  );
  try {
    writeSync(fd, data);
  } finally {
    closeSync(fd);
  }
}

/**
 * Builds a task directory (`local/`, `secrets/`, `tmp/`) and writes a dispatch payload to
 * `local/<DispatchPayload.File>`, never outside the task directory (see {@link writeInsideTaskDir};
 * registration already refused such a path).
 * @throws the file system's error, or an Error when the payload's path escapes the task directory.
 */
export function buildTaskDir(dir: string, task: Task, a: Allocation): void {
  mkdirSync(join(dir, 'local'), { recursive: true });
  mkdirSync(join(dir, 'secrets'), { recursive: true });
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  if (task.DispatchPayload?.File && a.Job?.Payload)
    writeInsideTaskDir(dir, join('local', task.DispatchPayload.File), Buffer.from(a.Job.Payload, 'base64'));
}
