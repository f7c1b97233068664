import { getEventListeners } from 'node:events';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { sleep } from './index.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('sleep', () => {
  it('resolves after the delay and releases its listener', async () => {
    const controller = new AbortController();
    let done = false;
    const slept = sleep(1000, controller.signal).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await slept;
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects with the signal’s reason on abort and clears its timer', async () => {
    const controller = new AbortController();
    const slept = sleep(1000, { signal: controller.signal });
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(slept).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects at once for an aborted signal', async () => {
    const signal = AbortSignal.abort();
    await expect(sleep(10, signal)).rejects.toBe(signal.reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('treats a negative delay as 0', async () => {
    const slept = sleep(-5);
    await vi.advanceTimersByTimeAsync(0);
    await expect(slept).resolves.toBeUndefined();
  });
});
