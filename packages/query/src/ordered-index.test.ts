import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { cmp, compareItems, type Item, itemArb, itemsArb } from '../test/arbitraries.js';
import {
  createIndexOrdering,
  createOrderedIndex,
  idOrdering,
  namespaceIdKey,
  namespaceIdOrdering,
  type Ordering,
} from './index.js';

const keyOf = (i: Item) => namespaceIdKey(i.Namespace, i.ID);

describe('createOrderedIndex', () => {
  it('upserts, replaces, gets and deletes by id', () => {
    // Arrange
    const jobs = createOrderedIndex(namespaceIdOrdering<Item & { v?: number }>());
    // Act
    const first = jobs.upsert({ Namespace: 'default', ID: 'a', v: 1 });
    const replaced = jobs.upsert({ Namespace: 'default', ID: 'a', v: 2 });
    jobs.upsert({ Namespace: 'prod', ID: 'a' });
    // Assert
    expect(first).toBeUndefined();
    expect(replaced).toEqual({ Namespace: 'default', ID: 'a', v: 1 });
    expect(jobs.size).toBe(2);
    expect(jobs.get(namespaceIdKey('default', 'a'))).toEqual({ Namespace: 'default', ID: 'a', v: 2 });
    expect(jobs.has(namespaceIdKey('prod', 'a'))).toBe(true);
    expect(jobs.delete(namespaceIdKey('prod', 'a'))).toBe(true);
    expect(jobs.delete(namespaceIdKey('prod', 'a'))).toBe(false);
    expect([...jobs.values()].map((j) => j.v)).toEqual([2]);
  });

  it('moves an item whose key changed', () => {
    const allocs = createOrderedIndex(createIndexOrdering<{ CreateIndex: number; ID: string }>());
    allocs.upsert({ CreateIndex: 5, ID: 'a' });
    allocs.upsert({ CreateIndex: 6, ID: 'b' });
    allocs.upsert({ CreateIndex: 7, ID: 'a' });
    expect([...allocs.values()].map((a) => a.ID)).toEqual(['b', 'a']);
    expect(allocs.size).toBe(2);
  });

  it('clears', () => {
    const nodes = createOrderedIndex(idOrdering<{ ID: string }>());
    nodes.upsert({ ID: 'x' });
    nodes.clear();
    expect(nodes.size).toBe(0);
    expect([...nodes.values()]).toEqual([]);
    expect(nodes.get('x')).toBeUndefined();
  });

  it('keeps order across many chunk splits and merges', () => {
    // Arrange: 5,000 keys in a scrambled order, then every third removed.
    const nodes = createOrderedIndex(idOrdering<{ ID: string }>(), { chunkSize: 16 });
    const ids = Array.from({ length: 5000 }, (_, i) => `n${String((i * 7919) % 5000).padStart(5, '0')}`);
    for (const ID of ids) nodes.upsert({ ID });
    for (const [i, ID] of ids.entries()) if (i % 3 === 0) nodes.delete(ID);
    // Act
    const forward = [...nodes.values()].map((n) => n.ID);
    const backward = [...nodes.values({ reverse: true })].map((n) => n.ID);
    // Assert
    const expected = ids.filter((_, i) => i % 3 !== 0).sort();
    expect(forward).toEqual(expected);
    expect(backward).toEqual([...expected].reverse());
    expect(nodes.size).toBe(expected.length);
  });

  it('keeps secondary orderings in step, and pages a view by its own tokens', () => {
    // Arrange
    type Alloc = { CreateIndex: number; ID: string; v?: number };
    const byId = idOrdering<Alloc>();
    const allocs = createOrderedIndex(createIndexOrdering<Alloc>(), { secondary: [byId] });
    for (const [CreateIndex, ID] of [
      [3, 'b2'],
      [1, 'c1'],
      [2, 'a9'],
      [4, 'b1'],
    ] as const) {
      allocs.upsert({ CreateIndex, ID });
    }
    // Act
    allocs.upsert({ CreateIndex: 5, ID: 'c1', v: 2 });
    allocs.delete('a9');
    const view = allocs.by(byId);
    // Assert
    expect([...allocs.values()].map((a) => a.ID)).toEqual(['b2', 'b1', 'c1']);
    expect([...view.values()].map((a) => a.ID)).toEqual(['b1', 'b2', 'c1']);
    expect([...view.values({ prefix: 'b', reverse: true })].map((a) => a.ID)).toEqual(['b2', 'b1']);
    expect(view.get('c1')).toEqual({ CreateIndex: 5, ID: 'c1', v: 2 });
    expect(view.by(allocs.ordering)).toBe(allocs);
    expect(view.size).toBe(3);
    view.clear();
    expect([...allocs.values()]).toEqual([]);
  });

  it('refuses a view by an ordering it does not keep', () => {
    const nodes = createOrderedIndex(idOrdering<{ ID: string }>());
    expect(() => nodes.by(idOrdering())).toThrow(
      "The ordering is not one of this collection's; pass it in options.secondary.",
    );
  });

  it.each([0, 1, 1.5, Number.NaN])('rejects chunkSize %d', (chunkSize) => {
    expect(() => createOrderedIndex(idOrdering(), { chunkSize })).toThrow(RangeError);
  });
});

