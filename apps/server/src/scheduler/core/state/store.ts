import { createIndexWatch, type IndexWatch } from '@sked/query';

import type {
  Allocation,
  ClusterEvent,
  CsiVolume,
  Deployment,
  EventBatch,
  Evaluation,
  Job,
  JobSubmission,
  JobSummary,
  Node,
} from '../types.js';
import { changeOf, deriveEvents, type LoggedChange, type WriteKind } from './events.js';
import { jobKey } from './keys.js';
import type { RestoredState, StoreOptions } from './persistence.js';
import {
  committedOfJob,
  createTables,
  sortByKey,
  TABLES,
  type Table,
  type TableImpl,
  type TableName,
  type Tables,
  type TableTypes,
} from './tables.js';

export { jobKey, versionKey } from './keys.js';
export type { Table, TableName, TableTypes } from './tables.js';
export type { RestoredState, StoreBackend, StoreOptions } from './persistence.js';
export type { WriteKind } from './events.js';

/** Read access to the state: what the scheduler, the routes and the derivers see. */
export interface StateView {
  /** Reads an item by identity (the table ordering's id). */
  get<K extends TableName>(table: K, id: string): TableTypes[K] | undefined;
  /** Every item of a table. */
  all<K extends TableName>(table: K): TableTypes[K][];
  /** The items of a table that belong to a job (jobVersions, submissions, evals, deployments, allocs). */
  ofJob<K extends TableName>(table: K, namespace: string, jobId: string): TableTypes[K][];
}

/** A write in progress: reads see its own writes; nothing is visible to others until commit. */
export interface Txn extends StateView {
  /** The index this write commits at. */
  readonly index: number;
  /** Inserts or replaces an item. */
  put<K extends TableName>(table: K, item: TableTypes[K]): void;
  /** Deletes an item by identity. */
  delete(table: TableName, id: string): void;
  /** Runs `fn` after the commit succeeded (e.g. to start timers). */
  after(fn: () => void): void;
  /** Whether anything was written. */
  readonly dirty: boolean;
}

/** Marks a deleted item in a {@link ChangeSet}. */
export const DELETED: unique symbol = Symbol('deleted');

/**
 * Everything one write changes, handed to the single commit point: the index it commits at, the
 * new value (or {@link DELETED}) of every touched item per table, and its events. A persistence
 * backend records exactly this.
 */
export interface ChangeSet {
  readonly index: number;
  readonly writes: ReadonlyMap<TableName, ReadonlyMap<string, unknown>>;
  readonly events: readonly ClusterEvent[];
}

/** Derives state that follows from a write (job status, summaries): runs inside every write, before commit. */
export type Deriver = (tx: Txn, changes: ReadonlyMap<TableName, ReadonlyMap<string, Change>>) => void;

/** One item a write touched: its committed value before the write and its value after (undefined: absent). */
export interface Change {
  readonly before: unknown;
  readonly after: unknown;
}

/** The state store: tables, a global index and per-table watches. */
export interface Store {
  /** The last committed index (starts at 1 on a new cluster). */
  readonly index: number;
  /** The global index watch (advanced by every write). */
  readonly watch: IndexWatch;
  readonly jobs: Table<Job>;
  readonly jobVersions: Table<Job>;
  readonly submissions: Table<JobSubmission>;
  readonly summaries: Table<JobSummary>;
  readonly evals: Table<Evaluation>;
  readonly deployments: Table<Deployment>;
  readonly allocs: Table<Allocation>;
  readonly volumes: Table<CsiVolume>;
  readonly nodes: Table<Node>;
  /** The committed state, read-only. */
  readonly view: StateView;
  /** Items of a table belonging to a job, in the table's order. */
  ofJob<K extends 'jobVersions' | 'submissions' | 'evals' | 'deployments' | 'allocs'>(
    table: K,
    namespace: string,
    jobId: string,
  ): TableTypes[K][];
  /**
   * Runs `fn` as one atomic write: if it throws, nothing is changed and the error propagates;
   * otherwise the derivers run, its changes are applied at once, the global index and the touched
   * tables' watches advance, and the events derived from its changes (state/events.ts) are
   * emitted as one batch. A write that changes nothing does not advance the index. `kind` says
   * what the write is where its changes alone do not (job deregistrations).
   */
  write<R>(fn: (tx: Txn) => R, kind?: WriteKind): R;
  /** Runs `fn` on a transaction that is then discarded: a dry run (plans). Nothing is stored or emitted. */
  dryRun<R>(fn: (tx: Txn) => R): R;
  /** Adds a deriver run by every later write before its commit. */
  derive(deriver: Deriver): void;
  /** Subscribes to committed event batches (with a backend: once each batch is durable). */
  onEvents(listener: (batch: EventBatch) => void): () => void;
  /**
   * Indexes the next table of a restored state that nothing has read yet (tables index their
   * restored items on first access; this does it ahead, a table at a time). False when none is left.
   */
  settle(): boolean;
  /**
   * Whether the commits up to `index` (default: the last) are durable: `undefined` when they are
   * (always, without a backend), else a promise resolved once they are. Answer a write after this.
   */
  synced(index?: number): Promise<void> | undefined;
}

