import type { DatabaseSync, StatementSync } from 'node:sqlite';

import type { StoreBackend } from '../scheduler/core/index.js';

/** The garbage collector's time table on a data dir (table `times`), and the pairs it restored. */
export interface StoredTimes extends NonNullable<StoreBackend['times']> {
  /** The pairs kept before the restart, in index order. */
  readonly restored: readonly (readonly [number, number])[];
}

/**
 * Opens the time table of a data dir. Pairs above the restored index are dropped at open: after
 * `kill -9`, commits past the last durable one never happened, and their indexes will be reused
 * by later commits (a pair for them would make a record look older than it is). Each new pair is
 * its own small transaction (the collector samples at most once a second, only when the index
 * moved).
 * @param db - The data dir's database.
 * @param restoredIndex - The last durable index (0 for a new data dir).
 * @returns the stored time table.
 */
export function openTimes(db: DatabaseSync, restoredIndex: number): StoredTimes {
  db.prepare('DELETE FROM times WHERE idx > ?').run(restoredIndex);
  const restored = (
    db.prepare('SELECT idx, ms FROM times ORDER BY idx').all() as { idx: number; ms: number }[]
  ).map((r) => [r.idx, r.ms] as const);
  const add: StatementSync = db.prepare('INSERT OR REPLACE INTO times (idx, ms) VALUES (?, ?)');
  const prune: StatementSync = db.prepare(
    'DELETE FROM times WHERE idx < (SELECT max(idx) FROM times WHERE ms <= ?)',
  );
  // A pair that cannot be written costs precision, never correctness (records look younger).
  const quietly = (fn: () => void): void => {
    try {
      fn();
    } catch {
      // the data dir is closed or failing: its writes report that
    }
  };
  return {
    restored,
    add: (index, ms) => quietly(() => add.run(index, Math.round(ms))),
    prune: (ms) => quietly(() => prune.run(Math.round(ms))),
  };
}
