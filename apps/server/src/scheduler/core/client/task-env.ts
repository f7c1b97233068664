import { allocPorts } from '../scheduler/ports.js';
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