/** The store as the routes and the facade's users see it: reads, watches and events, no writes. */
export type ReadonlyStore = Omit<Store, 'write' | 'dryRun' | 'derive' | 'settle'>;

interface Pending {
  readonly tx: Txn;
  readonly writes: Map<TableName, Map<string, unknown>>;
  /** Every put and delete, in order: what the events are derived from. */
  readonly log: LoggedChange[];
  readonly afters: (() => void)[];
}

function committedView(tables: Tables): StateView {
  const impl = (name: TableName): TableImpl<unknown> => tables[name] as TableImpl<unknown>;
  return {
    get: (table, id) => impl(table).map.get(id) as never,
    all: (table) => [...impl(table).map.values()] as never,
    ofJob: (table, namespace, jobId) => committedOfJob(impl(table), namespace, jobId) as never,
  };
}

/** A transaction over the committed tables at index `next`, collecting its writes. */
function begin(tables: Tables, next: number): Pending {
  const writes = new Map<TableName, Map<string, unknown>>();
  const log: LoggedChange[] = [];
  const afters: (() => void)[] = [];
  const impl = (name: TableName): TableImpl<unknown> => tables[name] as TableImpl<unknown>;
  const pendingOf = (table: TableName): Map<string, unknown> => {
    let p = writes.get(table);
    if (!p) writes.set(table, (p = new Map()));
    return p;
  };
  const tx: Txn = {
    index: next,
    get(table, id) {
      const p = writes.get(table);
      if (p?.has(id)) {
        const v = p.get(id);
        return (v === DELETED ? undefined : v) as never;
      }
      return impl(table).map.get(id) as never;
    },
    all(table) {
      const t = impl(table);
      const p = writes.get(table);
      const out: unknown[] = [];
      for (const [id, v] of t.map) if (!p?.has(id)) out.push(v);
      if (p) for (const v of p.values()) if (v !== DELETED) out.push(v);
      return (p ? sortByKey(t, out) : out) as never;
    },
    ofJob(table, namespace, jobId) {
      const t = impl(table);
      const p = writes.get(table);
      const base = committedOfJob(t, namespace, jobId);
      if (!p) return base as never;
      const out: unknown[] = [];
      for (const v of base) if (!p.has(t.ordering.id(v))) out.push(v);
      const group = jobKey(namespace, jobId);
      for (const v of p.values()) if (v !== DELETED && t.groupOf?.(v) === group) out.push(v);
      return sortByKey(t, out) as never;
    },
    put(table, item) {
      const id = impl(table).ordering.id(item);
      log.push(changeOf(table, tx.get(table, id), item));
      pendingOf(table).set(id, item);
    },
    delete(table, id) {
      log.push(changeOf(table, tx.get(table, id), undefined));
      pendingOf(table).set(id, DELETED);
    },
    after: (f) => void afters.push(f),
    get dirty() {
      return writes.size > 0;
    },
  };
  return { tx, writes, log, afters };
}

