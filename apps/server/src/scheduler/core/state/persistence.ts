import type { ChangeSet } from './store.js';
import type { TableName, TableTypes } from './tables.js';

/**
 * Where the store's commits go when the state is durable (`sked-server --data-dir`): the store
 * hands every change set to {@link StoreBackend.record} at its one commit point, in index order,
 * and asks {@link StoreBackend.durable} before anything of that commit leaves the process.
 */
export interface StoreBackend {
  /**
   * Records a committed change set (called once per commit, in index order, before the change is
   * visible). The values are the stored objects themselves: a backend must not change them.
   */
  record(change: ChangeSet): void;
  /**
   * Whether every change up to `index` is durable: `undefined` when it already is, otherwise a
   * promise that resolves once it is (rejects when the backend failed to write it).
   */
  durable(index: number): Promise<void> | undefined;
  /**
   * Keeps the garbage collector's time table (which index was reached by which time) across
   * restarts, so records restored from a data dir are judged by their real age.
   */
  readonly times?: {
    /** Records that every commit up to `index` had happened by `ms`. */
    add(index: number, ms: number): void;
    /** Drops pairs older than `ms`, keeping the last one before it. */
    prune(ms: number): void;
  };
}

/** A state read back from a backend: what {@link createStore} starts from instead of empty tables. */
export interface RestoredState {
  /** The last committed index. */
  readonly index: number;
  /** The index of each table (the last commit that touched it); absent tables start at 1. */
  readonly tableIndexes: Readonly<Partial<Record<TableName, number>>>;
  /** The items of each table, in any order. */
  readonly items: { readonly [K in TableName]?: Iterable<TableTypes[K]> };
  /** The garbage collector's time table, (index, ms) pairs in index order (see {@link StoreBackend.times}). */
  readonly times?: readonly (readonly [number, number])[];
}

/** Options of {@link createStore}. */
export interface StoreOptions {
  /** Receives every commit; the store's events wait for {@link StoreBackend.durable}. */
  readonly backend?: StoreBackend;
  /** Starts from this state instead of an empty store at index 1. */
  readonly restored?: RestoredState;
}
