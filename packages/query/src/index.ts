/**
 * Pagination and blocking-query primitives for both sides of the wire, with no transport.
 *
 * Server side: {@link createOrderedIndex} + {@link readPage} for paged lists, {@link createIndexWatch}
 * + {@link parseWait} for blocking queries. Client side: {@link paginate}, {@link paginateItems},
 * {@link collect}, {@link watch}, {@link sleep}. See the package README for decisions and limits.
 *
 * @packageDocumentation
 */

// Server side: ordered collections and pages
export type { Ordering } from './ordering.js';
export {
  createIndexKey,
  createIndexOrdering,
  idOrdering,
  namespaceIdKey,
  namespaceIdOrdering,
} from './ordering.js';
export type { IterateOptions, OrderedIndex, OrderedIndexOptions } from './ordered-index.js';
export { createOrderedIndex } from './ordered-index.js';
export type { ReadPageOptions, ReadPageResult } from './read-page.js';
export { readPage } from './read-page.js';

// Server side: blocking queries
export type { ParseWaitResult } from './parse-wait.js';
export { DEFAULT_WAIT_MS, formatWait, MAX_WAIT_MS, parseWait } from './parse-wait.js';
export type { IndexWatch, IndexWatchOptions, WaitForOptions } from './index-watch.js';
export { createIndexWatch } from './index-watch.js';

// Client side
export type { PageCursor, PageFetcher, PageResponse, PaginateOptions } from './paginate.js';
export { paginate, paginateItems } from './paginate.js';
export type { CollectOptions } from './collect.js';
export { collect } from './collect.js';
export type { WatchCursor, WatchFetcher, WatchOptions, WatchResponse, WatchRetry } from './watch.js';
export { isRetryable, watch } from './watch.js';
export type { SleepOptions } from './sleep.js';
export { sleep } from './sleep.js';
