import { allocPorts } from '../scheduler/ports.js';
import type { StateView } from '../state/store.js';
import type { Allocation, Task } from '../types.js';

/** Where the task runs: what the environment takes from outside the allocation. */
export interface TaskEnvPlace {
  readonly region: string;
  /** The datacenter of the allocation's node (`""` when unknown). */
  readonly datacenter: string;
  /** The task directory. */
  readonly dir: string;
}

const envName = (s: string): string => s.replace(/[^A-Za-z0-9_]/g, '_');

/**
 * The environment of a task: `SKED_*` variables of the allocation, job, group, task, ports and
 * meta, under the task's own `Env` (which wins).
 */
export function taskEnv(a: Allocation, t: Task, place: TaskEnvPlace): Record<string, string> {
  const env: Record<string, string> = {
    SKED_ALLOC_ID: a.ID,
    SKED_ALLOC_NAME: a.Name,
    SKED_ALLOC_INDEX: String(/\[(\d+)\]$/.exec(a.Name)?.[1] ?? '0'),
    SKED_JOB_ID: a.JobID,
    SKED_JOB_NAME: a.Job?.Name ?? a.JobID,
    SKED_GROUP_NAME: a.TaskGroup,
    SKED_TASK_NAME: t.Name,
    SKED_TASK_DIR: place.dir,
    SKED_NAMESPACE: a.Namespace,
    SKED_REGION: place.region,
    SKED_DC: place.datacenter,
    SKED_CPU_LIMIT: String(t.Resources.CPU),
    SKED_MEMORY_LIMIT: String(t.Resources.MemoryMB),
  };
  for (const p of allocPorts(a)) {
    const label = envName(p.Label);
    env[`SKED_PORT_${label}`] = String(p.To > 0 ? p.To : p.Value);
    env[`SKED_HOST_PORT_${label}`] = String(p.Value);
    env[`SKED_IP_${label}`] = p.HostIP;
    env[`SKED_ADDR_${label}`] = `${p.HostIP}:${p.Value}`;
  }
  for (const [k, v] of Object.entries({ ...a.Job?.Meta, ...t.Meta })) env[`SKED_META_${envName(k)}`] = v;
  return { ...env, ...t.Env };
}

/** Where a cluster runs its tasks: what {@link taskEnvOf} reads besides the allocation. */
export interface TaskEnvSource {
  readonly region: string;
  readonly state: Pick<StateView, 'get'>;
  /** The task directory of a task of an allocation. */
  readonly taskDir: (allocId: string, task: string) => string;
}

/**
 * The environment a task of an allocation runs with, as the task runner gives it to the driver:
 * what exec starts a command with, so a command sees what the task sees.
 * @returns the environment, or `undefined` when the allocation or the task is unknown.
 */
export function taskEnvOf(
  source: TaskEnvSource,
  a: Allocation | string,
  taskName: string,
): Record<string, string> | undefined {
  const alloc = typeof a === 'string' ? source.state.get('allocs', a) : a;
  const task = alloc?.Job?.TaskGroups.find((g) => g.Name === alloc.TaskGroup)?.Tasks.find(
    (t) => t.Name === taskName,
  );
  if (!alloc || !task) return undefined;
  return taskEnv(alloc, task, taskPlace(source, alloc, taskName));
}

/** Where a task of an allocation runs: the cluster's region, its node's datacenter, its task directory. */
export function taskPlace(source: TaskEnvSource, a: Allocation, taskName: string): TaskEnvPlace {
  return {
    region: source.region,
    datacenter: source.state.get('nodes', a.NodeID)?.Datacenter ?? '',
    dir: source.taskDir(a.ID, taskName),
  };
}
