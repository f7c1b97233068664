import { describe, expect, it } from 'vitest';
import { collect, watch } from './index.js';

describe('watch', () => {
  it('yields only when the index increases', async () => {
    const indexes = [3, 3, 4, 4, 7];
    const seen: number[] = [];
    const fetch = async (req: { index: number }) => {
      seen.push(req.index);
      await Promise.resolve();
      const index = indexes.shift();
      if (index === undefined) throw Object.assign(new Error('gone'), { status: 404 });
      return { data: index, meta: { index } };
    };
    await expect(collect(watch(fetch, {}), { limit: 3 })).resolves.toEqual([
      { data: 3, meta: { index: 3 } },
      { data: 4, meta: { index: 4 } },
      { data: 7, meta: { index: 7 } },
    ]);
    expect(seen).toEqual([0, 3, 3, 4, 4]);
  });
});
