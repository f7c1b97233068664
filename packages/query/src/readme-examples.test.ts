// The README's examples, run against an in-memory stand-in for the service, so they stay true.
import { describe, expect, it } from 'vitest';

import {
  collect,
  createIndexWatch,
  createOrderedIndex,
  namespaceIdKey,
  namespaceIdOrdering,
  type PageCursor,
  paginateItems,
  parseWait,
  readPage,
  watch,
  type WatchCursor,
} from './index.js';

interface Job {
  readonly Namespace: string;
  readonly ID: string;
  readonly Status: string;
}

/** The README's server side: a jobs table, its index, and one list/read handler. */
function fakeService() {
  const jobs = createOrderedIndex(namespaceIdOrdering<Job>());
  const jobsIndex = createIndexWatch(1);
  let index = 1;
  const write = (job: Job) => {
    jobs.upsert(job);
    jobsIndex.advance(++index);
  };
  const list = (query: PageCursor & { namespace?: string }) => {
    const page = readPage(jobs, {
      perPage: query.perPage,
      nextToken: query.nextToken,
      prefix: namespaceIdKey(query.namespace ?? 'default', ''),
    });
    return { data: page.items, meta: page.nextToken === undefined ? {} : { nextToken: page.nextToken } };
  };
  const read = async (id: string, query: WatchCursor, signal: AbortSignal) => {
    const wait = parseWait(query.wait);
    if (!wait.ok) throw Object.assign(new Error(wait.message), { status: 400 });
    if (query.index > 0) await jobsIndex.waitFor(query.index, { waitMs: wait.ms, signal });
    const job = jobs.get(namespaceIdKey('default', id));
    if (job === undefined) throw Object.assign(new Error('job not found'), { status: 404 });
    return { data: job, meta: { index: jobsIndex.current } };
  };
  return { write, list, read };
}

describe('README', () => {
  it('pages every item and follows a job until aborted', async () => {
    // Arrange
    const service = fakeService();
    for (const ID of ['a', 'b', 'c', 'web']) service.write({ Namespace: 'default', ID, Status: 'pending' });
    service.write({ Namespace: 'prod', ID: 'other', Status: 'running' });
    const client = {
      allocations: {
        list: async (req: PageCursor & { signal: AbortSignal }) => {
          await Promise.resolve();
          return service.list({ ...req, perPage: 2 });
        },
      },
      jobs: {
        read: (id: string, req: WatchCursor & { signal: AbortSignal }) => service.read(id, req, req.signal),
      },
    };
    // Act: the quick example
    const allocs = await collect(
      paginateItems((req, signal) => client.allocations.list({ ...req, signal }), {}),
    );
    const controller = new AbortController();
    const seen: [number | undefined, string][] = [];
    const following = (async () => {
      for await (const { data, meta } of watch(
        (req, signal) => client.jobs.read('web', { ...req, signal }),
        {},
        { signal: controller.signal, wait: '1m' },
      )) {
        seen.push([meta.index, data.Status]);
        if (seen.length === 1) service.write({ Namespace: 'default', ID: 'web', Status: 'running' });
        if (seen.length === 2) controller.abort();
      }
    })();
    // Assert
    await expect(following).rejects.toMatchObject({ name: 'AbortError' });
    expect(allocs.map((j) => j.ID)).toEqual(['a', 'b', 'c', 'web']);
    expect(seen).toEqual([
      [6, 'pending'],
      [7, 'running'],
    ]);
  });
});
