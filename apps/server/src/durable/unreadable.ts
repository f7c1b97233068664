import type { DatabaseSync } from 'node:sqlite';

/** A stored row the server cannot load: its table and row id. */
export interface UnreadableRow {
  readonly table: string;
  readonly id: string;
}

/** The records space the rows set aside go to (the raw text kept, nothing lost). */
export const SET_ASIDE_SPACE = 'unreadable';

/** The flag that starts the server with the unreadable rows set aside. */
export const SET_ASIDE_FLAG = '--set-aside-unreadable';

/**
 * The scheduling state's rows that cannot be loaded: a body that is not a JSON object, or a head that is not a JSON array.
 * One query per table of the data dir (SQLite checks the JSON), run once at open.
 * @param db - The data dir's database.
 * @returns the rows, by table then id.
 */
export function findUnreadable(db: DatabaseSync): UnreadableRow[] {
  const notA = (col: string, type: string): string =>
    `CASE WHEN json_valid(${col}) THEN json_type(${col}) <> '${type}' ELSE 1 END`;
  const rows = db
    .prepare(
      `SELECT tbl AS "table", id FROM items WHERE ${notA('body', 'object')}
       UNION SELECT tbl AS "table", id FROM heads WHERE ${notA('head', 'array')}
       ORDER BY 1, 2`,
    )
    .all() as { table: string; id: string }[];
  return rows.map((r) => ({ table: r.table, id: r.id }));
}

/** `allocs "id"`, for messages. */
export function showRow(row: UnreadableRow): string {
  return `${row.table} ${JSON.stringify(row.id)}`;
}

/**
 * Moves unreadable rows out of the scheduling state into the `unreadable` records space (key
 * `table/id`, the raw text kept), in one transaction.
 * @param db - The data dir's database.
 * @param rows - The rows {@link findUnreadable} found.
 */
export function setAsideUnreadable(db: DatabaseSync, rows: readonly UnreadableRow[]): void {
  const read = db.prepare('SELECT body FROM items WHERE tbl = ? AND id = ?');
  const readHead = db.prepare('SELECT head FROM heads WHERE tbl = ? AND id = ?');
  const keep = db.prepare(
    'INSERT INTO records (space, key, body) VALUES (?, ?, ?) ON CONFLICT (space, key) DO UPDATE SET body = excluded.body',
  );
  const del = db.prepare('DELETE FROM items WHERE tbl = ? AND id = ?');
  const delHead = db.prepare('DELETE FROM heads WHERE tbl = ? AND id = ?');
  db.exec('BEGIN');
  try {
    for (const { table, id } of rows) {
      const body = (read.get(table, id) as { body: string } | undefined)?.body ?? null;
      const head = (readHead.get(table, id) as { head: string } | undefined)?.head ?? null;
      keep.run(SET_ASIDE_SPACE, `${table}/${id}`, JSON.stringify({ table, id, body, head }));
      del.run(table, id);
      delHead.run(table, id);
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * The sentence refusing to start on unreadable rows: which ones (the first 10), and the ways out.
 * @param dir - The data dir.
 * @param rows - The rows.
 */
export function unreadableMessage(dir: string, rows: readonly UnreadableRow[]): string {
  const shown = rows.slice(0, 10).map(showRow).join(', ');
  const more = rows.length > 10 ? ` and ${rows.length - 10} more` : '';
  return (
    `${rows.length} stored record${rows.length === 1 ? '' : 's'} cannot be read (not a JSON object): ${shown}${more}. ` +
    `Start once with ${SET_ASIDE_FLAG} to move ${rows.length === 1 ? 'it' : 'them'} aside (the text is kept in the data dir, ` +
    `records space "${SET_ASIDE_SPACE}") and go on without ${rows.length === 1 ? 'it' : 'them'}, ` +
    `or restore ${JSON.stringify(dir)} from a backup.`
  );
}
