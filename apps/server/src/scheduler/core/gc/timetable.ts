/**
 * Which index was reached by which time, as the service's time table: sampled (index, time)
 * pairs, so that "older than a threshold" can be answered for any record by its ModifyIndex.
 * A pair (i, t) records that every commit up to index i had happened by time t; the cut-off of a
 * time is the last index recorded at or before it, so an item is never judged older than it is.
 */
export interface TimeTable {
  /** Records the index reached at `nowMs`; false (nothing recorded) when the index did not move. */
  witness(index: number, nowMs: number): boolean;
  /** The highest index known to be committed at or before `ms` (0 when none is). */
  indexAt(ms: number): number;
  /** Drops pairs older than `ms`, keeping the last one before it (it still answers {@link indexAt}). */
  prune(ms: number): void;
  /** Number of pairs held. */
  readonly size: number;
}

/** Creates an empty time table. */
export function createTimeTable(): TimeTable {
  let indexes: number[] = [];
  let times: number[] = [];
  return {
    witness(index, nowMs) {
      if ((indexes.at(-1) ?? 0) >= index) return false;
      indexes.push(index);
      times.push(nowMs);
      return true;
    },
    indexAt(ms) {
      let lo = 0;
      let hi = times.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((times[mid] ?? 0) <= ms) lo = mid + 1;
        else hi = mid;
      }
      return lo === 0 ? 0 : (indexes[lo - 1] ?? 0);
    },
    prune(ms) {
      let keep = 0;
      while (keep + 1 < times.length && (times[keep + 1] ?? Infinity) <= ms) keep++;
      if (keep === 0) return;
      indexes = indexes.slice(keep);
      times = times.slice(keep);
    },
    get size() {
      return indexes.length;
    },
  };
}
