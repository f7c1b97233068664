import type { Job, Task, TaskGroup } from './types.js';

/** A change of one primitive field. */
export interface FieldDiff {
  Type: DiffType;
  Name: string;
  Old: string;
  New: string;
  Annotations: string[] | null;
}

/** A change of a nested object. */
export interface ObjectDiff {
  Type: DiffType;
  Name: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
}

/** A change of a task. */
export interface TaskDiff {
  Type: DiffType;
  Name: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
  Annotations: string[] | null;
}

/** A change of a task group. */
export interface TaskGroupDiff {
  Type: DiffType;
  Name: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
  Tasks: TaskDiff[] | null;
  Updates: Record<string, number> | null;
}

/** A change of a job. */
export interface JobDiff {
  Type: DiffType;
  ID: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
  TaskGroups: TaskGroupDiff[] | null;
}

/** Kinds of change. */
export type DiffType = 'None' | 'Added' | 'Deleted' | 'Edited';

const JOB_IGNORED = new Set([
  'ID',
  'Version',
  'Status',
  'StatusDescription',
  'Stable',
  'CreateIndex',
  'ModifyIndex',
  'JobModifyIndex',
  'SubmitTime',
  'TaskGroups',
  'MeshToken',
  'SecretsToken',
  'SvcTokenID',
  'Submission',
]);
const GROUP_IGNORED = new Set(['Name', 'Tasks']);
const TASK_IGNORED = new Set(['Name']);

type Value = unknown;

const isObj = (v: Value): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isPrim = (v: Value): boolean => v === null || v === undefined || typeof v !== 'object';
const show = (v: Value): string =>
  v === null || v === undefined
    ? ''
    : typeof v === 'string'
      ? v
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v as string | number | boolean);

function fieldDiff(name: string, a: Value, b: Value): FieldDiff | undefined {
  const o = show(a);
  const n = show(b);
  if (o === n) return undefined;
  const type: DiffType = o === '' ? 'Added' : n === '' ? 'Deleted' : 'Edited';
  return { Type: type, Name: name, Old: o, New: n, Annotations: null };
}

function isEmpty(v: Value): boolean {
  return (
    v === null ||
    v === undefined ||
    (isObj(v) && Object.keys(v).length === 0) ||
    (Array.isArray(v) && v.length === 0)
  );
}

/** Diffs two values under one name into fields (primitives, maps of primitives) and objects. */
function diffInto(name: string, a: Value, b: Value, fields: FieldDiff[], objects: ObjectDiff[]): void {
  if (isPrim(a) && isPrim(b)) {
    const f = fieldDiff(name, a, b);
    if (f) fields.push(f);
    return;
  }
  if (isEmpty(a) && isEmpty(b)) return;
  if (Array.isArray(a) || Array.isArray(b)) {
    const la = Array.isArray(a) ? a : [];
    const lb = Array.isArray(b) ? b : [];
    if (la.every(isPrim) && lb.every(isPrim)) {
      const sa = la.map(show);
      const sb = lb.map(show);
      const f: FieldDiff[] = [];
      for (const x of sa)
        if (!sb.includes(x)) f.push({ Type: 'Deleted', Name: name, Old: x, New: '', Annotations: null });
      for (const x of sb)
        if (!sa.includes(x)) f.push({ Type: 'Added', Name: name, Old: '', New: x, Annotations: null });
      if (f.length > 0)
        objects.push({
          Type: sa.length === 0 ? 'Added' : sb.length === 0 ? 'Deleted' : 'Edited',
          Name: name,
          Fields: f,
          Objects: null,
        });
      return;
    }
    const ka = la.map((x) => JSON.stringify(x));
    const kb = lb.map((x) => JSON.stringify(x));
    const single = singular(name);
    la.forEach((x, i) => {
      if (!kb.includes(ka[i] ?? '')) objects.push(objectDiff(single, x, undefined));
    });
    lb.forEach((x, i) => {
      if (!ka.includes(kb[i] ?? '')) objects.push(objectDiff(single, undefined, x));
    });
    return;
  }
  const oa = isObj(a) ? a : undefined;
  const ob = isObj(b) ? b : undefined;
  // Maps of primitives (Meta, Env) become fields named Name[key], like the service does.
  const all = { ...oa, ...ob };
  if (Object.values(all).every(isPrim) && ['Meta', 'Env'].includes(name)) {
    for (const k of Object.keys(all).sort()) {
      const f = fieldDiff(`${name}[${k}]`, oa?.[k], ob?.[k]);
      if (f) fields.push(f);
    }
    return;
  }
  const d = objectDiff(name, oa, ob);
  if (d.Type !== 'None') objects.push(d);
}

