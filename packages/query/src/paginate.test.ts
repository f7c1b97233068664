import { describe, expect, it } from 'vitest';
import { collect, paginate, paginateItems, type PageCursor } from './index.js';

const pagesOf = (pages: string[][]) => {
  const calls: PageCursor[] = [];
  const fetchPage = async (req: PageCursor & { q?: string }) => {
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

  it('flattens items and stops at a limit', async () => {
    const { fetchPage, calls } = pagesOf([['a', 'b'], ['c'], ['d']]);
    expect(await collect(paginateItems(fetchPage, {}), { limit: 3 })).toEqual(['a', 'b', 'c']);
    expect(calls).toHaveLength(2);
  });
});
