import { fc, test } from '@fast-check/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { controllableFetcher } from '../test/fakes.js';
import { collect, isRetryable, watch, type WatchCursor, type WatchRetry } from './index.js';

afterEach(() => {
  vi.useRealTimers();
});

interface Answer {
  data: number;
  meta: { index?: number };
}

/** A fetcher that answers the given indexes in order (an Error entry is thrown), then fails with 404. */
const scripted = (answers: (number | Error)[]) => {
  const requests: WatchCursor[] = [];
  const fetch = async (req: WatchCursor): Promise<Answer> => {
    requests.push(req);
    await Promise.resolve();
    const next = answers.shift();
    if (next === undefined) throw Object.assign(new Error('no more answers'), { status: 404 });
    if (next instanceof Error) throw next;
    return { data: next, meta: { index: next } };
  };
  return { fetch, requests };
};

/** Reads answers until the iteration ends or fails (the scripted fetcher fails when it runs out). */
const drain = async (iterable: AsyncIterable<Answer>): Promise<number[]> => {
  const out: number[] = [];
  try {
    for await (const answer of iterable) out.push(answer.data);
  } catch {
    // the script ran out
  }
  return out;
};

describe('watch', () => {
  it('yields only when the index increases, sending the last index seen', async () => {
    const { fetch, requests } = scripted([3, 3, 4, 4, 7]);
    const indexes = (await collect(watch(fetch, {}), { limit: 3 })).map((r) => r.meta.index);
    expect(indexes).toEqual([3, 4, 7]);
    expect(requests.map((r) => r.index)).toEqual([0, 3, 3, 4, 4]);
  });

  it('restarts from 0 when the index goes backwards, yielding the new state', async () => {
    const { fetch, requests } = scripted([5, 9, 2, 2, 3]);
    const indexes = (await collect(watch(fetch, {}), { limit: 4 })).map((r) => r.meta.index);
    expect(indexes).toEqual([5, 9, 2, 3]);
    expect(requests.map((r) => r.index)).toEqual([0, 5, 9, 2, 2]);
  });

  it('reads an index of 0 as 1', async () => {
    const { fetch, requests } = scripted([0, 0, 2]);
    const answers = await collect(watch(fetch, {}), { limit: 2 });
    expect(answers.map((a) => a.data)).toEqual([0, 2]);
    expect(requests.map((r) => r.index)).toEqual([0, 1, 1]);
  });

  it('passes params, the start index and the wait', async () => {
    const { fetch, requests } = scripted([8]);
    await collect(watch(fetch, { job: 'web' }, { index: 7, wait: 1500 }), { limit: 1 });
    expect(requests[0]).toEqual({ job: 'web', index: 7, wait: '1500ms' });
    const second = scripted([8]);
    await collect(watch(second.fetch, {}, { wait: '30s' }), { limit: 1 });
    expect(second.requests[0]).toEqual({ index: 0, wait: '30s' });
  });

  it('fails clearly for an answer without an index', async () => {
    const fetch = async () => {
      await Promise.resolve();
      return { data: 1, meta: {} };
    };
    await expect(collect(watch(fetch, {}))).rejects.toThrow(
      'A blocking query must answer a non-negative integer index, got undefined.',
    );
  });

  it('retries failures with bounded jittered backoff, then recovers', async () => {
    // Arrange
    vi.useFakeTimers();
    const { fetch, requests } = scripted([new Error('down'), new Error('down'), new Error('down'), 4]);
    const retries: WatchRetry[] = [];
    const result = collect(
      watch(
        fetch,
        {},
        { backoffMs: 100, maxBackoffMs: 300, random: () => 1, onError: (_e, r) => retries.push(r) },
      ),
      { limit: 1 },
    );
    // Act
    await vi.advanceTimersByTimeAsync(99);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1 + 200 + 300);
    // Assert
    await expect(result).resolves.toEqual([{ data: 4, meta: { index: 4 } }]);
    expect(retries).toEqual([
      { attempt: 1, delayMs: 100 },
      { attempt: 2, delayMs: 200 },
      { attempt: 3, delayMs: 300 },
    ]);
    expect(requests).toHaveLength(4);
  });

  it('rethrows the last error after the retry budget', async () => {
    vi.useFakeTimers();
    const last = new Error('third');
    const { fetch, requests } = scripted([new Error('first'), new Error('second'), last]);
    const result = collect(watch(fetch, {}, { maxRetries: 2, backoffMs: 10, random: () => 0 }));
    const settled = result.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    expect(await settled).toBe(last);
    expect(requests).toHaveLength(3);
  });

  it('does not retry a client error', async () => {
    const denied = Object.assign(new Error('Permission denied'), { status: 403 });
    const { fetch, requests } = scripted([denied]);
    await expect(collect(watch(fetch, {}))).rejects.toBe(denied);
    expect(requests).toHaveLength(1);
  });

  it('spaces requests by minIntervalMs while the index does not move', async () => {
    // Arrange: a server that answers at once with the same index
    vi.useFakeTimers();
    const { fetch, requests } = scripted([4, 4, 4, 5]);
    const result = collect(watch(fetch, {}, { minIntervalMs: 1000 }), { limit: 2 });
    // Act + Assert: the repeated answers each wait out the interval
    await vi.advanceTimersByTimeAsync(0);
    expect(requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(requests).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(result).resolves.toHaveLength(2);
    expect(requests).toHaveLength(4);
  });

  it('ends with the error onError throws, without retrying', async () => {
    const { fetch, requests } = scripted([new Error('down'), 5]);
    const stop = new Error('giving up');
    const result = collect(
      watch(
        fetch,
        {},
        {
          onError: () => {
            throw stop;
          },
        },
      ),
    );
    await expect(result).rejects.toBe(stop);
    expect(requests).toHaveLength(1);
  });

  it('asks a custom retryable', async () => {
    const seen: unknown[] = [];
    const odd = new Error('odd');
    const { fetch } = scripted([odd]);
    const result = collect(
      watch(
        fetch,
        {},
        {
          retryable: (error) => {
            seen.push(error);
            return false;
          },
        },
      ),
    );
    await expect(result).rejects.toBe(odd);
    expect(seen).toEqual([odd]);
  });

  it('stops at once when aborted during a backoff, with the signal’s reason', async () => {
    // Arrange
    vi.useFakeTimers();
    const { fetch } = scripted([new Error('down')]);
    const controller = new AbortController();
    const result = collect(watch(fetch, {}, { signal: controller.signal, backoffMs: 60_000 }));
    const settled = result.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1);
    // Act
    controller.abort();
    // Assert
    expect(await settled).toBe(controller.signal.reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects the pending next() with the reason when aborted during a request', async () => {
    const { fetch, nextCall } = controllableFetcher<WatchCursor, Answer>();
    const controller = new AbortController();
    const iterator = watch(fetch, {}, { signal: controller.signal })[Symbol.asyncIterator]();
    const pending = iterator.next();
    const call = await nextCall();
    const reason = new Error('bye');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(call.signal.aborted).toBe(true);
  });

  it('aborts the blocking request in flight when the consumer breaks out', async () => {
    // Arrange
    const { fetch, nextCall } = controllableFetcher<WatchCursor, Answer>();
    const seen: number[] = [];
    const loop = (async () => {
      for await (const answer of watch(fetch, {})) {
        seen.push(answer.data);
        break;
      }
    })();
    (await nextCall()).resolve({ data: 1, meta: { index: 1 } });
    await loop;
    expect(seen).toEqual([1]);
    // Act: a consumer that returns while a blocking request is pending
    const iterator = watch(fetch, {})[Symbol.asyncIterator]();
    const pending = iterator.next();
    const call = await nextCall();
    await iterator.return?.();
    // Assert
    expect(call.signal.aborted).toBe(true);
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
  });

  it.each([
    [{ index: -1 }, 'index must be a non-negative integer, got -1.'],
    [{ index: 1.5 }, 'index must be a non-negative integer, got 1.5.'],
    [{ maxRetries: -1 }, 'maxRetries must be a non-negative number, got -1.'],
    [{ backoffMs: Number.NaN }, 'backoffMs must be a non-negative number, got NaN.'],
    [{ minIntervalMs: -1 }, 'minIntervalMs must be a non-negative number, got -1.'],
    [{ wait: -5 }, 'A wait must be a non-negative number of milliseconds, got -5.'],
  ])('rejects the options %j at once', (options, message) => {
    const { fetch, requests } = scripted([]);
    expect(() => watch(fetch, {}, options)).toThrow(message);
    expect(requests).toHaveLength(0);
  });
});

