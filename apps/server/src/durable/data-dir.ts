import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * The storage format this build writes; a data dir of a higher one is refused. 2 adds the tables
 * `heads` (the fields of an item read at start-up, see ./lazy.ts) and `times` (the garbage
 * collector's time table, see ./times.ts); a format 1 data dir is upgraded in place at open.
 */
export const FORMAT_VERSION = 2;

/** The database file inside a data dir. */
export const STATE_FILE = 'state.db';

/** A data dir that cannot be used: the message says which and why. */
export class DataDirError extends Error {
  /** Literal class name. */
  override readonly name = 'DataDirError' as const;
}

/** An open, locked data dir: one SQLite database in WAL mode, held exclusively by this process. */
export interface DataDir {
  /** The directory (absolute). */
  readonly path: string;
  /** The database; every write goes through one transaction per group commit. */
  readonly db: DatabaseSync;
  /** Whether the data dir was created by this open (nothing to restore). */
  readonly created: boolean;
  /** A value of the meta table. */
  meta(key: string): string | undefined;
  /** Closes the database, which releases the lock. */
  close(): void;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS items (tbl TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (tbl, id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS heads (tbl TEXT NOT NULL, id TEXT NOT NULL, head TEXT NOT NULL, PRIMARY KEY (tbl, id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS times (idx INTEGER PRIMARY KEY, ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS records (space TEXT NOT NULL, key TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (space, key)) WITHOUT ROWID;
`;

function errnoCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}

/** The files SQLite and the server keep in a data dir (the database, its WAL and shared memory, the pid). */
export const DATA_FILES = [STATE_FILE, `${STATE_FILE}-wal`, `${STATE_FILE}-shm`, 'sked-server.pid'] as const;

/** The default of {@link openDataDir}'s `warn`: a line on standard error. */
function warnOnStderr(message: string): void {
  process.stderr.write(`sked-server: warning: ${message}\n`);
}

/** Sets a mode exactly (the umask plays no part); a data dir we cannot fix is refused. */
function setMode(path: string, mode: number, what: string): void {
  try {
    chmodSync(path, mode);
  } catch (error) {
    throw new DataDirError(
      `cannot make ${what} ${JSON.stringify(path)} private (mode ${mode.toString(8).padStart(4, '0')}): ${errnoCode(error)}`,
    );
  }
}

/**
 * Makes the data dir 0700 whatever the umask. A directory that was open to other users is made
 * private with a warning (its files may have been read: the warning says so).
 */
function ensureDirectory(path: string, warn: (message: string) => void): void {
  const existed = existsSync(path);
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new DataDirError(`cannot create the data dir ${JSON.stringify(path)} (${errnoCode(error)})`);
  }
  const stat = statSync(path);
  if (!stat.isDirectory()) {
    throw new DataDirError(`the data dir ${JSON.stringify(path)} is not a directory`);
  }
  const mode = stat.mode & 0o777;
  if (mode === 0o700) return;
  setMode(path, 0o700, 'the data dir');
  if (existed && (mode & 0o077) !== 0) {
    warn(
      `the data dir ${JSON.stringify(path)} was open to other users (mode ${mode.toString(8).padStart(4, '0')}); ` +
        'it is now 0700. It holds the LDAP bind password and the mesh secrets: check who could read it.',
    );
  }
}

/**
 * Makes the files of the data dir 0600 before SQLite opens them: SQLite creates the WAL and
 * shared-memory files with the database file's mode, so a database file created 0600 (not left to
 * the umask) gives 0600 files throughout.
 */
function privateFiles(path: string, warn: (message: string) => void): void {
  const state = join(path, STATE_FILE);
  if (!existsSync(state)) {
    try {
      closeSync(openSync(state, 'wx', 0o600));
    } catch (error) {
      throw new DataDirError(`cannot create ${JSON.stringify(state)} (${errnoCode(error)})`);
    }
  }
  const loose: string[] = [];
  for (const name of DATA_FILES) {
    const file = join(path, name);
    if (!existsSync(file)) continue;
    const mode = statSync(file).mode & 0o777;
    if (mode === 0o600) continue;
    setMode(file, 0o600, 'the file');
    if ((mode & 0o077) !== 0) loose.push(`${name} (${mode.toString(8).padStart(4, '0')})`);
  }
  if (loose.length > 0) {
    warn(
      `files of the data dir ${JSON.stringify(path)} were open to other users: ${loose.join(', ')}; they are now 0600`,
    );
  }
}

function otherPid(path: string): string {
  try {
    const pid = readFileSync(join(path, 'sked-server.pid'), 'utf8').trim();
    return /^\d+$/.test(pid) ? ` (pid ${pid})` : '';
  } catch {
    return '';
  }
}

/** Takes the exclusive lock: another process (or connection) holding it makes this throw. */
function lock(db: DatabaseSync, path: string): void {
  try {
    // auto_vacuum takes effect only before the file's first page is written (by the WAL switch):
    // on an existing database it changes nothing.
    db.exec(
      'PRAGMA auto_vacuum = INCREMENTAL; PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; BEGIN IMMEDIATE; COMMIT;',
    );
  } catch (error) {
    db.close();
    if ((error as { errcode?: number }).errcode === 5) {
      throw new DataDirError(
        `the data dir ${JSON.stringify(path)} is in use by another sked-server${otherPid(path)}: ` +
          'one data dir serves one server at a time',
      );
    }
    throw new DataDirError(
      `cannot open ${JSON.stringify(join(path, STATE_FILE))}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Checks the storage format; creates the schema in a new database. Returns whether it was new. */
function checkFormat(db: DatabaseSync, path: string): boolean {
  const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  if (version > FORMAT_VERSION) {
    throw new DataDirError(
      `the data dir ${JSON.stringify(path)} was written by a newer sked-server (storage format ${version}; ` +
        `this one reads format ${FORMAT_VERSION}): refusing to open it rather than misread it`,
    );
  }
  if (version === FORMAT_VERSION) return false;
  if (version === 1) {
    // Format 1 files were created without auto_vacuum (it was set too late): rebuilt once with it,
    // so that pages freed by garbage collection go back to the file system.
    if ((db.prepare('PRAGMA auto_vacuum').get() as { auto_vacuum: number }).auto_vacuum !== 2) {
      db.exec(
        'PRAGMA journal_mode = DELETE; PRAGMA auto_vacuum = INCREMENTAL; VACUUM; PRAGMA journal_mode = WAL;',
      );
    }
    // The heads are filled by the scheduling state's open (./rows.ts), in the same transaction.
    db.exec(
      `BEGIN; ${SCHEMA} INSERT OR REPLACE INTO meta (key, value) VALUES ('heads', 'missing'); ` +
        `PRAGMA user_version = ${FORMAT_VERSION}; COMMIT;`,
    );
    return false;
  }
  const tables = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get() as {
    n: number;
  };
  if (tables.n > 0) {
    throw new DataDirError(
      `${JSON.stringify(join(path, STATE_FILE))} is not a sked-server state (storage format ${version})`,
    );
  }
  db.exec(`BEGIN; ${SCHEMA} PRAGMA user_version = ${FORMAT_VERSION}; COMMIT;`);
  return true;
}

/**
 * Opens (creating when absent) a data dir: `<dir>/state.db`, SQLite through `node:sqlite` in WAL
 * mode with `synchronous = FULL` (a commit returns once its WAL frames are fsynced), locked
 * exclusively for this process (the lock is the database's own and ends with the process, even
 * after `kill -9`).
 * The data dir is made 0700 and its files 0600 whatever the umask; one that was open to other
 * users is made private with a warning.
 * @param dir - The data dir.
 * @param warn - Told when the data dir or its files were open to other users (and were fixed).
 * @returns the open data dir.
 * @throws {@link DataDirError} when it is in use, of a newer format, not a sked state, or unusable.
 */
export function openDataDir(dir: string, warn: (message: string) => void = warnOnStderr): DataDir {
  const path = resolve(dir);
  ensureDirectory(path, warn);
  privateFiles(path, warn);
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(join(path, STATE_FILE), { timeout: 0 });
  } catch (error) {
    throw new DataDirError(
      `cannot open ${JSON.stringify(join(path, STATE_FILE))}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  lock(db, path);
  // It holds the LDAP bind password and the mesh stream secrets: readable by this user only
  // (SQLite created the WAL and shared memory with the database's mode; this checks it).
  privateFiles(path, warn);
  let created: boolean;
  try {
    db.exec(
      'PRAGMA synchronous = FULL; PRAGMA wal_autocheckpoint = 4000; PRAGMA journal_size_limit = 67108864;',
    );
    created = checkFormat(db, path);
  } catch (error) {
    db.close();
    if (error instanceof DataDirError) throw error;
    throw new DataDirError(
      `${JSON.stringify(join(path, STATE_FILE))} cannot be read as a sked-server state: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  writeFileSync(join(path, 'sked-server.pid'), `${process.pid}\n`, { mode: 0o600 });
  setMode(join(path, 'sked-server.pid'), 0o600, 'the file');
  mkdirSync(join(path, 'tasks'), { recursive: true, mode: 0o700 });
  setMode(join(path, 'tasks'), 0o700, 'the task directory');
  const metaGet = db.prepare('SELECT value FROM meta WHERE key = ?');
  let closed = false;
  return {
    path,
    db,
    created,
    meta: (key) => (metaGet.get(key) as { value: string } | undefined)?.value,
    close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
