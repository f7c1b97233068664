import { describe, expect, it } from 'vitest';
import {
  createIndexOrdering,
  createOrderedIndex,
  idOrdering,
  namespaceIdKey,
  namespaceIdOrdering,
  readPage,
} from './index.js';

interface Job {
  Namespace: string;
  ID: string;
}
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
