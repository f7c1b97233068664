import type { FetchInit, FetchLike } from '@sked/http';
import { describe, expect, it } from 'vitest';

import { createMeshClient, InvalidRequestError } from './index.js';

/** A fetch whose first answer is immediate and whose later (blocking) reads never answer until aborted. */
function blockingFetch(): { fetch: FetchLike; aborted: () => number; started: () => number } {
  let calls = 0;
  let aborts = 0;
  const fetch: FetchLike = (_input: string, init: FetchInit) => {
    calls += 1;
    if (calls === 1) {
      return Promise.resolve(
        new Response('[]', {
          status: 200,
          headers: { 'x-mesh-index': '5', 'content-type': 'application/json' },
        }),
      );
    }
    return new Promise<Response>((_resolve, reject) => {
      init.signal?.addEventListener('abort', () => {
        aborts += 1;
        reject(init.signal?.reason as Error);
      });
    });
  };
  return { fetch, aborted: () => aborts, started: () => calls };
}

describe('peerings watch: one early-exit behaviour with the other clients', () => {
  it('aborts the blocking read in flight when the loop is left while a next() is pending', async () => {
    const { fetch, aborted, started } = blockingFetch();
    const client = createMeshClient({ fetch, env: false });
    const iterator = client.peerings.list.watch()[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.meta.index).toBe(5);
    const pending = iterator.next();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started()).toBe(2);
    // Before the shared request path, return() waited behind the pending next(): it never settled.
    await expect(iterator.return?.()).resolves.toMatchObject({ done: true });
    await expect(pending).resolves.toMatchObject({ done: true });
    expect(aborted()).toBe(1);
  });

  it('rejects the first next() for a bad name, and sends nothing', async () => {
    const { fetch, started } = blockingFetch();
    const client = createMeshClient({ fetch, env: false });
    const iterable = client.peerings.read.watch('Not A Name');
    await expect(iterable[Symbol.asyncIterator]().next()).rejects.toBeInstanceOf(InvalidRequestError);
    expect(started()).toBe(0);
  });
});
