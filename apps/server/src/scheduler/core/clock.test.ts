import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from './clock.js';

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
    vi.useFakeTimers();
    const fired = vi.fn<() => void>();
    systemClock().setTimeout(fired, 40 * 24 * 3600 * 1000);
    vi.advanceTimersByTime(40 * 24 * 3600 * 1000 - 1);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
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
