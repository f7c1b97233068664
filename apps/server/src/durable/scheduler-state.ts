import type { StatementSync } from 'node:sqlite';

import {
  DELETED,
  type ChangeSet,
  type RestoredState,
  type StoreBackend,
  type TableName,
} from '../scheduler/core/index.js';
import type { DataDir } from './data-dir.js';
import { HEAD_FIELDS, headOf } from './lazy.js';
import { openRows, type OpenRowsOptions } from './rows.js';
import { openTimes } from './times.js';

/** The scheduling state's backend on a data dir, with what it restored. */
export interface SchedulerState extends StoreBackend {
  /** The state read at open, or undefined for a data dir that holds none yet. */
  readonly restored: RestoredState | undefined;
  /** Writes what is pending now (close and tests); throws the write's error. */
  flush(): void;
  /** Writes what is pending; restored items not read whole by now can no longer be. */
  close(): void;
  /** Number of restored items not read whole yet (see ./lazy.ts). */
  readonly unread: number;
  /** The error that stopped the backend, if any: no write is acknowledged after it. */
  readonly failure: Error | undefined;
  /** Commits (transactions) written and change sets recorded since open. */
  stats(): { commits: number; changes: number };
}

interface Deferred {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Nobody may be waiting when a write fails: that rejection is not unhandled.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/**
 * The scheduling state on a data dir. Every commit of the store is recorded (the latest value of
 * each touched item is kept); the pending changes are written in one SQLite transaction at the
 * end of the event loop's turn (group commit: every write of that turn shares one fsync), with
 * the global and per-table indexes. {@link StoreBackend.durable} resolves when that transaction
 * committed, so a write is answered only once it is on disk, and no half of a write can be: a
 * change set is always inside one transaction.
 * @param dataDir - The open data dir.
 * @param onFailure - Told once when a write fails (the server stops acknowledging writes).
 * @returns the backend, with the state it read.
 */
export function openSchedulerState(
  dataDir: DataDir,
  onFailure?: (error: Error) => void,
  options: OpenRowsOptions = {},
): SchedulerState {
  const { db } = dataDir;
  const rows = openRows(dataDir, options);
  const times = openTimes(db, rows.restored?.index ?? 0);
  const restored: RestoredState | undefined = rows.restored && { ...rows.restored, times: times.restored };
  const put: StatementSync = db.prepare(
    'INSERT INTO items (tbl, id, body) VALUES (?, ?, ?) ON CONFLICT (tbl, id) DO UPDATE SET body = excluded.body',
  );
  const del: StatementSync = db.prepare('DELETE FROM items WHERE tbl = ? AND id = ?');
  const putHead: StatementSync = db.prepare(
    'INSERT INTO heads (tbl, id, head) VALUES (?, ?, ?) ON CONFLICT (tbl, id) DO UPDATE SET head = excluded.head',
  );
  const delHead: StatementSync = db.prepare('DELETE FROM heads WHERE tbl = ? AND id = ?');
  const setMeta: StatementSync = db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );

  let pending = new Map<TableName, Map<string, unknown>>();
  // The index of each pending table's last write: a flush covers several commits, and a table's
  // stored index is the one its blocking queries saw, not the batch's last.
  let pendingTables = new Map<TableName, number>();
  let pendingIndex = 0;
  let durableIndex = restored?.index ?? 0;
  let waiting: Deferred | undefined;
  let scheduled = false;
  let failure: Error | undefined;
  let commits = 0;
  let changes = 0;
  let deletes = 0;

  const flush = (): void => {
    scheduled = false;
    if (failure !== undefined || pendingIndex <= durableIndex) return;
    const writes = pending;
    const tableIndexes = pendingTables;
    const index = pendingIndex;
    const done = waiting;
    pending = new Map();
    pendingTables = new Map();
    waiting = undefined;
    try {
      db.exec('BEGIN');
      for (const [table, items] of writes) {
        const lazy = HEAD_FIELDS[table] !== undefined;
        for (const [id, value] of items) {
          rows.beforeWrite(table, id);
          if (value === DELETED) {
            del.run(table, id);
            if (lazy) delHead.run(table, id);
            deletes++;
            continue;
          }
          put.run(table, id, JSON.stringify(value));
          if (lazy) putHead.run(table, id, headOf(table, value));
        }
        setMeta.run(`table:${table}`, String(tableIndexes.get(table) ?? index));
      }
      setMeta.run('index', String(index));
      db.exec('COMMIT');
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
      failure = new Error(
        `the data dir ${JSON.stringify(dataDir.path)} could not be written: ${failure.message}`,
      );
      try {
        db.exec('ROLLBACK');
      } catch {
        // the transaction may not have begun
      }
      done?.reject(failure);
      onFailure?.(failure);
      return;
    }
    commits++;
    durableIndex = index;
    done?.resolve();
    if (deletes >= 1000) {
      // After a collection: give the freed pages back to the file system and empty the WAL.
      deletes = 0;
      try {
        db.exec('PRAGMA incremental_vacuum; PRAGMA wal_checkpoint(TRUNCATE);');
      } catch {
        // space is reclaimed at the next attempt
      }
    }
  };

  return {
    restored,
    times: { add: (index, ms) => times.add(index, ms), prune: (ms) => times.prune(ms) },
    record(change: ChangeSet) {
      changes++;
      for (const [table, items] of change.writes) {
        let p = pending.get(table);
        if (p === undefined) pending.set(table, (p = new Map()));
        for (const [id, value] of items) p.set(id, value);
        if (items.size > 0) pendingTables.set(table, change.index);
      }
      pendingIndex = change.index;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    durable(index) {
      if (failure !== undefined) return Promise.reject(failure);
      if (index <= durableIndex) return undefined;
      waiting ??= deferred();
      return waiting.promise;
    },
    flush() {
      flush();
      if (failure !== undefined) throw failure;
    },
    close() {
      try {
        flush();
      } finally {
        rows.close();
      }
      if (failure !== undefined) throw failure;
    },
    get unread() {
      return rows.unread;
    },
    get failure() {
      return failure;
    },
    stats: () => ({ commits, changes }),
  };
}
