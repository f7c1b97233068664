import {
  createIndexOrdering,
  createIndexWatch,
  createOrderedIndex,
  idOrdering,
  namespaceIdKey,
  namespaceIdOrdering,
  type IndexWatch,
  type OrderedIndex,
  type Ordering,
} from '@sked/query';

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
} from './types.js';

/** The names of the store's tables. */
export type TableName =
  | 'jobs'
  | 'jobVersions'
  | 'submissions'
  | 'summaries'
  | 'evals'
  | 'deployments'
  | 'allocs'
  | 'volumes'
  | 'nodes';

/** The item type of each table. */
export interface TableTypes {
  jobs: Job;
  jobVersions: Job;
  submissions: JobSubmission;
  summaries: JobSummary;
  evals: Evaluation;
  deployments: Deployment;
  allocs: Allocation;
  volumes: CsiVolume;
  nodes: Node;
}

/** One table: its items in pagination order, and a watch of its index for blocking queries. */
export interface Table<T> {
  /** The items, ordered for pagination (see the ordering of each table in the README). */
  readonly items: OrderedIndex<T>;
  /** Advanced to the global index by every write that touches this table. */
  readonly watch: IndexWatch;
  /** The item of an identity (the ordering's `id`), or undefined. */
  get(id: string): T | undefined;
  /** Number of items. */
  readonly size: number;
}

const SEP = '\u0000';
const pad = (n: number): string => String(n).padStart(12, '0');

/** Identity of a job version in `jobVersions` (and of a submission in `submissions`). */
export function versionKey(namespace: string, jobId: string, version: number): string {
  return `${namespace}${SEP}${jobId}${SEP}${pad(version)}`;
}

/** Group key of everything belonging to a job. */
export function jobKey(namespace: string, jobId: string): string {
  return namespaceIdKey(namespace, jobId);
}

function versionOrdering<T extends { Namespace: string; ID?: string; JobID?: string; Version: number }>(
  idOf: (item: T) => string,
): Ordering<T> {
  return {
    id: (item) => versionKey(item.Namespace, idOf(item), item.Version),
    key: (item) => versionKey(item.Namespace, idOf(item), item.Version),
    token: (item) => `${item.Namespace}.${idOf(item)}.${item.Version}`,
    seek: (token) => token,
  };
}

function summaryOrdering(): Ordering<JobSummary> {
  return {
    id: (s) => namespaceIdKey(s.Namespace, s.JobID),
    key: (s) => namespaceIdKey(s.Namespace, s.JobID),
    token: (s) => `${s.Namespace}.${s.JobID}`,
    seek: (token) => {
      const dot = token.indexOf('.');
      return dot < 0 ? token : namespaceIdKey(token.slice(0, dot), token.slice(dot + 1));
    },
  };
}

const orderings: { [K in TableName]: () => Ordering<TableTypes[K]> } = {
  jobs: () => namespaceIdOrdering<Job>(),
  jobVersions: () => versionOrdering<Job>((j) => j.ID),
  submissions: () => versionOrdering<JobSubmission>((s) => s.JobID),
  summaries: summaryOrdering,
  evals: () => createIndexOrdering<Evaluation>(),
  deployments: () => createIndexOrdering<Deployment>(),
  allocs: () => createIndexOrdering<Allocation>(),
  volumes: () => namespaceIdOrdering<CsiVolume>(),
  nodes: () => idOrdering<Node>(),
};

/** Secondary index: the job an item belongs to (for per-job lookups). */
const groupOf: { [K in TableName]?: (item: TableTypes[K]) => string } = {
  jobVersions: (j) => jobKey(j.Namespace, j.ID),
  submissions: (s) => jobKey(s.Namespace, s.JobID),
  evals: (e) => jobKey(e.Namespace, e.JobID),
  deployments: (d) => jobKey(d.Namespace, d.JobID),
  allocs: (a) => jobKey(a.Namespace, a.JobID),
};

const TABLES: readonly TableName[] = [
  'jobs',
  'jobVersions',
  'submissions',
  'summaries',
  'evals',
  'deployments',
  'allocs',
  'volumes',
  'nodes',
];

interface TableImpl<T> extends Table<T> {
  readonly ordering: Ordering<T>;
  readonly map: Map<string, T>;
  readonly groups: Map<string, Set<string>>;
  readonly groupOf: ((item: T) => string) | undefined;
}

/** A write in progress: reads see its own writes; nothing is visible to others until commit. */
export interface Txn {
  /** The index this write commits at. */
  readonly index: number;
  /** Reads an item by identity (the table ordering's id). */
  get<K extends TableName>(table: K, id: string): TableTypes[K] | undefined;
  /** Every item of a table (as seen by this write). */
  all<K extends TableName>(table: K): TableTypes[K][];
  /** The items of a table that belong to a job (jobVersions, submissions, evals, deployments, allocs). */
  ofJob<K extends TableName>(table: K, namespace: string, jobId: string): TableTypes[K][];
  /** Inserts or replaces an item. */
  put<K extends TableName>(table: K, item: TableTypes[K]): void;
  /** Deletes an item by identity. */
  delete(table: TableName, id: string): void;
  /** Queues an event (its Index is set at commit). */
  emit(event: Omit<ClusterEvent, 'Index'>): void;
  /** Runs `fn` after the commit succeeded (e.g. to start timers). */
  after(fn: () => void): void;
  /** Whether anything was written. */
  readonly dirty: boolean;
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
  /** Items of a table belonging to a job, in the table's order. */
  ofJob<K extends 'jobVersions' | 'submissions' | 'evals' | 'deployments' | 'allocs'>(
    table: K,
    namespace: string,
    jobId: string,
  ): TableTypes[K][];
  /**
   * Runs `fn` as one atomic write: if it throws, nothing is changed and the error propagates;
   * otherwise its changes are applied at once, the global index and the touched tables' watches
   * advance, and its events are emitted as one batch. A write that changes nothing does not advance
   * the index.
   */
  write<R>(fn: (tx: Txn) => R): R;
  /** Subscribes to committed event batches. */
  onEvents(listener: (batch: EventBatch) => void): () => void;
}

