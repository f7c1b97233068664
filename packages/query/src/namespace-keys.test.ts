import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOrderedIndex, namespaceIdKey, namespaceIdOrdering, readPage } from './index.js';

/**
 * Issue 22 item 5 and issue 30 item 3: the key of a (namespace, ID) pair cannot collide, and page
 * tokens are unambiguous whatever the names hold (dots, `%`, NUL and other control characters).
 */

interface Item {
  readonly Namespace: string;
  readonly ID: string;
}

/** Strings rich in the characters that broke the encodings: `.`, `%`, NUL, \u0001, `2E`. */
const name = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc
    .array(fc.constantFrom('.', '%', '\u0000', '\u0001', '\u0002', 'a', '2', 'E', '5'), { maxLength: 6 })
    .map((cs) => cs.join('')),
  fc.constantFrom('a.b', 'a', 'b', 'default', 'default\u0000evil', '%2E', '.', ''),
);
const pair = fc.record({ Namespace: name, ID: name });

describe('namespaceIdKey', () => {
  it('never gives two distinct pairs the same key', () => {
    fc.assert(
      fc.property(pair, pair, (a, b) => {
        fc.pre(a.Namespace !== b.Namespace || a.ID !== b.ID);
        expect(namespaceIdKey(a.Namespace, a.ID)).not.toBe(namespaceIdKey(b.Namespace, b.ID));
      }),
      { numRuns: 2000 },
    );
  });

  it('never gives (x, y + NUL + z) and (x + NUL + y, z) the same key', () => {
    fc.assert(
      fc.property(name, name, name, (x, y, z) => {
        expect(namespaceIdKey(x, `${y}\u0000${z}`)).not.toBe(namespaceIdKey(`${x}\u0000${y}`, z));
      }),
    );
  });

  it('sorts as namespace then ID', () => {
    fc.assert(
      fc.property(pair, pair, (a, b) => {
        const byParts =
          a.Namespace === b.Namespace ? Math.sign(cmp(a.ID, b.ID)) : Math.sign(cmp(a.Namespace, b.Namespace));
        expect(Math.sign(cmp(namespaceIdKey(a.Namespace, a.ID), namespaceIdKey(b.Namespace, b.ID)))).toBe(
          byParts,
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the NUL-byte attack apart: default\\0evil/nuljob is not default/evil\\0nuljob', () => {
    expect(namespaceIdKey('default\u0000evil', 'nuljob')).not.toBe(
      namespaceIdKey('default', 'evil\u0000nuljob'),
    );
    expect(namespaceIdKey('default', 'x')).toBe('default\u0000x');
  });
});

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

describe('paging by namespace and ID', () => {
  it('sees each item exactly once, then the end, at every per_page and in both directions', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(pair, {
          selector: (p) => `${p.Namespace.length}:${p.Namespace}${p.ID}`,
          maxLength: 12,
        }),
        fc.boolean(),
        (pairs, reverse) => {
          const index = createOrderedIndex(namespaceIdOrdering<Item>());
          for (const p of pairs) index.upsert(p);
          const everything = readPage(index, { reverse }).items;
          expect(everything).toHaveLength(pairs.length);
          for (let perPage = 1; perPage <= pairs.length + 1; perPage += 1) {
            const seen: Item[] = [];
            let token: string | undefined;
            for (let pages = 0; ; pages += 1) {
              expect(pages).toBeLessThanOrEqual(pairs.length + 1);
              const page = readPage(index, { perPage, reverse, nextToken: token });
              seen.push(...page.items);
              if (page.nextToken === undefined) break;
              token = page.nextToken;
            }
            expect(seen).toEqual(everything);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('pages through jobs a, b, c of namespace a.b one at a time (the loop of issue 30)', () => {
    const index = createOrderedIndex(namespaceIdOrdering<Item>());
    for (const ID of ['a', 'b', 'c']) index.upsert({ Namespace: 'a.b', ID });
    const first = readPage(index, { perPage: 1 });
    expect(first.nextToken).toBe('a%2Eb.b');
    const second = readPage(index, { perPage: 1, nextToken: first.nextToken });
    const third = readPage(index, { perPage: 1, nextToken: second.nextToken });
    expect([...first.items, ...second.items, ...third.items].map((i) => i.ID)).toEqual(['a', 'b', 'c']);
    expect(third.nextToken).toBeUndefined();
  });

  it('keeps the tokens of valid names as they were', () => {
    const index = createOrderedIndex(namespaceIdOrdering<Item>());
    for (const ID of ['a', 'b.c']) index.upsert({ Namespace: 'team-a', ID });
    expect(readPage(index, { perPage: 1 }).nextToken).toBe('team-a.b.c');
  });
});
