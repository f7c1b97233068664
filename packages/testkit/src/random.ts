/**
 * A small seeded pseudo-random generator, so datasets are the same for the same seed on every machine.
 *
 * @packageDocumentation
 */

/**
 * Deterministic random numbers from a 32-bit seed (mulberry32: fast, good enough for test data, not for secrets).
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** `true` with probability `p`. */
  chance(p: number): boolean;
  /** An integer around `mean` with standard deviation `sd`, clamped to [min, max]. */
  normalInt(mean: number, sd: number, min: number, max: number): number;
  /** A random UUID-shaped string (version 4 layout). */
  uuid(): string;
  /** `count` hex characters. */
  hex(count: number): string;
}

/**
 * Creates a {@link Random} from a seed.
 *
 * @param seed - Any integer; the same seed gives the same sequence.
 * @returns The generator.
 * @example
 * ```ts
 * const random = createRandom(42);
 * random.int(1, 6); // always the same for seed 42
 * ```
 */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const hex = (count: number): string => {
    let out = '';
    while (out.length < count)
      out += Math.floor(next() * 4294967296)
        .toString(16)
        .padStart(8, '0');
    return out.slice(0, count);
  };
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new RangeError('pick() needs a non-empty list.');
      return item;
    },
    chance: (p: number): boolean => next() < p,
    normalInt: (mean: number, sd: number, min: number, max: number): number => {
      // Box-Muller; 1 - next() avoids log(0).
      const gauss = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
      return Math.min(max, Math.max(min, Math.round(mean + gauss * sd)));
    },
    uuid: (): string => {
      const h = hex(32);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[int(0, 3)] ?? '8'}${h.slice(17, 20)}-${h.slice(20, 32)}`;
    },
    hex,
  };
}
