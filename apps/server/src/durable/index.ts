/**
 * Durable state of the sample server (`sked-server --data-dir DIR`): one SQLite database through
 * Node's built-in `node:sqlite`, locked by one process, with a storage format version. See the
 * server README ("Durable state").
 *
 * @packageDocumentation
 */
import { join } from 'node:path';

import { DataDirError, FORMAT_VERSION, openDataDir, STATE_FILE, type DataDir } from './data-dir.js';
import type { PeeringStore } from '../mesh/store.js';
import type { MemberStore } from '../scheduler/regions/index.js';
import type { SecretsStore } from '../secrets/store.js';
import { createDurablePeeringStore } from './mesh-store.js';
import { createDurableMemberStore } from './regions-store.js';
import { openSchedulerState, type SchedulerState } from './scheduler-state.js';
import type { OpenRowsOptions } from './rows.js';
import { createDurableSecretsStore } from './secrets-store.js';

export { DataDirError, FORMAT_VERSION, openDataDir, STATE_FILE };
export type { DataDir, SchedulerState };
export { openSchedulerState };

/** An open data dir with the backends of the services. */
export interface Durable {
  /** The data dir (absolute path). */
  readonly path: string;
  /** Where task directories go (`<dir>/tasks`). */
  readonly taskRoot: string;
  /** The scheduling state's backend and what it restored. */
  readonly scheduler: SchedulerState;
  /** The secrets service's store (configuration, users, groups, hashed tokens). */
  readonly secrets: SecretsStore;
  /** The mesh service's peering store. */
  readonly mesh: PeeringStore;
  /** The other members of the scheduling service's federation of regions. */
  readonly regions: MemberStore;
  /** Writes what is pending and releases the data dir (its lock). */
  close(): void;
}

/**
 * Opens a data dir and the backends of the services on it.
 * @param dir - The data dir (created when absent).
 * @param onFailure - Told when a write to the data dir fails.
 * @param options - What to do with stored records that cannot be read (refuse, or set them aside),
 *   and `warn`, told when the data dir or its files were open to other users (they are made private)
 *   or a record was set aside; standard error by default.
 * @returns the open data dir.
 * @throws {@link DataDirError} as {@link openDataDir} does, or when its state cannot be read.
 */
export function openDurable(
  dir: string,
  onFailure?: (error: Error) => void,
  options: OpenRowsOptions = {},
): Durable {
  const dataDir = options.warn === undefined ? openDataDir(dir) : openDataDir(dir, options.warn);
  let scheduler: SchedulerState;
  let secrets: SecretsStore;
  let mesh: PeeringStore;
  let regions: MemberStore;
  try {
    scheduler = openSchedulerState(dataDir, onFailure, options);
    secrets = createDurableSecretsStore(dataDir.db);
    mesh = createDurablePeeringStore(dataDir.db);
    regions = createDurableMemberStore(dataDir.db);
  } catch (error) {
    dataDir.close();
    throw new DataDirError(
      `the state in ${JSON.stringify(join(dataDir.path, STATE_FILE))} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let closed = false;
  return {
    path: dataDir.path,
    taskRoot: join(dataDir.path, 'tasks'),
    scheduler,
    secrets,
    mesh,
    regions,
    close() {
      if (closed) return;
      closed = true;
      try {
        scheduler.close();
      } finally {
        dataDir.close();
      }
    },
  };
}
