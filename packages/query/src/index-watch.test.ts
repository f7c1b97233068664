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
