import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { fakeClient, type FakeCall, type FakeReply } from '../test/fake-fetch.js';

/** A server side of a paged list: items ordered by ID, `next_token` = ID of the first item of the next page. */
function pagedList(ids: readonly string[]): (call: FakeCall) => FakeReply {
  return (call) => {
    const perPage = Number(call.query['per_page'] ?? '0');
    const token = call.query['next_token'];
    const start = token === undefined ? 0 : ids.findIndex((id) => id >= token);
    const from = start < 0 ? ids.length : start;
    const to = perPage > 0 ? Math.min(ids.length, from + perPage) : ids.length;
    const headers: Record<string, string> = {};
    const next = ids[to];
    if (next !== undefined) headers['X-Svc-NextToken'] = next;
    return { json: ids.slice(from, to).map((ID) => ({ ID })), headers };
  };
}

const ids = ['a1', 'a2', 'b1', 'b2', 'c1'];

describe('list pages and items', () => {
  it('reads one page and reports the next token in meta', async () => {
    const { client } = fakeClient(pagedList(ids));
    const { data, meta } = await client.jobs.list({ perPage: 2 });
    expect(data).toEqual([{ ID: 'a1' }, { ID: 'a2' }]);
    expect(meta.nextToken).toBe('b1');
  });

  it('pages() walks every page with the previous next token', async () => {
    const { client, calls } = fakeClient(pagedList(ids));
    const pages: string[][] = [];
    for await (const page of client.jobs.list.pages({ perPage: 2, filter: 'ID != ""' })) {
      pages.push(page.data.map((job) => job.ID));
    }
    expect(pages).toEqual([['a1', 'a2'], ['b1', 'b2'], ['c1']]);
    expect(calls.map((c) => c.query)).toEqual([
      { per_page: '2', filter: 'ID != ""' },
      { per_page: '2', filter: 'ID != ""', next_token: 'b1' },
      { per_page: '2', filter: 'ID != ""', next_token: 'c1' },
    ]);
  });

  it('pages() starts at the given nextToken', async () => {
    const { client } = fakeClient(pagedList(ids));
    const seen: string[] = [];
    for await (const page of client.volumes.list.pages({ perPage: 2, nextToken: 'b2' })) {
      seen.push(...page.data.map((v) => v.ID));
    }
    expect(seen).toEqual(['b2', 'c1']);
  });

  it('items() flattens the pages of allocations', async () => {
    const { client } = fakeClient(pagedList(ids));
    const seen: string[] = [];
    for await (const alloc of client.allocations.list.items({ perPage: 2 })) seen.push(alloc.ID);
    expect(seen).toEqual(ids);
  });

  it('breaking out of items() stops requesting pages', async () => {
    const { client, calls } = fakeClient(pagedList(ids));
    for await (const job of client.jobs.list.items({ perPage: 2 })) {
      if (job.ID === 'a1') break;
    }
    expect(calls).toHaveLength(1);
  });

  it('breaking out aborts the request in flight', async () => {
    let release: () => void = () => undefined;
    const { client, calls } = fakeClient(async (call) => {
      if (call.query['next_token'] === undefined) return pagedList(ids)(call);
      await new Promise<void>((resolve) => {
        release = resolve;
        call.signal?.addEventListener('abort', () => resolve());
      });
      return pagedList(ids)(call);
    });
    const iterator = client.jobs.list.pages({ perPage: 2 })[Symbol.asyncIterator]();
    await iterator.next();
    const second = iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await iterator.return?.();
    release();
    await second.catch(() => undefined);
    expect(calls[1]?.signal?.aborted).toBe(true);
  });

  it('an aborted signal ends pages() with its reason', async () => {
    const controller = new AbortController();
    const { client } = fakeClient(pagedList(ids));
    const reason = new Error('stop now');
    const consume = async (): Promise<void> => {
      for await (const page of client.jobs.list.pages({ perPage: 1, signal: controller.signal })) {
        void page;
        controller.abort(reason);
      }
    };
    await expect(consume()).rejects.toBe(reason);
  });

  it('an error page ends items() with the ApiError', async () => {
    const { client } = fakeClient((call) =>
      call.query['next_token'] === undefined
        ? pagedList(ids)(call)
        : { status: 400, text: 'failed to read result page: selector "X" is not a field' },
    );
    const seen: string[] = [];
    const consume = async (): Promise<void> => {
      for await (const job of client.jobs.list.items({ perPage: 2 })) seen.push(job.ID);
    };
    await expect(consume()).rejects.toMatchObject({ name: 'ApiError', status: 400 });
    expect(seen).toEqual(['a1', 'a2']);
  });

  test.prop([
    fc.uniqueArray(fc.stringMatching(/^[a-z0-9]{1,6}$/), { maxLength: 30 }),
    fc.integer({ min: 1, max: 7 }),
  ])('items() yields exactly the list, in order, for any page size', async (raw, perPage) => {
    const sorted = [...raw].sort();
    const { client, calls } = fakeClient(pagedList(sorted));
    const seen: string[] = [];
    for await (const job of client.jobs.list.items({ perPage })) seen.push(job.ID);
    expect(seen).toEqual(sorted);
    expect(calls).toHaveLength(Math.max(1, Math.ceil(sorted.length / perPage)));
  });
});

