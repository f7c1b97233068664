import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { controllableFetcher } from '../test/fakes.js';
import { collect, type PageCursor, paginate, paginateItems, type PageResponse } from './index.js';

/** Serves `pages` in order: page i answers next token i+1 unless it is the last. */
const pagesOf = <T>(pages: T[][]) => {
  const calls: (PageCursor & { q?: string })[] = [];
  const fetchPage = async (req: PageCursor & { q?: string }): Promise<PageResponse<T>> => {
    calls.push(req);
    await Promise.resolve();
    const i = req.nextToken === undefined ? 0 : Number(req.nextToken);
    const meta = i + 1 < pages.length ? { nextToken: String(i + 1) } : {};
    return { data: pages[i] ?? [], meta };
  };
  return { fetchPage, calls };
};

describe('paginate', () => {
  it('follows next tokens until a page has none', async () => {
    const { fetchPage, calls } = pagesOf([['a', 'b'], ['c'], ['d']]);
    const pages = await collect(paginate(fetchPage, { q: 'x' }, { perPage: 2 }));
    expect(pages.map((p) => p.data)).toEqual([['a', 'b'], ['c'], ['d']]);
    expect(calls).toEqual([
      { q: 'x', perPage: 2 },
      { q: 'x', perPage: 2, nextToken: '1' },
      { q: 'x', perPage: 2, nextToken: '2' },
    ]);
  });

  it('starts at the parameters’ next token and keeps their perPage', async () => {
    const { fetchPage, calls } = pagesOf([['a'], ['b'], ['c']]);
    const pages = await collect(paginate(fetchPage, { nextToken: '1', perPage: 1 }));
    expect(pages.map((p) => p.data)).toEqual([['b'], ['c']]);
    expect(calls[0]).toEqual({ nextToken: '1', perPage: 1 });
  });

  it('treats an empty next token as the end', async () => {
    const fetchPage = async () => {
      await Promise.resolve();
      return { data: [1], meta: { nextToken: '' } };
    };
    expect(await collect(paginate(fetchPage, {}))).toHaveLength(1);
  });

  it('refuses a next token that repeats, which would never end', async () => {
    const fetchPage = async () => {
      await Promise.resolve();
      return { data: [1], meta: { nextToken: 'same' } };
    };
    await expect(collect(paginate(fetchPage, {}))).rejects.toThrow(
      'The server answered the next token "same" twice in a row.',
    );
  });

  it('propagates an error of the fetcher unchanged, without retrying', async () => {
    let calls = 0;
    const boom = new Error('boom');
    const fetchPage = async (): Promise<PageResponse<number>> => {
      calls++;
      await Promise.resolve();
      throw boom;
    };
    await expect(collect(paginate(fetchPage, {}))).rejects.toBe(boom);
    expect(calls).toBe(1);
  });

  it('aborts the request in flight when the consumer stops', async () => {
    // Arrange
    const { fetch, nextCall } = controllableFetcher<PageCursor, PageResponse<string>>();
    const iterator = paginate(fetch, {})[Symbol.asyncIterator]();
    const pending = iterator.next();
    const call = await nextCall();
    // Act
    const returned = await iterator.return?.();
    // Assert
    expect(call.signal.aborted).toBe(true);
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
    expect(returned).toEqual({ done: true, value: undefined });
  });

  it('rejects the pending next() with the reason of the caller’s abort', async () => {
    // Arrange
    const { fetch, nextCall } = controllableFetcher<PageCursor, PageResponse<string>>();
    const controller = new AbortController();
    const iterator = paginate(fetch, {}, { signal: controller.signal })[Symbol.asyncIterator]();
    const pending = iterator.next();
    const call = await nextCall();
    const reason = new Error('user gave up');
    // Act
    controller.abort(reason);
    // Assert
    await expect(pending).rejects.toBe(reason);
    expect(call.signal.aborted).toBe(true);
    await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
  });

  it('rejects at once when the signal is already aborted, without calling the fetcher', async () => {
    const { fetch, calls } = controllableFetcher<PageCursor, PageResponse<string>>();
    const signal = AbortSignal.abort();
    await expect(collect(paginate(fetch, {}, { signal }))).rejects.toBe(signal.reason);
    expect(calls).toHaveLength(0);
  });
});

