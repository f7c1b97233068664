/**
 * Structured job diffs (plan with `Diff: true`, versions with `diffs=true`).
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { Nullable, NullableArray, SafeInteger } from './internal/schema.js';
import { lazySchema } from './internal/lazy.js';

/**
 * Kinds of change in a diff.
 *
 * @since 0.1.0
 */
export const DiffType = {
  /** Present only in the new version. */
  Added: 'Added',
  /** Present only in the old version. */
  Deleted: 'Deleted',
  /** Present in both, changed. */
  Edited: 'Edited',
  /** Unchanged (shown for context). */
  None: 'None',
} as const;
/** One of the values of {@link DiffType}. */
export type DiffType = (typeof DiffType)[keyof typeof DiffType];

const DiffTypeSchema = lazySchema(() => Type.Enum(DiffType));

/**
 * The change of one scalar field.
 *
 * @since 0.1.0
 */
export const FieldDiff = lazySchema(() =>
  Type.Object({
    /** Kind of change. */
    Type: DiffTypeSchema,
    /** Field name (`Meta[owner]` style for map entries). */
    Name: Type.String(),
    /** Old value as text; `""` when added. */
    Old: Type.String(),
    /** New value as text; `""` when deleted. */
    New: Type.String(),
    /** Notes on the consequence, for example `forces create/destroy update`; `null` when none. */
    Annotations: NullableArray(Type.String()),
  }),
);
/** A value matching the {@link FieldDiff} schema. */
export type FieldDiff = Static<typeof FieldDiff>;

/**
 * The change of a nested object (recursive: objects hold fields and further objects).
 *
 * @since 0.1.0
 */
export const ObjectDiff = lazySchema(() =>
  Type.Cyclic(
    {
      /** The recursive object diff (this definition refers to itself through `Objects`). */
      ObjectDiff: Type.Object({
        /** Kind of change. */
        Type: DiffTypeSchema,
        /** Object name, for example `RestartPolicy`. */
        Name: Type.String(),
        /** Changed fields; `null` when none. */
        Fields: NullableArray(FieldDiff),
        /** Changed nested objects; `null` when none. */
        Objects: NullableArray(Type.Ref('ObjectDiff')),
      }),
    },
    'ObjectDiff',
  ),
);
/** A value matching the {@link ObjectDiff} schema. */
export type ObjectDiff = Static<typeof ObjectDiff>;

/**
 * The change of a task.
 *
 * @since 0.1.0
 */
export const TaskDiff = lazySchema(() =>
  Type.Object({
    /** Kind of change. */
    Type: DiffTypeSchema,
    /** Task name. */
    Name: Type.String(),
    /** Changed fields; `null` when none. */
    Fields: NullableArray(FieldDiff),
    /** Changed objects; `null` when none. */
    Objects: NullableArray(ObjectDiff),
    /** Notes such as `forces create/destroy update`; `null` when none. */
    Annotations: NullableArray(Type.String()),
  }),
);
/** A value matching the {@link TaskDiff} schema. */
export type TaskDiff = Static<typeof TaskDiff>;

/**
 * The change of a task group.
 *
 * @since 0.1.0
 */
export const TaskGroupDiff = lazySchema(() =>
  Type.Object({
    /** Kind of change. */
    Type: DiffTypeSchema,
    /** Group name. */
    Name: Type.String(),
    /** Changed fields; `null` when none. */
    Fields: NullableArray(FieldDiff),
    /** Changed objects; `null` when none. */
    Objects: NullableArray(ObjectDiff),
    /** Changed tasks; `null` when none. */
    Tasks: NullableArray(TaskDiff),
    /** Scheduler updates planned per kind (`create`, `destroy`, `in-place update`, ...); `null` when not planned. */
    Updates: Nullable(Type.Record(Type.String(), SafeInteger({ minimum: 0 }))),
  }),
);
/** A value matching the {@link TaskGroupDiff} schema. */
export type TaskGroupDiff = Static<typeof TaskGroupDiff>;

/**
 * The change of a job between two versions.
 *
 * @since 0.1.0
 */
export const JobDiff = lazySchema(() =>
  Type.Object({
    /** Kind of change (`Added` for a new job, `Edited`, or `None`). */
    Type: DiffTypeSchema,
    /** Job ID. */
    ID: Type.String(),
    /** Changed fields; `null` when none. */
    Fields: NullableArray(FieldDiff),
    /** Changed objects; `null` when none. */
    Objects: NullableArray(ObjectDiff),
    /** Changed task groups; `null` when none. */
    TaskGroups: NullableArray(TaskGroupDiff),
  }),
);
/** A value matching the {@link JobDiff} schema. */
export type JobDiff = Static<typeof JobDiff>;
