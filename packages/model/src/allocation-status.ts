/**
 * The states of allocations and tasks, and the kinds of task events: the values of their status
 * fields, as constants.
 *
 * @packageDocumentation
 */

/**
 * What the scheduler wants an allocation to do (`Allocation.DesiredStatus`).
 *
 * @since 0.1.0
 */
export const AllocDesiredStatus = {
  /** Run the allocation. */
  Run: 'run',
  /** Stop it (job stopped, allocation stopped by a user, replaced). */
  Stop: 'stop',
  /** Evict it (preempted or migrated). */
  Evict: 'evict',
} as const;
/** One of the values of {@link AllocDesiredStatus}. */
export type AllocDesiredStatus = (typeof AllocDesiredStatus)[keyof typeof AllocDesiredStatus];

/**
 * What the client reports about an allocation (`Allocation.ClientStatus`).
 *
 * @since 0.1.0
 */
export const AllocClientStatus = {
  /** Placed, tasks not yet running. */
  Pending: 'pending',
  /** Tasks running. */
  Running: 'running',
  /** Every task finished successfully. */
  Complete: 'complete',
  /** A task failed. */
  Failed: 'failed',
  /** The node was lost. */
  Lost: 'lost',
  /** The node is disconnected; the state is unknown. */
  Unknown: 'unknown',
} as const;
/** One of the values of {@link AllocClientStatus}. */
export type AllocClientStatus = (typeof AllocClientStatus)[keyof typeof AllocClientStatus];

/**
 * States of a task (`TaskState.State`).
 *
 * @since 0.1.0
 */
export const TaskStateName = {
  /** Waiting to run, the first time or after a restart. */
  Pending: 'pending',
  /** Running. */
  Running: 'running',
  /** Will not run again. */
  Dead: 'dead',
} as const;
/** One of the values of {@link TaskStateName}. */
export type TaskStateName = (typeof TaskStateName)[keyof typeof TaskStateName];

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
