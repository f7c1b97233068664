/**
 * Task events: the kinds, the schema of one event and {@link newTaskEvent}.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';

import { Nanoseconds, Nullable, SafeInteger, StringMap, UnixNanos } from './internal/schema.js';
import { lazySchema } from './internal/lazy.js';

/**
 * Types of task events (`TaskEvent.Type`), exactly as the service writes them.
 *
 * @since 0.1.0
 */
export const TaskEventType = {
  /** Failure in setting up the task before it ran. */
  SetupFailure: 'Setup Failure',
  /** Failure in the driver prevented start. */
  DriverFailure: 'Driver Failure',
  /** Task started, first time or after restart. */
  Started: 'Started',
  /** Task started and exited. */
  Terminated: 'Terminated',
  /** Kill signal sent. */
  Killing: 'Killing',
  /** Killed by a user. */
  Killed: 'Killed',
  /** Task pulled by the client. */
  Received: 'Received',
  /** Task invalid, did not run. */
  FailedValidation: 'Failed Validation',
  /** Task terminated and is being restarted. */
  Restarting: 'Restarting',
  /** Task failed and exceeded its restart policy. */
  NotRestarting: 'Not Restarting',
  /** Artifacts are being downloaded. */
  DownloadingArtifacts: 'Downloading Artifacts',
  /** Artifact download failed. */
  ArtifactDownloadFailed: 'Failed Artifact Download',
  /** Task was signalled to restart. */
  RestartSignal: 'Restart Signaled',
  /** A signal is being sent to the task. */
  Signaling: 'Signaling',
  /** A task in the same group failed. */
  SiblingFailed: 'Sibling Task Failed',
  /** The group's leader task is dead. */
  LeaderDead: 'Leader Task Dead',
  /** Message from the driver. */
  DriverMessage: 'Driver',
  /** Setup messages. */
  TaskSetup: 'Task Setup',
  /** Task is building its file system. */
  BuildingTaskDir: 'Building Task Directory',
} as const;
/** One of the values of {@link TaskEventType}. */
export type TaskEventType = (typeof TaskEventType)[keyof typeof TaskEventType];

/**
 * An event in a task's life. Which fields are meaningful depends on `Type`; the others are `""`, 0 or `false`.
 *
 * @since 0.1.0
 */
export const TaskEvent = lazySchema(() =>
  Type.Object({
    /** Kind of event; see {@link TaskEventType}. */
    Type: Type.Enum(TaskEventType),
    /** When the event happened, in Unix nanoseconds. */
    Time: UnixNanos(),
    /** Whether this event failed the task. */
    FailsTask: Type.Boolean(),
    /** Why the task restarts (`Restarting`, `Restart Signaled`). */
    RestartReason: Type.String(),
    /** Setup error (`Setup Failure`). */
    SetupError: Type.String(),
    /** Driver error (`Driver Failure`). */
    DriverError: Type.String(),
    /** General message. */
    Message: Type.String(),
    /** Error while killing the task. */
    KillError: Type.String(),
    /** Why the task was killed (`Killing`, `Killed`). */
    KillReason: Type.String(),
    /** Artifact download error (`Failed Artifact Download`). */
    DownloadError: Type.String(),
    /** Validation error (`Failed Validation`). */
    ValidationError: Type.String(),
    /** Name of the sibling that failed (`Sibling Task Failed`). */
    FailedSibling: Type.String(),
    /** Error of the secrets service integration. */
    SecretsError: Type.String(),
    /** Why the task was signalled (`Signaling`). */
    TaskSignalReason: Type.String(),
    /** Name of the signal sent, for example `SIGHUP` (`Signaling`). */
    TaskSignal: Type.String(),
    /** Message of the driver (`Driver`). */
    DriverMessage: Type.String(),
    /** Exit code of the task (`Terminated`); 0 otherwise. */
    ExitCode: SafeInteger(),
    /** Signal number that ended the task (`Terminated`); 0 when none. */
    Signal: SafeInteger(),
    /** Kill timeout used, in nanoseconds (`Killing`). */
    KillTimeout: Nanoseconds(),
    /** Wait before the restart, in nanoseconds (`Restarting`). */
    StartDelay: Nanoseconds(),
    /** Disk limit exceeded, in bytes; 0 when not applicable. */
    DiskLimit: SafeInteger({ minimum: 0 }),
    /** One-line human-readable text of the event (built from the fields above). Absent = build it from them. */
    DisplayMessage: Type.Optional(Type.String()),
    /** The event's fields as strings, for display. Absent or `null` when not provided. */
    Details: Type.Optional(Nullable(StringMap)),
  }),
);
/** A value matching the {@link TaskEvent} schema. */
export type TaskEvent = Static<typeof TaskEvent>;

/** A {@link TaskEvent} whose `Type` is narrowed to `T`: what {@link newTaskEvent} returns. */
export type TaskEventOf<T extends string> = Omit<TaskEvent, 'Type'> & {
  /** The event's type, as given to {@link newTaskEvent}. */
  Type: T;
};

/**
 * Builds a complete {@link TaskEvent}: every field not given is `""`, 0 or `false`, as the service
 * reports fields that do not apply to an event's type.
 *
 * @typeParam T - The type string; {@link TaskEventType} unless a driver reports its own.
 * @param type - The event's type, usually one of {@link TaskEventType}; a driver may report others.
 * @param time - When the event happened, in Unix nanoseconds.
 * @param fields - The fields that apply to this type (they win over the empty values).
 * @returns A new event object.
 * @example
 * ```ts
 * const exited = newTaskEvent('Terminated', Date.now() * 1e6, { ExitCode: 3 });
 * ```
 * @since 0.1.0
 */
export function newTaskEvent<T extends string = TaskEventType>(
  type: T,
  time: number,
  fields: Partial<Omit<TaskEvent, 'Type' | 'Time'>> = {},
): TaskEventOf<T> {
  return {
    Type: type,
    Time: time,
    FailsTask: false,
    RestartReason: '',
    SetupError: '',
    DriverError: '',
    Message: '',
    KillError: '',
    KillReason: '',
    DownloadError: '',
    ValidationError: '',
    FailedSibling: '',
    SecretsError: '',
    TaskSignalReason: '',
    TaskSignal: '',
    DriverMessage: '',
    ExitCode: 0,
    Signal: 0,
    KillTimeout: 0,
    StartDelay: 0,
    DiskLimit: 0,
    ...fields,
  };
}