function singular(name: string): string {
  return name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.endsWith('s') ? name.slice(0, -1) : name;
}

function objectDiff(name: string, a: Value, b: Value, ignored?: Set<string>): ObjectDiff {
  const fields: FieldDiff[] = [];
  const objects: ObjectDiff[] = [];
  const oa = isObj(a) ? a : {};
  const ob = isObj(b) ? b : {};
  for (const k of [...new Set([...Object.keys(oa), ...Object.keys(ob)])].sort()) {
    if (ignored?.has(k)) continue;
    diffInto(k, oa[k], ob[k], fields, objects);
  }
  const type: DiffType =
    a === undefined || a === null
      ? 'Added'
      : b === undefined || b === null
        ? 'Deleted'
        : fields.length + objects.length > 0
          ? 'Edited'
          : 'None';
  return {
    Type: type,
    Name: name,
    Fields: fields.length ? fields : null,
    Objects: objects.length ? objects : null,
  };
}

function diffTask(a: Task | undefined, b: Task | undefined): TaskDiff {
  const d = objectDiff('', a, b, TASK_IGNORED);
  return {
    Type: d.Type,
    Name: (b ?? a)?.Name ?? '',
    Fields: d.Fields,
    Objects: d.Objects,
    Annotations: null,
  };
}

function diffGroup(a: TaskGroup | undefined, b: TaskGroup | undefined): TaskGroupDiff {
  const d = objectDiff('', a, b, GROUP_IGNORED);
  const tasks: TaskDiff[] = [];
  const names = [
    ...new Set([...(a?.Tasks ?? []).map((t) => t.Name), ...(b?.Tasks ?? []).map((t) => t.Name)]),
  ].sort();
  for (const n of names) {
    const t = diffTask(
      a?.Tasks.find((x) => x.Name === n),
      b?.Tasks.find((x) => x.Name === n),
    );
    if (t.Type !== 'None') tasks.push(t);
  }
  let type = d.Type;
  if (type === 'None' && tasks.length > 0) type = 'Edited';
  return {
    Type: type,
    Name: (b ?? a)?.Name ?? '',
    Fields: d.Fields,
    Objects: d.Objects,
    Tasks: tasks.length ? tasks : null,
    Updates: null,
  };
}

/**
 * The structured diff of two versions of a job (old may be absent: everything Added). Only changes
 * are listed; unchanged task groups are left out.
 */
export function diffJobs(a: Job | undefined, b: Job | undefined): JobDiff {
  const d = objectDiff('', a, b, JOB_IGNORED);
  const groups: TaskGroupDiff[] = [];
  const names = [
    ...new Set([...(a?.TaskGroups ?? []).map((g) => g.Name), ...(b?.TaskGroups ?? []).map((g) => g.Name)]),
  ].sort();
  for (const n of names) {
    const g = diffGroup(
      a?.TaskGroups.find((x) => x.Name === n),
      b?.TaskGroups.find((x) => x.Name === n),
    );
    groups.push(g);
  }
  let type = d.Type;
  if (type === 'None' && groups.some((g) => g.Type !== 'None')) type = 'Edited';
  return {
    Type: type,
    ID: (b ?? a)?.ID ?? '',
    Fields: d.Fields,
    Objects: d.Objects,
    TaskGroups: groups.length ? groups : null,
  };
}

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
  const eq = (x: unknown, y: unknown): boolean => JSON.stringify(x ?? null) === JSON.stringify(y ?? null);
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
  return diffJobs(a, b).Type !== 'None';
}
