import {
  ownValue,
  type FieldDiff,
  type JobDiff,
  type ObjectDiff,
  type TaskDiff,
  type TaskGroupDiff,
} from '@sked/model';

import { paint } from './output.js';

type DiffKind = JobDiff['Type'];

const MARK: Record<DiffKind, string> = { Added: '+', Deleted: '-', Edited: '+/-', None: '' };
const STYLE = { Added: 'green', Deleted: 'red', Edited: 'yellow', None: 'reset' } as const;

function mark(kind: DiffKind): string {
  // Own keys only: a Type the server sends that is no diff type (even "toString") has no mark.
  const sign = ownValue(MARK, kind) ?? '';
  return sign === '' ? '' : `${paint(STYLE[kind], sign)} `;
}

function fieldLine(field: FieldDiff, indent: string): string {
  const annotations = field.Annotations?.length ? ` (${field.Annotations.join(', ')})` : '';
  switch (field.Type) {
    case 'Added':
      return `${indent}${mark('Added')}${field.Name}: "${field.New}"${annotations}`;
    case 'Deleted':
      return `${indent}${mark('Deleted')}${field.Name}: "${field.Old}"${annotations}`;
    case 'Edited':
      return `${indent}${mark('Edited')}${field.Name}: "${field.Old}" => "${field.New}"${annotations}`;
    default:
      return `${indent}${field.Name}: "${field.New}"${annotations}`;
  }
}

function objectLines(object: ObjectDiff, indent: string, verbose: boolean): string[] {
  const lines = [`${indent}${mark(object.Type)}${object.Name} {`];
  lines.push(...bodyLines(object.Fields, object.Objects, `${indent}  `, verbose));
  lines.push(`${indent}}`);
  return lines;
}

function bodyLines(
  fields: readonly FieldDiff[] | null | undefined,
  objects: readonly ObjectDiff[] | null | undefined,
  indent: string,
  verbose: boolean,
): string[] {
  const lines: string[] = [];
  for (const field of fields ?? [])
    if (verbose || field.Type !== 'None') lines.push(fieldLine(field, indent));
  for (const object of objects ?? [])
    if (verbose || object.Type !== 'None') lines.push(...objectLines(object, indent, verbose));
  return lines;
}

/** `(1 create, 2 in-place update)` from a group's update counts, in a stable order. */
export function updatesText(updates: Readonly<Record<string, number>> | null | undefined): string {
  const parts = Object.entries(updates ?? {})
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, count]) => `${count} ${kind}`);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

function taskLines(task: TaskDiff, verbose: boolean): string[] {
  const annotations = task.Annotations?.length ? ` (${task.Annotations.join(', ')})` : '';
  return [
    `  ${mark(task.Type)}Task: "${task.Name}"${annotations}`,
    ...bodyLines(task.Fields, task.Objects, '    ', verbose),
  ];
}

function groupLines(group: TaskGroupDiff, verbose: boolean): string[] {
  const lines = [`${mark(group.Type)}Task Group: "${group.Name}"${updatesText(group.Updates)}`];
  lines.push(...bodyLines(group.Fields, group.Objects, '  ', verbose));
  for (const task of group.Tasks ?? [])
    if (verbose || task.Type !== 'None') lines.push(...taskLines(task, verbose));
  return lines;
}

/**
 * A job diff as the service's CLI prints it: `+`, `-` and `+/-` marks, field changes as
 * `"old" => "new"`, objects in braces, groups with their update counts. Unchanged fields only
 * with `verbose`.
 */
export function formatJobDiff(diff: JobDiff, verbose = false): string {
  const lines = [`${mark(diff.Type)}Job: "${diff.ID}"`];
  lines.push(...bodyLines(diff.Fields, diff.Objects, '', verbose));
  for (const group of diff.TaskGroups ?? [])
    if (verbose || group.Type !== 'None' || Object.keys(group.Updates ?? {}).length > 0)
      lines.push(...groupLines(group, verbose));
  return lines.join('\n');
}
