import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { compareItems, filterArb, type Item, itemArb, itemsArb } from '../test/arbitraries.js';
import {
  createIndexOrdering,
  createOrderedIndex,
  idOrdering,
  namespaceIdKey,
  namespaceIdOrdering,
  readPage,
} from './index.js';

type Job = Item;
interface Alloc {
  CreateIndex: number;
  ID: string;
}

const jobsOf = (...keys: string[]) => {
  const jobs = createOrderedIndex(namespaceIdOrdering<Job>());
  for (const key of keys) {
    const [Namespace, ID] = key.split('/') as [string, string];
    jobs.upsert({ Namespace, ID });
  }
  return jobs;
};

describe('readPage', () => {
  it('pages jobs by namespace then ID with <namespace>.<id> tokens', () => {
    // Arrange
    const jobs = jobsOf('default/b', 'default/a', 'prod/a', 'a-b/z', 'default/c');
    // Act
    const first = readPage(jobs, { perPage: 2 });
    const second = readPage(jobs, { perPage: 2, nextToken: first.nextToken });
    const third = readPage(jobs, { perPage: 2, nextToken: second.nextToken });
    // Assert
    expect(first).toEqual({
      items: [
        { Namespace: 'a-b', ID: 'z' },
        { Namespace: 'default', ID: 'a' },
      ],
      nextToken: 'default.b',
    });
    expect(second.nextToken).toBe('prod.a');
    expect(third).toEqual({ items: [{ Namespace: 'prod', ID: 'a' }] });
  });

  it('returns everything without perPage or with 0', () => {
    const jobs = jobsOf('default/b', 'default/a');
    expect(readPage(jobs).items.map((j) => j.ID)).toEqual(['a', 'b']);
    expect(readPage(jobs, { perPage: 0 }).nextToken).toBeUndefined();
  });

  it('filters before counting and gives a token only when another match exists', () => {
    const jobs = jobsOf('default/a', 'default/b', 'default/c', 'default/d', 'default/e');
    const odd = (j: Job) => j.ID !== 'b' && j.ID !== 'd';
    expect(readPage(jobs, { perPage: 2, filter: odd })).toEqual({
      items: [
        { Namespace: 'default', ID: 'a' },
        { Namespace: 'default', ID: 'c' },
      ],
      nextToken: 'default.e',
    });
    expect(readPage(jobs, { perPage: 3, filter: odd }).nextToken).toBeUndefined();
  });

  it('reverses, including from a token', () => {
    const jobs = jobsOf('default/a', 'default/b', 'default/c');
    const first = readPage(jobs, { perPage: 2, reverse: true });
    expect(first.items.map((j) => j.ID)).toEqual(['c', 'b']);
    expect(first.nextToken).toBe('default.a');
    expect(
      readPage(jobs, { perPage: 2, reverse: true, nextToken: 'default.b' }).items.map((j) => j.ID),
    ).toEqual(['b', 'a']);
  });

  it('orders allocations by CreateIndex numerically with <CreateIndex>.<id> tokens', () => {
    const allocs = createOrderedIndex(createIndexOrdering<Alloc>());
    for (const [CreateIndex, ID] of [
      [10, 'x'],
      [9, 'y'],
      [100, 'a'],
      [9, 'b'],
    ] as const) {
      allocs.upsert({ CreateIndex, ID });
    }
    const first = readPage(allocs, { perPage: 2 });
    expect(first.items.map((a) => a.ID)).toEqual(['b', 'y']);
    expect(first.nextToken).toBe('10.x');
    expect(readPage(allocs, { nextToken: first.nextToken }).items.map((a) => a.ID)).toEqual(['x', 'a']);
    expect(readPage(allocs, { nextToken: '10' }).items.map((a) => a.ID)).toEqual(['x', 'a']);
  });

  it.each([
    ['garbage', []],
    ['zzz.zzz', []],
    ['9.c', ['y', 'x']],
    ['', ['b', 'y', 'x']],
  ])('compares the malformed or partial token %j as given', (token, ids) => {
    const allocs = createOrderedIndex(createIndexOrdering<Alloc>());
    allocs.upsert({ CreateIndex: 9, ID: 'b' });
    allocs.upsert({ CreateIndex: 9, ID: 'y' });
    allocs.upsert({ CreateIndex: 10, ID: 'x' });
    expect(readPage(allocs, { nextToken: token }).items.map((a) => a.ID)).toEqual(ids);
  });

  it('uses <id> tokens and a key prefix with idOrdering', () => {
    const allocs = createOrderedIndex(idOrdering<Alloc>());
    for (const ID of ['aa1', 'ab1', 'ab2', 'ab3', 'b']) allocs.upsert({ CreateIndex: 1, ID });
    const first = readPage(allocs, { perPage: 2, prefix: 'ab' });
    expect(first).toEqual({ items: [allocs.get('ab1'), allocs.get('ab2')], nextToken: 'ab3' });
    expect(readPage(allocs, { prefix: 'ab', reverse: true }).items.map((a) => a.ID)).toEqual([
      'ab3',
      'ab2',
      'ab1',
    ]);
  });

  it('restricts to one namespace with a namespace key prefix', () => {
    const jobs = jobsOf('default/a', 'defaults/b', 'prod/c');
    expect(readPage(jobs, { prefix: namespaceIdKey('default', '') }).items).toEqual([
      { Namespace: 'default', ID: 'a' },
    ]);
  });

  it.each([-1, 1.5, Number.NaN])('rejects perPage %d', (perPage) => {
    expect(() => readPage(jobsOf(), { perPage })).toThrow(RangeError);
  });

  it('propagates an exception of the filter', () => {
    const jobs = jobsOf('default/a');
    expect(() =>
      readPage(jobs, {
        filter: () => {
          throw new Error('boom');
        },
      }),
    ).toThrow('boom');
  });
});