describe('isRetryable', () => {
  it.each([
    [new Error('network'), true],
    [{ status: 0 }, true],
    [{ status: 500 }, true],
    [{ status: 429 }, true],
    [{ status: 408 }, true],
    [{ status: 400 }, false],
    [{ status: 404 }, false],
    [null, true],
  ])('%j -> %s', (error, expected) => {
    expect(isRetryable(error)).toBe(expected);
  });
});

describe('properties', () => {
  test.prop([fc.array(fc.nat(20), { minLength: 1, maxLength: 40 })])(
    'never yields the same index twice for indexes that do not go backwards, and yields every increase',
    async (steps) => {
      const indexes = steps.reduce<number[]>(
        (acc, step) => [...acc, (acc.at(-1) ?? 1) + (step % 3 === 0 ? 0 : step)],
        [],
      );
      const { fetch } = scripted([...indexes]);
      const yielded = await drain(watch(fetch, {}));
      const distinct = [...new Set(indexes)];
      expect(new Set(yielded).size).toBe(yielded.length);
      expect(yielded).toEqual(distinct.slice(0, yielded.length));
      expect(yielded.length).toBe(distinct.length);
    },
  );

  test.prop([fc.array(fc.nat(30), { minLength: 1, maxLength: 40 })])(
    'for any index sequence, yielded indexes strictly increase between two resets',
    async (indexes) => {
      const { fetch } = scripted(indexes.map((i) => Math.max(1, i)));
      const yielded = await drain(watch(fetch, {}));
      const served = indexes.map((i) => Math.max(1, i));
      let last = 0;
      for (const index of yielded) {
        if (index <= last) {
          // a reset: the server went below what was last seen
          expect(served).toContain(index);
        }
        last = index;
      }
      for (let i = 1; i < yielded.length; i++) {
        if ((yielded[i] as number) <= (yielded[i - 1] as number)) {
          const at = served.indexOf(yielded[i - 1] as number);
          expect(served.slice(at + 1).some((s) => s < (yielded[i - 1] as number))).toBe(true);
        }
      }
    },
  );

  test.prop([fc.integer({ min: 1, max: 15 })])(
    'an abort ends the iteration after any number of answers',
    async (abortAt) => {
      const controller = new AbortController();
      let served = 0;
      const fetch = async (_req: WatchCursor, signal: AbortSignal) => {
        await Promise.resolve();
        signal.throwIfAborted();
        served++;
        if (served === abortAt) controller.abort();
        return { data: served, meta: { index: served } };
      };
      const seen: number[] = [];
      const run = (async () => {
        for await (const answer of watch(fetch, {}, { signal: controller.signal })) seen.push(answer.data);
      })();
      await expect(run).rejects.toMatchObject({ name: 'AbortError' });
      expect(served).toBe(abortAt);
      expect(seen.length).toBeLessThanOrEqual(abortAt);
    },
  );
});
