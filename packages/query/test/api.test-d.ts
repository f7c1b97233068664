// Public-API type tests: checked by `tsc --noEmit` (the typecheck script), which fails on any
// expectation that does not hold.
import { expectTypeOf } from 'vitest';

import {
  collect,
  createIndexOrdering,
  createIndexWatch,
  createOrderedIndex,
  type IndexWatch,
  type OrderedIndex,
  type PageCursor,
  paginate,
  paginateItems,
  parseWait,
  readPage,
  type ReadPageResult,
  sleep,
  watch,
  type WatchCursor,
} from '../src/index.js';

interface Alloc {
  readonly ID: string;
  readonly CreateIndex: number;
  readonly ClientStatus: string;
}

const allocs = createOrderedIndex(createIndexOrdering<Alloc>());
expectTypeOf(allocs).toEqualTypeOf<OrderedIndex<Alloc>>();
expectTypeOf(readPage(allocs, { perPage: 1 })).toEqualTypeOf<ReadPageResult<Alloc>>();
expectTypeOf(readPage(allocs).nextToken).toEqualTypeOf<string | undefined>();
// @ts-expect-error an ordering needs the fields it sorts by
createIndexOrdering<{ ID: string }>();

expectTypeOf(createIndexWatch()).toEqualTypeOf<IndexWatch>();
expectTypeOf(createIndexWatch().waitFor(1, { waitMs: 1 })).toEqualTypeOf<Promise<number>>();

const wait = parseWait('5m');
if (wait.ok) expectTypeOf(wait.ms).toEqualTypeOf<number>();
else expectTypeOf(wait.message).toEqualTypeOf<'Invalid wait time'>();

interface JobsPage {
  data: { ID: string }[];
  meta: { nextToken?: string; index?: number };
}
declare const listJobs: (req: { namespace?: string } & PageCursor, signal: AbortSignal) => Promise<JobsPage>;

expectTypeOf(paginate(listJobs, { namespace: 'default' })).toEqualTypeOf<AsyncIterable<JobsPage>>();
expectTypeOf(paginateItems(listJobs, { nextToken: 'default.a' })).toEqualTypeOf<
  AsyncIterable<{ ID: string }>
>();
expectTypeOf(collect(paginateItems(listJobs, {}))).toEqualTypeOf<Promise<{ ID: string }[]>>();

declare const readJob: (req: { job?: string } & WatchCursor, signal: AbortSignal) => Promise<JobsPage>;
expectTypeOf(watch(readJob, { job: 'web' }, { wait: '1m' })).toEqualTypeOf<AsyncIterable<JobsPage>>();
// @ts-expect-error watch needs a response with meta
watch((_req: WatchCursor) => Promise.resolve({ data: 1 }), {});

expectTypeOf(sleep(1, AbortSignal.timeout(1))).toEqualTypeOf<Promise<void>>();
expectTypeOf(sleep(1, { signal: AbortSignal.timeout(1) })).toEqualTypeOf<Promise<void>>();
