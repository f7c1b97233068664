import { getEventListeners } from 'node:events';

import { fc, test } from '@fast-check/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { createIndexWatch } from './index.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createIndexWatch', () => {
  it('answers at once when the index already passed', async () => {
    const watch = createIndexWatch(5);
    await expect(watch.waitFor(4, { waitMs: 1000 })).resolves.toBe(5);
    expect(watch.waiting).toBe(0);
  });

  it('wakes a waiter when the index passes', async () => {
    const watch = createIndexWatch(5);
    const woken = watch.waitFor(5, { waitMs: 60_000 });
    expect(watch.waiting).toBe(1);
    watch.advance(6);
    await expect(woken).resolves.toBe(6);
    expect(watch.waiting).toBe(0);
  });

  it('times out after wait plus the random extra, with the current index', async () => {
    const watch = createIndexWatch(5);
    let done = false;
    const waited = watch.waitFor(5, { waitMs: 16_000, random: () => 0.5 }).then((i) => {
      done = true;
      return i;
    });
    await vi.advanceTimersByTimeAsync(16_499);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(waited).resolves.toBe(5);
  });

  it('frees a waiter at once on abort', async () => {
    const watch = createIndexWatch(1);
    const controller = new AbortController();
    const waited = watch.waitFor(1, { waitMs: 60_000, signal: controller.signal });
    controller.abort();
    await expect(waited).resolves.toBe(1);
    expect(watch.waiting).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ignores an index that does not move forward', () => {
    const watch = createIndexWatch(5);
    watch.advance(3);
    expect(watch.current).toBe(5);
  });

  it.each([-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])('rejects advance(%d)', (index) => {
    const watch = createIndexWatch(5);
    expect(() => watch.advance(index)).toThrow(RangeError);
    expect(watch.current).toBe(5);
  });
});