describe('paginateItems', () => {
  it('flattens items and stops at a limit, without fetching further pages', async () => {
    const { fetchPage, calls } = pagesOf([['a', 'b'], ['c'], ['d']]);
    expect(await collect(paginateItems(fetchPage, {}), { limit: 3 })).toEqual(['a', 'b', 'c']);
    expect(calls).toHaveLength(2);
  });

  it('aborts the request in flight when the consumer breaks out', async () => {
    // Arrange
    const { fetch, nextCall } = controllableFetcher<PageCursor, PageResponse<string>>();
    const seen: string[] = [];
    // Act
    const loop = (async () => {
      for await (const item of paginateItems(fetch, {})) {
        seen.push(item);
        if (item === 'b') break;
      }
    })();
    const first = await nextCall();
    first.resolve({ data: ['a', 'b', 'c'], meta: { nextToken: 'n' } });
    await loop;
    // Assert
    expect(seen).toEqual(['a', 'b']);
  });

  it('ends quietly when return() is called while a page is in flight', async () => {
    const { fetch, nextCall } = controllableFetcher<PageCursor, PageResponse<string>>();
    const iterator = paginateItems(fetch, {})[Symbol.asyncIterator]();
    const pending = iterator.next();
    const call = await nextCall();
    await iterator.return?.();
    expect(call.signal.aborted).toBe(true);
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
  });

  it('rejects with the caller’s abort reason', async () => {
    const { fetch, nextCall } = controllableFetcher<PageCursor, PageResponse<string>>();
    const controller = new AbortController();
    const collected = collect(paginateItems(fetch, {}, { signal: controller.signal }));
    await nextCall();
    controller.abort();
    await expect(collected).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('collect', () => {
  it('returns nothing for limit 0 without starting the iteration', async () => {
    const { fetchPage, calls } = pagesOf([['a']]);
    expect(await collect(paginateItems(fetchPage, {}), { limit: 0 })).toEqual([]);
    expect(calls).toHaveLength(0);
  });

  it.each([-1, 1.5, Number.NaN])('rejects limit %d', async (limit) => {
    const { fetchPage } = pagesOf([['a']]);
    await expect(collect(paginateItems(fetchPage, {}), { limit })).rejects.toThrow(RangeError);
  });
});

describe('properties', () => {
  test.prop([fc.array(fc.array(fc.integer(), { maxLength: 5 }), { minLength: 1, maxLength: 12 })])(
    'collect(paginate(pages)) equals the pages, and paginateItems their concatenation, for any split',
    async (pages) => {
      const { fetchPage } = pagesOf(pages);
      expect((await collect(paginate(fetchPage, {}))).map((p) => p.data)).toEqual(pages);
      expect(await collect(paginateItems(fetchPage, {}))).toEqual(pages.flat());
    },
  );

  test.prop([
    fc.array(fc.array(fc.integer(), { maxLength: 5 }), { minLength: 1, maxLength: 12 }),
    fc.nat(40),
  ])(
    'collect with a limit returns the first items and never reads past the page holding the last',
    async (pages, limit) => {
      const { fetchPage, calls } = pagesOf(pages);
      const items = await collect(paginateItems(fetchPage, {}), { limit });
      expect(items).toEqual(pages.flat().slice(0, limit));
      expect(calls.length).toBeLessThanOrEqual(pages.length);
    },
  );

  test.prop([fc.integer({ min: 1, max: 10 })])(
    'an abort ends the iteration at any page',
    async (abortAfter) => {
      const controller = new AbortController();
      let served = 0;
      const fetchPage = async (_req: PageCursor, signal: AbortSignal) => {
        await Promise.resolve();
        signal.throwIfAborted();
        served++;
        if (served === abortAfter) controller.abort();
        return { data: [served], meta: { nextToken: String(served) } };
      };
      const result = collect(paginateItems(fetchPage, {}, { signal: controller.signal }));
      await expect(result).rejects.toMatchObject({ name: 'AbortError' });
      expect(served).toBe(abortAfter);
    },
  );
});
