import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock, TIMER_SLICE_MS } from './clock.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('systemClock', () => {
  it('waits a delay past the 32-bit limit of setTimeout instead of firing at once', async () => {
    const fired = vi.fn<() => void>();
    const timer = systemClock().setTimeout(fired, 40 * 24 * 3600 * 1000); // 40 days
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(fired).not.toHaveBeenCalled();
    timer.cancel();
  });

  it('fires a 40-day delay after 40 days, not before', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate'] });
    const fired = vi.fn<() => void>();
    systemClock().setTimeout(fired, 40 * 24 * 3600 * 1000);
    vi.advanceTimersByTime(40 * 24 * 3600 * 1000 - 1);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    vi.runOnlyPendingTimers(); // the due callback runs on the next turn (setImmediate)
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('cancels a long delay in any of its steps', () => {
    vi.useFakeTimers();
    const fired = vi.fn<() => void>();
    const timer = systemClock().setTimeout(fired, 40 * 24 * 3600 * 1000);
    vi.advanceTimersByTime(30 * 24 * 3600 * 1000);
    timer.cancel();
    vi.advanceTimersByTime(20 * 24 * 3600 * 1000);
    expect(fired).not.toHaveBeenCalled();
  });
});

describe('systemClock: due callbacks yield to I/O', () => {
  it('runs callbacks due together in order, in slices with I/O between them', async () => {
    const clock = systemClock();
    const ran: number[] = [];
    let ioBetween = 0;
    const busy = (ms: number): void => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    // ten callbacks due at once, each longer than half a slice: no more than two run between turns
    for (let i = 0; i < 10; i++)
      clock.setTimeout(() => {
        ran.push(i);
        busy(TIMER_SLICE_MS * 0.6);
      }, 1);
    const poll = setInterval(() => ioBetween++, 0);
    for (let wait = 0; ran.length < 10 && wait < 400; wait++)
      await new Promise((resolve) => setTimeout(resolve, 5));
    clearInterval(poll);
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(ioBetween).toBeGreaterThanOrEqual(4);
  });

  it('a callback cancelled while queued does not run', async () => {
    const clock = systemClock();
    const fired = vi.fn<() => void>();
    let second: { cancel(): void } | undefined;
    clock.setTimeout(() => second?.cancel(), 1);
    second = clock.setTimeout(fired, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fired).not.toHaveBeenCalled();
  });
});