/** Creates an empty store at index 1. */
export function createStore(): Store {
  let index = 1;
  const globalWatch = createIndexWatch(1);
  const listeners = new Set<(batch: EventBatch) => void>();
  const tables = {} as { [K in TableName]: TableImpl<TableTypes[K]> };
  for (const name of TABLES) {
    const ordering = orderings[name]() as Ordering<unknown>;
    const map = new Map<string, unknown>();
    const items = createOrderedIndex(ordering);
    const impl: TableImpl<unknown> = {
      ordering,
      map,
      items,
      watch: createIndexWatch(1),
      groups: new Map(),
      groupOf: groupOf[name] as ((item: unknown) => string) | undefined,
      get: (id) => map.get(id),
      get size() {
        return map.size;
      },
    };
    (tables as Record<string, TableImpl<unknown>>)[name] = impl;
  }

  function baseOfJob(name: TableName, namespace: string, jobId: string): unknown[] {
    const t = tables[name] as TableImpl<unknown>;
    const ids = t.groups.get(jobKey(namespace, jobId));
    if (!ids) return [];
    const out: unknown[] = [];
    for (const id of ids) {
      const v = t.map.get(id);
      if (v !== undefined) out.push(v);
    }
    return sortBy(t, out);
  }

  function sortBy(t: TableImpl<unknown>, list: unknown[]): unknown[] {
    return list
      .map((v) => [t.ordering.key(v), v] as const)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([, v]) => v);
  }

  const store: Store = {
    get index() {
      return index;
    },
    watch: globalWatch,
    ...(tables as unknown as Pick<Store, TableName>),
    ofJob(table, namespace, jobId) {
      return baseOfJob(table, namespace, jobId) as never;
    },
    write(fn) {
      const pending = new Map<TableName, Map<string, unknown>>();
      const events: Omit<ClusterEvent, 'Index'>[] = [];
      const afters: (() => void)[] = [];
      const DELETED = Symbol('deleted');
      const next = index + 1;
      const readPending = (table: TableName, id: string): unknown => {
        const p = pending.get(table);
        if (p?.has(id)) {
          const v = p.get(id);
          return v === DELETED ? undefined : v;
        }
        return tables[table].map.get(id);
      };
      const tx: Txn = {
        index: next,
        get: (table, id) => readPending(table, id) as never,
        all(table) {
          const t = tables[table] as TableImpl<unknown>;
          const p = pending.get(table);
          const out: unknown[] = [];
          for (const [id, v] of t.map) if (!p?.has(id)) out.push(v);
          if (p) for (const v of p.values()) if (v !== DELETED) out.push(v);
          return (p ? sortBy(t, out) : out) as never;
        },
        ofJob(table, namespace, jobId) {
          const t = tables[table] as TableImpl<unknown>;
          const p = pending.get(table);
          const base = baseOfJob(table, namespace, jobId);
          if (!p) return base as never;
          const out: unknown[] = [];
          for (const v of base) if (!p.has(t.ordering.id(v))) out.push(v);
          const group = jobKey(namespace, jobId);
          for (const v of p.values()) if (v !== DELETED && t.groupOf?.(v) === group) out.push(v);
          return sortBy(t, out) as never;
        },
        put(table, item) {
          const t = tables[table] as TableImpl<unknown>;
          let p = pending.get(table);
          if (!p) pending.set(table, (p = new Map()));
          p.set(t.ordering.id(item), item);
        },
        delete(table, id) {
          let p = pending.get(table);
          if (!p) pending.set(table, (p = new Map()));
          p.set(id, DELETED);
        },
        emit: (event) => void events.push(event),
        after: (f) => void afters.push(f),
        get dirty() {
          return pending.size > 0;
        },
      };
      const result = fn(tx);
      if (pending.size === 0 && events.length === 0) {
        for (const f of afters) f();
        return result;
      }
      // Commit: nothing below can fail on user input.
      index = next;
      for (const [name, p] of pending) {
        const t = tables[name] as TableImpl<unknown>;
        for (const [id, v] of p) {
          const old = t.map.get(id);
          if (old !== undefined && t.groupOf) t.groups.get(t.groupOf(old))?.delete(id);
          if (v === DELETED) {
            if (old !== undefined) {
              t.map.delete(id);
              t.items.delete(id);
            }
          } else {
            t.map.set(id, v);
            t.items.upsert(v);
            if (t.groupOf) {
              const g = t.groupOf(v);
              let set = t.groups.get(g);
              if (!set) t.groups.set(g, (set = new Set()));
              set.add(id);
            }
          }
        }
        t.watch.advance(index);
      }
      globalWatch.advance(index);
      if (events.length > 0) {
        const batch: EventBatch = { Index: index, Events: events.map((e) => ({ ...e, Index: index })) };
        for (const l of listeners) {
          try {
            l(batch);
          } catch {
            // a listener's fault is not the writer's
          }
        }
      }
      for (const f of afters) f();
      return result;
    },
    onEvents(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
  return store;
}
