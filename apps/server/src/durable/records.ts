import type { DatabaseSync, StatementSync } from 'node:sqlite';

/**
 * One space of the `records` table (key -> JSON body): the secrets and mesh services' state.
 * Every write is its own SQLite transaction, committed (fsynced) before the call returns, so a
 * service that answers after a write answers only once it is durable. These writes are few
 * (configuration, users, groups, issued tokens, peerings): no group commit is needed.
 */
export interface RecordSpace {
  /** Every record, in key order. */
  entries(): [string, unknown][];
  /** Creates or replaces a record. */
  put(key: string, value: unknown): void;
  /** Removes a record. */
  delete(key: string): void;
}

/** Opens the space `space` of the records table. */
export function recordSpace(db: DatabaseSync, space: string): RecordSpace {
  const all: StatementSync = db.prepare('SELECT key, body FROM records WHERE space = ? ORDER BY key');
  const put: StatementSync = db.prepare(
    'INSERT INTO records (space, key, body) VALUES (?, ?, ?) ON CONFLICT (space, key) DO UPDATE SET body = excluded.body',
  );
  const del: StatementSync = db.prepare('DELETE FROM records WHERE space = ? AND key = ?');
  return {
    entries: () =>
      (all.all(space) as { key: string; body: string }[]).map((r) => [r.key, JSON.parse(r.body) as unknown]),
    put: (key, value) => void put.run(space, key, JSON.stringify(value)),
    delete: (key) => void del.run(space, key),
  };
}
