import type { StatementSync } from 'node:sqlite';

import { TABLES, type RestoredState, type TableName, type TableTypes } from '../scheduler/core/index.js';
import type { DataDir } from './data-dir.js';
import { HEAD_FIELDS, headOf, LazyTable, type LazySource } from './lazy.js';
import { findUnreadable, setAsideUnreadable, showRow, unreadableMessage } from './unreadable.js';

/**
 * The rows of the scheduling state, read back at start: each table's items, restored lazily where
 * the row has a head (see ./lazy.ts), whole otherwise (deployments, volumes, nodes, and rows of a
 * format 1 data dir); and the guard that keeps the old text of a lazy item whose row is about to
 * change, so an item someone still holds never reads a newer row than the one it was.
 */
export interface StoredRows {
  /** The state read at open, or undefined for a data dir that holds none yet. */
  readonly restored: RestoredState | undefined;
  /** Call before a row is written or deleted (inside the write's transaction). */
  beforeWrite(table: TableName, id: string): void;
  /** Number of restored items not read whole yet. */
  readonly unread: number;
  /** Stops reading rows: an item not read whole by now throws when asked for more than its head. */
  close(): void;
}

/** Tables sorted by `CreateIndex` then ID (their sort key is not their row id). */
const SORTED_BY_CREATE_INDEX: ReadonlySet<TableName> = new Set(['evals', 'allocs', 'deployments']);

/** Upgrades a format 1 data dir: the head of every item, written in one transaction. */
function writeHeads(dataDir: DataDir): void {
  const { db } = dataDir;
  const put = db.prepare('INSERT OR REPLACE INTO heads (tbl, id, head) VALUES (?, ?, ?)');
  const read = db.prepare('SELECT id, body FROM items WHERE tbl = ?');
  db.exec('BEGIN');
  try {
    for (const table of TABLES) {
      for (const row of read.iterate(table) as Iterable<{ id: string; body: string }>) {
        const head = headOf(table, JSON.parse(row.body));
        if (head !== null) put.run(table, row.id, head);
      }
    }
    db.exec("DELETE FROM meta WHERE key = 'heads'; COMMIT");
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** Options of {@link openRows}. */
export interface OpenRowsOptions {
  /** Moves rows that cannot be read aside (./unreadable.ts) instead of refusing to open. @defaultValue false */
  readonly setAsideUnreadable?: boolean;
  /** Told of each row set aside. @defaultValue nothing */
  readonly warn?: (message: string) => void;
}

/**
 * Opens the rows of a data dir's scheduling state.
 * @param dataDir - The open data dir.
 * @param options - What to do with rows that cannot be read.
 * @returns the restored state (iterables of the tables' items) and the write guard.
 * @throws Error naming the rows that cannot be read and the ways out, unless they are set aside.
 */
export function openRows(dataDir: DataDir, options: OpenRowsOptions = {}): StoredRows {
  const { db } = dataDir;
  // A row the server cannot load is found here, once, rather than wherever it is first read.
  const unreadable = findUnreadable(db);
  if (unreadable.length > 0) {
    if (options.setAsideUnreadable !== true) throw new Error(unreadableMessage(dataDir.path, unreadable));
    setAsideUnreadable(db, unreadable);
    for (const row of unreadable)
      options.warn?.(
        `set aside the stored record ${showRow(row)}, which cannot be read (kept in the data dir)`,
      );
  }
  // The restored items not read whole yet, by table and row id (their proxies' targets).
  const pending = new Map<TableName, Map<string, object>>(TABLES.map((t) => [t, new Map()]));
  const body: StatementSync = db.prepare('SELECT body FROM items WHERE tbl = ? AND id = ?');
  let closed = false;
  let unread = 0;
  const source: LazySource = {
    read(table, id) {
      if (closed) {
        throw new Error(
          `the data dir ${JSON.stringify(dataDir.path)} is closed: ${table} ${id} was not read`,
        );
      }
      const row = body.get(table, id) as { body: string } | undefined;
      if (row === undefined) throw new Error(`the data dir has no row ${table} ${JSON.stringify(id)}`);
      return row.body;
    },
    settled(table, id) {
      if (pending.get(table)?.delete(id) === true) unread--;
    },
  };
  const handlers = new Map<TableName, LazyTable>(TABLES.map((t) => [t, new LazyTable(source, t)]));
  if (dataDir.meta('heads') === 'missing') writeHeads(dataDir);
  // One query and one JSON text per table for the heads (a row at a time costs several times
  // more), each head as a flat array [id, ...fields], in row id order.
  const heads: StatementSync = db.prepare(
    "SELECT '[' || group_concat('[' || json_quote(id) || ',' || substr(head, 2), ',') || ']' AS list FROM heads WHERE tbl = ?",
  );
  const wholes: StatementSync = db.prepare('SELECT body FROM items WHERE tbl = ?');
  function* items(table: TableName): Generator<unknown, void, undefined> {
    if (HEAD_FIELDS[table] === undefined) {
      for (const row of wholes.iterate(table) as Iterable<{ body: string }>) yield JSON.parse(row.body);
      return;
    }
    const list = (heads.get(table) as { list: string | null }).list;
    if (list === null) return;
    const lazy = pending.get(table) as Map<string, object>;
    const handler = handlers.get(table) as LazyTable;
    const parsed = JSON.parse(list) as [string, ...unknown[]][];
    // Row id order is the sort order of most tables; these sort by CreateIndex then ID, done here
    // on numbers (the ordered index would compare the padded text keys: several times slower).
    const at = (HEAD_FIELDS[table]?.indexOf('CreateIndex') ?? -1) + 1;
    if (SORTED_BY_CREATE_INDEX.has(table) && at > 0) {
      parsed.sort(
        (a, b) => (a[at] as number) - (b[at] as number) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0),
      );
    }
    for (const head of parsed) {
      const id = head[0];
      const known = lazy.get(id);
      if (known !== undefined) {
        yield handler.itemOf(known);
        continue;
      }
      const { item, target } = handler.item(head);
      lazy.set(id, target);
      unread++;
      yield item;
    }
  }

  let restored: RestoredState | undefined;
  const indexText = dataDir.meta('index');
  if (indexText !== undefined) {
    const tableIndexes: Partial<Record<TableName, number>> = {};
    const lists: { [K in TableName]?: Iterable<TableTypes[K]> } = {};
    for (const name of TABLES) {
      const v = dataDir.meta(`table:${name}`);
      if (v !== undefined) tableIndexes[name] = Number(v);
      (lists as Record<string, Iterable<unknown>>)[name] = { [Symbol.iterator]: () => items(name) };
    }
    restored = { index: Number(indexText), tableIndexes, items: lists };
  }

  return {
    restored,
    beforeWrite(table, id) {
      const target = pending.get(table)?.get(id);
      if (target !== undefined) handlers.get(table)?.keepText(target);
    },
    get unread() {
      return unread;
    },
    close() {
      closed = true;
    },
  };
}
