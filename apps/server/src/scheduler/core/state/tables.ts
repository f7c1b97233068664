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
  CsiVolume,
  Deployment,
  Evaluation,
  Job,
  JobSubmission,
  JobSummary,
  Node,
} from '../types.js';
import { jobKey, versionKey } from './keys.js';

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

export const TABLES: readonly TableName[] = [
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

/**
 * A table's storage: the map by identity, the ordered index and the per-job groups. Restored
 * items may be handed over deferred: they are indexed on the first access to any of these (or by
 * {@link TableImpl.settle}), so a start-up does not pay for tables nobody reads yet.
 */
export interface TableImpl<T> extends Table<T> {
  readonly ordering: Ordering<T>;
  readonly map: Map<string, T>;
  readonly groups: Map<string, Set<string>>;
  readonly groupOf: ((item: T) => string) | undefined;
  /** Hands over restored items (the table must be empty), indexed on first access. */
  defer(items: Iterable<T>): void;
  /** Indexes the deferred items now; false when there were none. */
  settle(): boolean;
}

/** Every table, by name. */
export type Tables = { [K in TableName]: TableImpl<TableTypes[K]> };

/** Indexes restored items into empty storage: the map, the groups, the ordered index in one fill. */
function load<T>(
  ordering: Ordering<T>,
  groupOf: ((item: T) => string) | undefined,
  into: { map: Map<string, T>; groups: Map<string, Set<string>>; items: OrderedIndex<T> },
  restored: Iterable<T>,
): void {
  const list: T[] = [];
  for (const v of restored) {
    const id = ordering.id(v);
    into.map.set(id, v);
    list.push(v);
    if (!groupOf) continue;
    const g = groupOf(v);
    let set = into.groups.get(g);
    if (!set) into.groups.set(g, (set = new Set()));
    set.add(id);
  }
  into.items.fill(list);
}

function createTable<T>(ordering: Ordering<T>, groupOf: ((item: T) => string) | undefined): TableImpl<T> {
  const storage = {
    map: new Map<string, T>(),
    groups: new Map<string, Set<string>>(),
    items: createOrderedIndex(ordering),
  };
  let deferred: Iterable<T> | undefined;
  const settle = (): boolean => {
    if (deferred === undefined) return false;
    const restored = deferred;
    deferred = undefined;
    load(ordering, groupOf, storage, restored);
    return true;
  };
  return {
    ordering,
    groupOf,
    watch: createIndexWatch(1),
    get map() {
      settle();
      return storage.map;
    },
    get groups() {
      settle();
      return storage.groups;
    },
    get items() {
      settle();
      return storage.items;
    },
    get: (id) => {
      settle();
      return storage.map.get(id);
    },
    get size() {
      settle();
      return storage.map.size;
    },
    defer(items) {
      settle();
      deferred = items;
    },
    settle,
  };
}

/** Creates the empty tables, each watched from index 1. */
export function createTables(): Tables {
  const tables = {} as Record<string, TableImpl<unknown>>;
  for (const name of TABLES) {
    tables[name] = createTable(
      orderings[name]() as Ordering<unknown>,
      groupOf[name] as ((item: unknown) => string) | undefined,
    );
  }
  return tables as unknown as Tables;
}

/**
 * The sort keys of items, per ordering: items are never changed once stored, so an item's key is
 * built once (a job's allocations are sorted on every read of them, thousands at a time).
 */
const sortKeys = new WeakMap<Ordering<unknown>, WeakMap<object, string>>();

function keyOf(ordering: Ordering<unknown>, item: unknown): string {
  if (typeof item !== 'object' || item === null) return ordering.key(item);
  let keys = sortKeys.get(ordering);
  if (!keys) sortKeys.set(ordering, (keys = new WeakMap()));
  let key = keys.get(item);
  if (key === undefined) keys.set(item, (key = ordering.key(item)));
  return key;
}

/** Sorts items of a table in the table's order (a list already in order, the usual case, is returned as is). */
export function sortByKey(t: TableImpl<unknown>, list: unknown[]): unknown[] {
  const keys = list.map((v) => keyOf(t.ordering, v));
  if (keys.every((k, i) => i === 0 || (keys[i - 1] as string) <= k)) return list;
  return list
    .map((v, i) => [keys[i] as string, v] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([, v]) => v);
}

/** The committed items of a table that belong to a job, in the table's order. */
export function committedOfJob(t: TableImpl<unknown>, namespace: string, jobId: string): unknown[] {
  const ids = t.groups.get(jobKey(namespace, jobId));
  if (!ids) return [];
  const out: unknown[] = [];
  for (const id of ids) {
    const v = t.map.get(id);
    if (v !== undefined) out.push(v);
  }
  return sortByKey(t, out);
}