describe('many waiters', () => {
  it('share one timer and all wake on one advance', async () => {
    // Arrange
    const watch = createIndexWatch(10);
    const waits = Array.from({ length: 500 }, (_, i) => watch.waitFor(10, { waitMs: 60_000 + i }));
    // Assert: one timer for 500 waiters
    expect(vi.getTimerCount()).toBe(1);
    // Act
    watch.advance(11);
    // Assert
    await expect(Promise.all(waits)).resolves.toEqual(Array.from({ length: 500 }, () => 11));
    expect(watch.waiting).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('wakes only the waiters whose index was passed', async () => {
    const watch = createIndexWatch(5);
    const low = watch.waitFor(5, { waitMs: 60_000 });
    const high = watch.waitFor(8, { waitMs: 60_000, random: () => 0 });
    watch.advance(6);
    await expect(low).resolves.toBe(6);
    expect(watch.waiting).toBe(1);
    watch.advance(9);
    await expect(high).resolves.toBe(9);
  });

  it('times waiters out in deadline order with one re-armed timer', async () => {
    const watch = createIndexWatch(1);
    const order: number[] = [];
    const waits = [3000, 1000, 2000].map((ms) =>
      watch.waitFor(1, { waitMs: ms, random: () => 0 }).then(() => order.push(ms)),
    );
    await vi.advanceTimersByTimeAsync(1000);
    expect(order).toEqual([1000]);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(2000);
    await Promise.all(waits);
    expect(order).toEqual([1000, 2000, 3000]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('adds one abort listener per signal, however many waits use it, and keeps no waiter in it', async () => {
    // Arrange
    const watch = createIndexWatch(1);
    const controller = new AbortController();
    // Act: a wait that is woken, one that times out, then a third one on the same signal
    const woken = watch.waitFor(1, { waitMs: 60_000, signal: controller.signal });
    const timedOut = watch.waitFor(1, { waitMs: 10, signal: controller.signal, random: () => 0 });
    await vi.advanceTimersByTimeAsync(10);
    await timedOut;
    watch.advance(2);
    await woken;
    const third = watch.waitFor(2, { waitMs: 60_000, signal: controller.signal });
    // Assert
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort();
    await expect(third).resolves.toBe(2);
    expect(watch.waiting).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('frees every wait of one signal on its abort, and only those', async () => {
    const watch = createIndexWatch(1);
    const shared = new AbortController();
    const waits = [1, 1, 1].map(() => watch.waitFor(1, { waitMs: 60_000, signal: shared.signal }));
    const other = watch.waitFor(1, { waitMs: 60_000, signal: new AbortController().signal });
    shared.abort();
    await expect(Promise.all(waits)).resolves.toEqual([1, 1, 1]);
    expect(watch.waiting).toBe(1);
    watch.advance(2);
    await expect(other).resolves.toBe(2);
  });

  it('lets an abort after the wait ended change nothing', async () => {
    const watch = createIndexWatch(1);
    const controller = new AbortController();
    const woken = watch.waitFor(1, { waitMs: 60_000, signal: controller.signal });
    const other = watch.waitFor(1, { waitMs: 60_000 });
    watch.advance(2);
    await woken;
    const later = watch.waitFor(2, { waitMs: 60_000 });
    controller.abort();
    expect(watch.waiting).toBe(1);
    watch.advance(3);
    await expect(Promise.all([other, later])).resolves.toEqual([2, 3]);
  });

  it('frees aborted waiters among many and keeps the others waiting', async () => {
    // Arrange
    const watch = createIndexWatch(1);
    const controllers = Array.from({ length: 300 }, () => new AbortController());
    const waits = controllers.map((c, i) =>
      watch.waitFor(1, { waitMs: 1000 + i, signal: c.signal, random: () => 0 }),
    );
    // Act: abort all but the last ten
    for (const c of controllers.slice(0, 290)) c.abort();
    // Assert
    await Promise.all(waits.slice(0, 290));
    expect(watch.waiting).toBe(10);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1300);
    await expect(Promise.all(waits.slice(290))).resolves.toEqual(Array.from({ length: 10 }, () => 1));
    expect(watch.waiting).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('answers at once for an already aborted signal and registers nothing', async () => {
    const watch = createIndexWatch(3);
    await expect(watch.waitFor(3, { waitMs: 1000, signal: AbortSignal.abort() })).resolves.toBe(3);
    expect(watch.waiting).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('uses the injected clock for deadlines', async () => {
    let t = 1_000_000;
    const watch = createIndexWatch(1, { now: () => t });
    const waited = watch.waitFor(1, { waitMs: 100, random: () => 0 });
    t += 100;
    await vi.advanceTimersByTimeAsync(100);
    await expect(waited).resolves.toBe(1);
  });
});

describe('bad input', () => {
  it.each([-1, Number.NaN])('rejects waitFor(%d) without registering', (after) => {
    const watch = createIndexWatch(1);
    expect(() => watch.waitFor(after, { waitMs: 10 })).toThrow(/non-negative number, got/);
    expect(watch.waiting).toBe(0);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('rejects waitMs %d without registering', (waitMs) => {
    const watch = createIndexWatch(1);
    expect(() => watch.waitFor(1, { waitMs })).toThrow(/waitMs must be a non-negative finite number/);
    expect(watch.waiting).toBe(0);
  });

  it.each([-1, 0.5, Number.NaN])('rejects the initial index %d', (initial) => {
    expect(() => createIndexWatch(initial)).toThrow('The initial must be a non-negative safe integer');
  });
});

describe('properties', () => {
  test.prop([fc.integer({ min: 0, max: 600_000 }), fc.double({ min: 0, max: 0.999_999, noNaN: true })])(
    'a wait that sees no change ends after waitMs plus random * waitMs / 16',
    async (waitMs, r) => {
      vi.useFakeTimers();
      // the deadline is rounded up to a whole millisecond of the clock
      const watch = createIndexWatch(1);
      let ended = false;
      const total = Math.ceil(Date.now() + waitMs + (r * waitMs) / 16) - Date.now();
      const waited = watch.waitFor(1, { waitMs, random: () => r }).then(() => (ended = true));
      if (total >= 1) {
        await vi.advanceTimersByTimeAsync(total - 1);
        expect(ended).toBe(false);
      }
      await vi.advanceTimersByTimeAsync(1);
      await waited;
      expect(ended).toBe(true);
    },
  );

  test.prop([
    fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 30 }),
    fc.integer({ min: 0, max: 60 }),
  ])(
    'every waiter resolves with an index greater than its own once the index passes it',
    async (afters, target) => {
      const watch = createIndexWatch(0);
      const waits = afters.map((after) =>
        watch.waitFor(after, { waitMs: 60_000 }).then((index) => ({ after, index })),
      );
      watch.advance(target);
      for (const after of afters) if (after < target) expect(watch.waiting).toBeLessThan(afters.length + 1);
      watch.advance(100);
      for (const { after, index } of await Promise.all(waits)) expect(index).toBeGreaterThan(after);
      expect(watch.waiting).toBe(0);
    },
  );
});