describe('properties', () => {
  const pageAll = (
    index: ReturnType<typeof createOrderedIndex<Item>>,
    perPage: number,
    options: { reverse: boolean; filter: ((i: Item) => boolean) | undefined },
    between: (page: number) => void = () => undefined,
  ): Item[] => {
    const out: Item[] = [];
    let nextToken: string | undefined;
    for (let page = 0; page < 10_000; page++) {
      const result = readPage(index, {
        perPage,
        nextToken,
        reverse: options.reverse,
        filter: options.filter,
      });
      expect(result.items.length).toBeLessThanOrEqual(perPage);
      out.push(...result.items);
      if (result.nextToken === undefined) return out;
      expect(result.items).toHaveLength(perPage);
      nextToken = result.nextToken;
      between(page);
    }
    throw new Error('paging did not end');
  };

  test.prop([itemsArb(), fc.integer({ min: 1, max: 12 }), filterArb, fc.boolean()])(
    'paging any list with any page size, filter and direction yields exactly the filtered list in order',
    (items, perPage, filter, reverse) => {
      // Arrange
      const index = createOrderedIndex(namespaceIdOrdering<Item>(), { chunkSize: 4 });
      for (const item of items) index.upsert(item);
      // Act
      const paged = pageAll(index, perPage, { reverse, filter });
      // Assert
      const expected = [...items].sort(compareItems).filter(filter ?? (() => true));
      expect(paged).toEqual(reverse ? expected.reverse() : expected);
    },
  );

  test.prop([
    itemsArb(),
    fc.array(fc.tuple(itemArb, fc.boolean()), { maxLength: 40 }),
    fc.integer({ min: 1, max: 6 }),
    filterArb,
    fc.boolean(),
  ])(
    'items that exist throughout are never skipped or repeated when others are inserted or deleted between pages',
    (items, changes, perPage, filter, reverse) => {
      // Arrange: even positions stay throughout; the others may be deleted.
      const index = createOrderedIndex(namespaceIdOrdering<Item>(), { chunkSize: 3 });
      for (const item of items) index.upsert(item);
      const key = (i: Item) => `${i.Namespace}\u0000${i.ID}`;
      const stay = items.filter((_, i) => i % 2 === 0);
      const stayKeys = new Set(stay.map(key));
      // Act
      const paged = pageAll(index, perPage, { reverse, filter }, (page) => {
        for (const [item, insert] of changes.slice(page * 3, page * 3 + 3)) {
          if (insert) {
            if (!index.has(key(item))) index.upsert(item);
          } else if (!stayKeys.has(key(item))) {
            index.delete(key(item));
          }
        }
      });
      // Assert
      const pagedKeys = paged.map(key);
      expect(new Set(pagedKeys).size).toBe(pagedKeys.length);
      for (const item of stay.filter(filter ?? (() => true))) {
        expect(pagedKeys.filter((k) => k === key(item))).toHaveLength(1);
      }
      const sorted = [...paged].sort(compareItems);
      expect(paged).toEqual(reverse ? sorted.reverse() : sorted);
    },
  );

  test.prop([
    itemsArb(),
    fc.array(fc.tuple(itemArb, fc.boolean()), { maxLength: 20 }),
    fc.integer({ min: 0, max: 6 }),
    filterArb,
    fc.boolean(),
    fc.option(fc.constantFrom('', 'a', 'default', 'default\u0000', 'default\u0000a'), { nil: undefined }),
  ])(
    'a page read by the index scan equals the page read through values(), also when the filter changes the collection',
    (items, changes, perPage, filter, reverse, prefix) => {
      // Arrange: two equal indexes; the second seen only through values() (any OrderedIndex)
      const make = () => {
        const index = createOrderedIndex(namespaceIdOrdering<Item>(), { chunkSize: 3 });
        for (const item of items) index.upsert(item);
        return index;
      };
      const scanned = make();
      const iterated = make();
      const throughValues = { ...iterated, values: iterated.values, ordering: iterated.ordering };
      const key = (i: Item) => `${i.Namespace}\u0000${i.ID}`;
      const changing = (index: typeof scanned) => {
        let call = 0;
        return (item: Item): boolean => {
          const [other, insert] = changes[call++ % Math.max(1, changes.length)] ?? [item, true];
          if (insert) index.upsert(other);
          else index.delete(key(other));
          return filter === undefined || filter(item);
        };
      };
      // Act
      const a = readPage(scanned, { perPage, reverse, prefix, filter: changing(scanned) });
      const b = readPage(throughValues, { perPage, reverse, prefix, filter: changing(iterated) });
      // Assert
      expect(a).toEqual(b);
      expect([...scanned.values()]).toEqual([...iterated.values()]);
    },
  );

  test.prop([fc.string({ maxLength: 12 }), fc.boolean()])(
    'a malformed token is compared as given, never an error',
    (token, reverse) => {
      const allocs = createOrderedIndex(createIndexOrdering<Alloc>());
      for (let i = 1; i <= 5; i++) allocs.upsert({ CreateIndex: i, ID: `id${i}` });
      expect(() => readPage(allocs, { perPage: 2, nextToken: token, reverse })).not.toThrow();
    },
  );
});