describe('properties', () => {
  const opArb = fc.oneof(
    fc.record({ kind: fc.constant('upsert' as const), item: itemArb }),
    fc.record({ kind: fc.constant('delete' as const), item: itemArb }),
  );

  test.prop([
    fc.array(opArb, { maxLength: 200 }),
    fc.option(fc.string({ unit: fc.constantFrom('a', 'd', 'p', '\u0000', 'Z'), maxLength: 3 }), {
      nil: undefined,
    }),
    fc.option(fc.constantFrom('', 'a', 'de', 'default', 'default\u0000', 'prod\u0000b'), { nil: undefined }),
    fc.boolean(),
    fc.integer({ min: 2, max: 8 }),
  ])(
    'iterates exactly like a sorted copy, for any operations, start, prefix and direction',
    (ops, from, prefix, reverse, chunkSize) => {
      // Arrange: a secondary ordering by ID then namespace rides along, and must agree too
      const byIdFirst: Ordering<Item> = {
        id: keyOf,
        key: (i) => `${i.ID}\u0000${i.Namespace}`,
        token: (i) => i.ID,
        seek: (t) => t,
      };
      const index = createOrderedIndex(namespaceIdOrdering<Item>(), { chunkSize, secondary: [byIdFirst] });
      const model = new Map<string, Item>();
      for (const { kind, item } of ops) {
        if (kind === 'upsert') {
          index.upsert(item);
          model.set(keyOf(item), item);
        } else {
          expect(index.delete(keyOf(item))).toBe(model.delete(keyOf(item)));
        }
      }
      // Act
      const actual = [...index.values({ from, prefix, reverse })];
      // Assert
      let expected = [...model.values()]
        .sort(compareItems)
        .filter((i) => prefix === undefined || keyOf(i).startsWith(prefix))
        .filter((i) => from === undefined || (reverse ? keyOf(i) <= from : keyOf(i) >= from));
      if (reverse) expected = expected.reverse();
      expect(actual).toEqual(expected);
      expect(index.size).toBe(model.size);
      const secondary = [...model.values()].sort((a, b) => cmp(byIdFirst.key(a), byIdFirst.key(b)));
      expect([...index.by(byIdFirst).values()]).toEqual(secondary);
    },
  );

  test.prop([
    itemsArb(80),
    fc.array(fc.tuple(itemArb, fc.boolean()), { maxLength: 80 }),
    fc.boolean(),
    fc.integer({ min: 2, max: 6 }),
  ])(
    'an iterator suspended across changes yields every item present throughout exactly once, in order',
    (initial, changes, reverse, chunkSize) => {
      // Arrange: the first half of the initial items stay; the others may be deleted.
      const index = createOrderedIndex(namespaceIdOrdering<Item>(), { chunkSize });
      for (const item of initial) index.upsert(item);
      const stay = new Set(initial.slice(0, initial.length >> 1).map(keyOf));
      const iterator = index.values({ reverse });
      const seen: Item[] = [];
      // Act: one change between each step.
      let step = 0;
      for (let r = iterator.next(); r.done !== true; r = iterator.next()) {
        seen.push(r.value);
        const change = changes[step++ % Math.max(1, changes.length)];
        if (change === undefined) continue;
        const [item, insert] = change;
        if (insert) {
          if (!index.has(keyOf(item))) index.upsert(item);
        } else if (!stay.has(keyOf(item))) {
          index.delete(keyOf(item));
        }
      }
      // Assert
      const keys = seen.map(keyOf);
      expect(new Set(keys).size).toBe(keys.length);
      for (const key of stay) expect(keys).toContain(key);
      const sorted = [...keys].sort(cmp);
      expect(keys).toEqual(reverse ? sorted.reverse() : sorted);
    },
  );
});

