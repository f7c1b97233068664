/**
 * Computing the structured diff of two job versions (the shapes are in `job-diff.ts`).
 *
 * @packageDocumentation
 */
import type { SchedulerJob } from './job.js';
import {
  DiffType,
  type FieldDiff,
  type JobDiff,
  type ObjectDiff,
  type TaskDiff,
  type TaskGroupDiff,
} from './job-diff.js';
import type { TaskGroup } from './task-group.js';
import type { Task } from './task.js';
import { ownValue } from './own.js';
import { jsonEqual } from './json-equal.js';

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
  const type: DiffType = o === '' ? DiffType.Added : n === '' ? DiffType.Deleted : DiffType.Edited;
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
        if (!sb.includes(x))
          f.push({ Type: DiffType.Deleted, Name: name, Old: x, New: '', Annotations: null });
      for (const x of sb)
        if (!sa.includes(x)) f.push({ Type: DiffType.Added, Name: name, Old: '', New: x, Annotations: null });
      if (f.length > 0)
        objects.push({
          Type: sa.length === 0 ? DiffType.Added : sb.length === 0 ? DiffType.Deleted : DiffType.Edited,
          Name: name,
          Fields: f,
          Objects: null,
        });
      return;
    }
    const single = singular(name);
    for (const x of la) if (!lb.some((y) => jsonEqual(x, y))) objects.push(objectDiff(single, x, undefined));
    for (const y of lb) if (!la.some((x) => jsonEqual(x, y))) objects.push(objectDiff(single, undefined, y));
    return;
  }
  const oa = isObj(a) ? a : undefined;
  const ob = isObj(b) ? b : undefined;
  // Maps of primitives (Meta, Env) become fields named Name[key], like the service does.
  const all = { ...oa, ...ob };
  if (Object.values(all).every(isPrim) && ['Meta', 'Env'].includes(name)) {
    for (const k of Object.keys(all).sort()) {
      const f = fieldDiff(`${name}[${k}]`, ownValue(oa, k), ownValue(ob, k));
      if (f) fields.push(f);
    }
    return;
  }
  const d = objectDiff(name, oa, ob);
  if (d.Type !== DiffType.None) objects.push(d);
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
    diffInto(k, ownValue(oa, k), ownValue(ob, k), fields, objects);
  }
  const type: DiffType =
    a === undefined || a === null
      ? DiffType.Added
      : b === undefined || b === null
        ? DiffType.Deleted
        : fields.length + objects.length > 0
          ? DiffType.Edited
          : DiffType.None;
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
    if (t.Type !== DiffType.None) tasks.push(t);
  }
  let type = d.Type;
  if (type === DiffType.None && tasks.length > 0) type = DiffType.Edited;
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
 * The structured diff of two versions of a job, as the service shows it for a plan (`Diff: true`) or
 * the versions list (`diffs=true`): `Fields` for changed scalars and map entries (`Meta[owner]`),
 * `Objects` for nested blocks, and one {@link TaskGroupDiff} per task group of either version (each
 * with its changed tasks). Indexes, status, version, submit time and the submission tokens are not
 * compared. Either version may be absent: a new job diffs as `Added`, a removed one as `Deleted`.
 * Pure: the inputs are not changed.
 *
 * @param a - The old version (`undefined` for a job not registered before).
 * @param b - The new version.
 * @returns The diff; its `Type` is `None` when nothing compared changed.
 * @example
 * ```ts
 * import { canonicalizeJob, diffJobs } from '@sked/model';
 *
 * const v0 = canonicalizeJob({ ID: 'web', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock' }] }] });
 * const v1 = { ...v0, Priority: 70 };
 * const diff = diffJobs(v0, v1);
 * diff.Type; // 'Edited'
 * diff.Fields; // [{ Type: 'Edited', Name: 'Priority', Old: '50', New: '70', Annotations: null }]
 * ```
 * @since 0.2.0
 */
export function diffJobs(a: SchedulerJob | undefined, b: SchedulerJob | undefined): JobDiff {
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
  if (type === DiffType.None && groups.some((g) => g.Type !== DiffType.None)) type = DiffType.Edited;
  return {
    Type: type,
    ID: (b ?? a)?.ID ?? '',
    Fields: d.Fields,
    Objects: d.Objects,
    TaskGroups: groups.length ? groups : null,
  };
}
