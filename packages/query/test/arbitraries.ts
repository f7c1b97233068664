import fc from 'fast-check';

export interface Item {
  readonly Namespace: string;
  readonly ID: string;
}

/** Short namespaces and IDs from a small alphabet, so keys collide on prefixes and share namespaces. */
export const namespaceArb: fc.Arbitrary<string> = fc.constantFrom('default', 'a-b', 'prod', 'a', 'ns');
export const idArb: fc.Arbitrary<string> = fc.string({
  unit: fc.constantFrom('a', 'b', 'c', '.', '-', 'Z', '0'),
  minLength: 1,
  maxLength: 4,
});

export const itemArb: fc.Arbitrary<Item> = fc.record({ Namespace: namespaceArb, ID: idArb });

/** Items with unique (Namespace, ID). */
export const itemsArb = (maxLength = 60): fc.Arbitrary<Item[]> =>
  fc.uniqueArray(itemArb, { maxLength, selector: (i) => `${i.Namespace}\u0000${i.ID}` });

/** The order of namespaceIdOrdering, computed naively. */
export const compareItems = (a: Item, b: Item): number =>
  a.Namespace === b.Namespace ? cmp(a.ID, b.ID) : cmp(a.Namespace, b.Namespace);

export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A filter chosen by a seed: keeps an item when the hash of its key hits the seed's mask. */
export const filterArb: fc.Arbitrary<((item: Item) => boolean) | undefined> = fc.option(
  fc
    .integer({ min: 0, max: 7 })
    .map((seed) => (item: Item) => (hash(`${item.Namespace}.${item.ID}`) + seed) % 3 !== 0),
  { nil: undefined },
);

function hash(text: string): number {
  let h = 0;
  for (const ch of text) h = (h * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return h;
}