describe('fill', () => {
  const opArb = fc.oneof(
    fc.record({ kind: fc.constant('upsert' as const), item: itemArb }),
    fc.record({ kind: fc.constant('delete' as const), item: itemArb }),
  );

  test.prop([
    itemsArb(120),
    itemsArb(40),
    fc.array(opArb, { maxLength: 60 }),
    fc.integer({ min: 2, max: 8 }),
  ])(
    'is the same collection as one upsert per item, in both orderings, before and after more changes',
    (initial, more, ops, chunkSize) => {
      // Arrange: the same items through fill (twice, so some replace) and through upsert.
      const byIdFirst: Ordering<Item> = {
        id: keyOf,
        key: (i) => `${i.ID}\u0000${i.Namespace}`,
        token: (i) => i.ID,
        seek: (t) => t,
      };
      const options = { chunkSize, secondary: [byIdFirst] };
      const filled = createOrderedIndex(namespaceIdOrdering<Item>(), options);
      const upserted = createOrderedIndex(namespaceIdOrdering<Item>(), options);
      // Act
      filled.fill(initial);
      filled.fill(more);
      for (const item of [...initial, ...more]) upserted.upsert(item);
      for (const { kind, item } of ops) {
        for (const index of [filled, upserted]) {
          if (kind === 'upsert') index.upsert(item);
          else index.delete(keyOf(item));
        }
      }
      // Assert
      expect(filled.size).toBe(upserted.size);
      expect([...filled.values()]).toEqual([...upserted.values()]);
      expect([...filled.values({ reverse: true })]).toEqual([...upserted.values({ reverse: true })]);
      expect([...filled.by(byIdFirst).values()]).toEqual([...upserted.by(byIdFirst).values()]);
      for (const item of [...initial, ...more])
        expect(filled.get(keyOf(item))).toBe(upserted.get(keyOf(item)));
    },
  );

  it('takes input already in key order without sorting it again, and an empty list', () => {
    const index = createOrderedIndex(idOrdering<{ ID: string }>(), { chunkSize: 4 });
    index.fill([]);
    expect(index.size).toBe(0);
    const items = Array.from({ length: 10 }, (_, i) => ({ ID: `id-${String(i).padStart(2, '0')}` }));
    index.fill(items);
    expect([...index.values()].map((i) => i.ID)).toEqual(items.map((i) => i.ID));
    expect([...index.values({ from: 'id-05' })][0]?.ID).toBe('id-05');
    index.upsert({ ID: 'id-045' });
    expect([...index.values({ from: 'id-04', prefix: 'id-04' })].map((i) => i.ID)).toEqual([
      'id-04',
      'id-045',
    ]);
  });
});