/** Applies a change set to the tables (their maps, ordered indexes, per-job groups and watches). */
function apply(tables: Tables, change: ChangeSet): void {
  for (const [name, p] of change.writes) {
    const t = tables[name] as TableImpl<unknown>;
    let changed = false;
    for (const [id, v] of p) {
      const old = t.map.get(id);
      if (old === v) continue; // put again as it was (a deregistration of a stopped job): no change
      changed = true;
      if (old !== undefined && t.groupOf) {
        const g = t.groupOf(old);
        const set = t.groups.get(g);
        // An empty group goes (a collected job leaves nothing behind).
        if (set?.delete(id) === true && set.size === 0) t.groups.delete(g);
      }
      if (v === DELETED) {
        if (old !== undefined) {
          t.map.delete(id);
          t.items.delete(id);
        }
        continue;
      }
      t.map.set(id, v);
      t.items.upsert(v);
      if (t.groupOf) {
        const g = t.groupOf(v);
        let set = t.groups.get(g);
        if (!set) t.groups.set(g, (set = new Set()));
        set.add(id);
      }
    }
    if (changed) t.watch.advance(change.index);
  }
}

/**
 * Hands a restored state to empty tables (each table indexes its items on first access, see
 * {@link TableImpl.defer}) and sets the per-table indexes.
 */
function restore(tables: Tables, restored: RestoredState): void {
  for (const name of Object.keys(tables) as TableName[]) {
    const t = tables[name] as TableImpl<unknown>;
    const items = restored.items[name] as Iterable<unknown> | undefined;
    if (items !== undefined) t.defer(items);
    t.watch.advance(restored.tableIndexes[name] ?? 1);
  }
}

/**
 * Creates a store: empty at index 1, or from a restored state; with a backend, every commit is
 * recorded there at the commit point and event batches are published once durable.
 */
export function createStore(options: StoreOptions = {}): Store {
  const { backend, restored } = options;
  let index = restored?.index ?? 1;
  const globalWatch = createIndexWatch(index);
  const listeners = new Set<(batch: EventBatch) => void>();
  const derivers: Deriver[] = [];
  const tables = createTables();
  if (restored) restore(tables, restored);

  const publish = (batch: EventBatch): void => {
    for (const l of listeners) {
      try {
        l(batch);
      } catch {
        // a listener's fault is not the writer's
      }
    }
  };

  /** The one place a write's change set becomes the state (and is handed to the backend). */
  const commit = (change: ChangeSet): void => {
    backend?.record(change);
    index = change.index;
    apply(tables, change);
    globalWatch.advance(index);
    if (change.events.length === 0) return;
    const batch: EventBatch = { Index: index, Events: [...change.events] };
    const pending = backend?.durable(index);
    if (pending === undefined) publish(batch);
    else
      pending.then(
        () => publish(batch),
        () => undefined,
      );
  };

  const runDerivers = (p: Pending): void => {
    if (derivers.length === 0 || p.writes.size === 0) return;
    const changes = new Map<TableName, ReadonlyMap<string, Change>>();
    for (const [name, w] of p.writes) {
      const t = tables[name] as TableImpl<unknown>;
      const m = new Map<string, Change>();
      for (const [id, v] of w) m.set(id, { before: t.map.get(id), after: v === DELETED ? undefined : v });
      changes.set(name, m);
    }
    for (const d of derivers) d(p.tx, changes);
  };

  return {
    get index() {
      return index;
    },
    watch: globalWatch,
    ...(tables as unknown as Pick<Store, TableName>),
    view: committedView(tables),
    ofJob(table, namespace, jobId) {
      return committedOfJob(tables[table] as TableImpl<unknown>, namespace, jobId) as never;
    },
    write(fn, kind = 'write') {
      const p = begin(tables, index + 1);
      const result = fn(p.tx);
      runDerivers(p);
      if (p.writes.size > 0) {
        const next = index + 1;
        const events = deriveEvents(kind, p.log, next);
        commit({ index: next, writes: p.writes, events: events.map((e) => ({ ...e, Index: next })) });
      }
      for (const f of p.afters) f();
      return result;
    },
    dryRun(fn) {
      const p = begin(tables, index + 1);
      const result = fn(p.tx);
      runDerivers(p);
      return result;
    },
    derive(deriver) {
      derivers.push(deriver);
    },
    onEvents(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    synced: (at = index) => backend?.durable(at),
    settle: () => TABLES.some((name) => (tables[name] as TableImpl<unknown>).settle()),
  };
}