describe('watch', () => {
  /** A server whose index follows a script; the data is the index it answers. */
  function scripted(indexes: number[]): (call: FakeCall) => FakeReply {
    let i = 0;
    return () => {
      const index = indexes[Math.min(i, indexes.length - 1)] ?? 1;
      i++;
      return { json: { index }, headers: { 'X-Svc-Index': String(index) } };
    };
  }

  it('yields at once, then only when the index increases, sending the last index and wait', async () => {
    const { client, calls } = fakeClient(scripted([5, 5, 7, 7, 9]));
    const seen: number[] = [];
    for await (const { meta } of client.jobs.read.watch('web', { wait: '30s', namespace: 'prod' })) {
      seen.push(meta.index ?? -1);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual([5, 7, 9]);
    expect(calls.map((c) => c.query)).toEqual([
      { namespace: 'prod', index: '0', wait: '30s' },
      { namespace: 'prod', index: '5', wait: '30s' },
      { namespace: 'prod', index: '5', wait: '30s' },
      { namespace: 'prod', index: '7', wait: '30s' },
      { namespace: 'prod', index: '7', wait: '30s' },
    ]);
    expect(calls.every((c) => c.path === '/v1/job/web')).toBe(true);
  });

  it('starts from the given index and formats a wait in milliseconds', async () => {
    const { client, calls } = fakeClient(scripted([12]));
    for await (const result of client.allocations.list.watch({ index: 10, wait: 90_000 })) {
      void result;
      break;
    }
    expect(calls[0]?.query).toMatchObject({ index: '10' });
    expect(calls[0]?.query['wait']).toMatch(/^(1m30s|90s|90000ms)$/);
  });

  it('restarts from 0 when the index goes backwards', async () => {
    const { client, calls } = fakeClient(scripted([8, 3, 4]));
    const seen: number[] = [];
    for await (const { meta } of client.volumes.read.watch('vol-1')) {
      seen.push(meta.index ?? -1);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual([8, 3, 4]);
    expect(calls.map((c) => c.query['index'])).toEqual(['0', '8', '3']);
  });

  it('every blocking endpoint has a watch that sends index', async () => {
    const allocId = '5456bd7a-9fc0-c0dd-6131-cbee77f57577';
    const { client, calls } = fakeClient(scripted([3]));
    const first = async <T>(iterable: AsyncIterable<T>): Promise<void> => {
      for await (const item of iterable) {
        void item;
        break;
      }
    };
    await first(client.jobs.list.watch());
    await first(client.jobs.read.watch('web'));
    await first(client.jobs.submission.watch('web', 1));
    await first(client.jobs.versions.watch('web'));
    await first(client.jobs.allocations.watch('web'));
    await first(client.jobs.evaluations.watch('web'));
    await first(client.jobs.deployments.watch('web'));
    await first(client.jobs.latestDeployment.watch('web'));
    await first(client.jobs.summary.watch('web'));
    await first(client.allocations.list.watch());
    await first(client.allocations.read.watch(allocId));
    await first(client.volumes.list.watch());
    await first(client.volumes.read.watch('vol-1'));
    expect(calls.map((c) => `${c.path} ${c.query['index']}`)).toEqual([
      '/v1/jobs 0',
      '/v1/job/web 0',
      '/v1/job/web/submission 0',
      '/v1/job/web/versions 0',
      '/v1/job/web/allocations 0',
      '/v1/job/web/evaluations 0',
      '/v1/job/web/deployments 0',
      '/v1/job/web/deployment 0',
      '/v1/job/web/summary 0',
      '/v1/allocations 0',
      `/v1/allocation/${allocId} 0`,
      '/v1/volumes 0',
      '/v1/volume/csi/vol-1 0',
    ]);
  });

  it('a 4xx ends the watch with the ApiError (no retry)', async () => {
    const { client, calls } = fakeClient(() => ({ status: 404, text: 'job not found' }));
    const consume = async (): Promise<void> => {
      for await (const result of client.jobs.read.watch('gone')) void result;
    };
    await expect(consume()).rejects.toMatchObject({ status: 404 });
    expect(calls).toHaveLength(1);
  });

  it('a 5xx is retried with backoff, then the watch goes on', async () => {
    let n = 0;
    const { client, calls } = fakeClient(() => {
      n++;
      if (n === 2) return { status: 500, text: 'boom' };
      return { json: {}, headers: { 'X-Svc-Index': String(n) } };
    });
    const errors: unknown[] = [];
    const seen: number[] = [];
    for await (const { meta } of client.jobs.summary.watch('web', {
      backoffMs: 1,
      onError: (error) => errors.push(error),
    })) {
      seen.push(meta.index ?? -1);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual([1, 3]);
    expect(errors).toHaveLength(1);
    expect(calls).toHaveLength(3);
  });

  it('an abort ends the watch at once with the reason', async () => {
    const controller = new AbortController();
    const { client } = fakeClient(async (call) => {
      if (call.query['index'] !== '0') {
        await new Promise((resolve) => call.signal?.addEventListener('abort', resolve));
      }
      return { json: {}, headers: { 'X-Svc-Index': '4' } };
    });
    const iterator = client.jobs.read.watch('web', { signal: controller.signal })[Symbol.asyncIterator]();
    await iterator.next();
    const pending = iterator.next();
    const reason = new Error('user stopped');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('bad input of a watch throws on the first next(), before any request', async () => {
    const { client, calls } = fakeClient();
    const iterator = client.allocations.read.watch('abc')[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toThrow('is not a full allocation ID');
    expect(calls).toHaveLength(0);
  });

  test.prop([fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 25 })])(
    'yields only increasing indexes (or a restart after the index went backwards), asking after the last one yielded',
    async (indexes) => {
      // Arrange: the server answers the scripted indexes, one per request, then the caller stops.
      const controller = new AbortController();
      const done = new Error('script exhausted');
      let i = 0;
      const { client, calls } = fakeClient(async (call) => {
        const index = indexes[i++];
        if (index === undefined) {
          controller.abort(done);
          if (call.signal?.aborted !== true) {
            await new Promise((resolve) => call.signal?.addEventListener('abort', resolve));
          }
        }
        return { json: {}, headers: { 'X-Svc-Index': String(index ?? 1) } };
      });
      // Act
      const yielded: number[] = [];
      const run = async (): Promise<void> => {
        for await (const { meta } of client.jobs.read.watch('web', { signal: controller.signal })) {
          yielded.push(meta.index ?? -1);
        }
      };
      await expect(run()).rejects.toBe(done);
      // Assert: the reference model of a blocking-query loop.
      const expected: number[] = [];
      const asked: string[] = [];
      let last = 0;
      for (const index of indexes) {
        asked.push(String(last));
        if (index < last) last = 0;
        if (index > last) {
          last = index;
          expected.push(index);
        }
      }
      asked.push(String(last));
      expect(yielded).toEqual(expected);
      expect(calls.map((c) => c.query['index'])).toEqual(asked);
    },
  );
});
