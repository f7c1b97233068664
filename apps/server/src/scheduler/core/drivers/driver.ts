import type { TaskEventType } from '@sked/model';
/**
 * The task driver interface: how the scheduler core starts, signals and stops one task of an
 * allocation. The `mock` driver (./mock.ts) simulates a task from its Config; the opt-in `raw_exec`
 * driver (./raw-exec.ts) runs a real process.
 *
 * The core owns the task's lifecycle (TaskState, restarts, the Received/Task Setup events, the
 * Killing/Killed events of a stop); a driver only reports what the task itself does.
 */

/** A task event as reported by a driver; the core fills in Time and the remaining fields. */
export interface DriverTaskEvent {
  /** The event Type of spec document 2, e.g. Started, Driver, Driver Failure, Signaling. */
  readonly Type: TaskEventType;
  /** A human readable message (TaskEvent.Message / DisplayMessage). */
  readonly Message?: string;
  /** Whether this event fails the task. */
  readonly FailsTask?: boolean;
  /** Error text of a driver failure (TaskEvent.DriverError). */
  readonly DriverError?: string;
  /** Message from the driver (TaskEvent.DriverMessage). */
  readonly DriverMessage?: string;
  /** Exit code of a terminated task. */
  readonly ExitCode?: number;
  /** Signal number that ended a terminated task, 0 when none. */
  readonly Signal?: number;
  /** The signal name sent by a Signaling event. */
  readonly TaskSignal?: string;
  /** Why the signal was sent. */
  readonly TaskSignalReason?: string;
}

/** What the core hands a driver to start a task. */
export interface TaskStartSpec {
  /** Full UUID of the allocation. */
  readonly allocId: string;
  /** Name of the task inside the allocation's task group. */
  readonly taskName: string;
  /** The task's free-form driver Config (as in the Job). */
  readonly config: Readonly<Record<string, unknown>>;
  /** Environment of the task (the job's Env plus the SKED_* task variables). */
  readonly env: Readonly<Record<string, string>>;
  /** The task directory on disk (`<dataRoot>/allocs/<allocId>/<task>`); it exists when start is called. */
  readonly dir: string;
}

/** Where a driver reports what its task does. */
export interface TaskSink {
  /** Reports an event of the running task (the core appends it to the task's Events, keeping 10). */
  event(e: DriverTaskEvent): void;
  /**
   * Reports that the task has exited (or failed to start, with `failed: true`). Called at most once
   * per start; after it the handle is dead.
   */
  exited(result: { exitCode: number; signal?: number; failed: boolean; error?: string }): void;
}

/** A started task. */
export interface TaskHandle {
  /** Sends a signal (a name such as 'SIGHUP') to the task. Throws a TypeError naming an unknown signal. */
  signal(sig: string): void;
  /**
   * Stops the task: sends `signal` (default SIGTERM, or the task's KillSignal), waits up to
   * `timeoutMs` for it to exit, then kills it. Resolves once `sink.exited` has been called.
   */
  stop(options: { signal?: string; timeoutMs: number }): Promise<void>;
}

/** A task driver (`mock`, `raw_exec`). */
export interface TaskDriver {
  /** The driver name used in a Task's `Driver` field. */
  readonly name: string;
  /** Starts a task; reports its life through `sink`. Must not throw for a bad config: report it via sink. */
  start(spec: TaskStartSpec, sink: TaskSink): TaskHandle;
  /** Optional: stops everything still running (called by Cluster.close()). */
  close?(): Promise<void>;
}

/** The numbers of the common POSIX signal names, used by drivers and for TaskEvent.Signal. */
export const SIGNAL_NUMBERS: Readonly<Record<string, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGILL: 4,
  SIGTRAP: 5,
  SIGABRT: 6,
  SIGBUS: 7,
  SIGFPE: 8,
  SIGKILL: 9,
  SIGUSR1: 10,
  SIGSEGV: 11,
  SIGUSR2: 12,
  SIGPIPE: 13,
  SIGALRM: 14,
  SIGTERM: 15,
  SIGCHLD: 17,
  SIGCONT: 18,
  SIGSTOP: 19,
  SIGTSTP: 20,
  SIGTTIN: 21,
  SIGTTOU: 22,
  SIGWINCH: 28,
};

/**
 * Normalises a signal name ('hup', 'SIGHUP', 'sighup') to its SIG-prefixed upper-case form.
 * @returns the normalised name, or undefined when it is not a known signal.
 */
export function normalizeSignal(sig: string): string | undefined {
  const up = sig.trim().toUpperCase();
  const name = up.startsWith('SIG') ? up : `SIG${up}`;
  return Object.hasOwn(SIGNAL_NUMBERS, name) ? name : undefined;
}
