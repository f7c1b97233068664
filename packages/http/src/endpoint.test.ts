import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import {
  ApiError,
  createTransport,
  type FetchInit,
  type FetchLike,
  InvalidRequestError,
  listEndpoint,
  path,
  quote,
  readEndpoint,
  requireInteger,
  requireWait,
} from './index.js';

/** A fetch whose first answer is immediate and whose later ones wait until aborted. */
function oneThenHang(body: unknown): { fetch: FetchLike; calls: string[]; aborts: () => number } {
  const calls: string[] = [];
  let aborts = 0;
  const fetch: FetchLike = (input: string, init: FetchInit) => {
    calls.push(input);
    if (calls.length === 1) {
      return Promise.resolve(
        new Response(JSON.stringify(body), { status: 200, headers: { 'x-svc-index': '7' } }),
      );
    }
    return new Promise<Response>((_resolve, reject) => {
      init.signal?.addEventListener('abort', () => {
        aborts += 1;
        reject(init.signal?.reason as Error);
      });
    });
  };
  return { fetch, calls, aborts: () => aborts };
}

const readThing = (fetch: FetchLike) =>
  readEndpoint<{ signal?: AbortSignal }, { ID: string }>(createTransport({ env: false, fetch }), (id) => ({
    method: 'GET',
    path: path`/v1/thing/${requireNonDot(id)}`,
    expect: { what: 'a thing', ok: (d) => typeof (d as { ID?: unknown } | null)?.ID === 'string' },
  }));

function requireNonDot(id: unknown): string {
  if (typeof id !== 'string' || id === '.' || id === '')
    throw new InvalidRequestError(`bad id ${quote(id)}`, 'id', id);
  return id;
}

describe('endpoint builders', () => {
  it('a refused argument rejects the call, never throws', async () => {
    const { fetch, calls } = oneThenHang({ ID: 'a' });
    const read = readThing(fetch);
    let promise: Promise<unknown> | undefined;
    expect(() => (promise = read('.'))).not.toThrow();
    await expect(promise).rejects.toBeInstanceOf(InvalidRequestError);
    expect(calls).toEqual([]);
  });

  it('a refused argument of a watch rejects its first next()', async () => {
    const { fetch, calls } = oneThenHang({ ID: 'a' });
    const iterator = readThing(fetch).watch('')[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
    expect(calls).toEqual([]);
  });

  it('leaving a watch while a blocking read is pending aborts that read', async () => {
    const { fetch, calls, aborts } = oneThenHang({ ID: 'a' });
    const iterator = readThing(fetch).watch('a')[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ data: { ID: 'a' }, meta: { index: 7 } });
    const pending = iterator.next();
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls[1]).toMatch(/\/v1\/thing\/a\?index=7(&|$)/);
    await iterator.return?.();
    await expect(pending).resolves.toMatchObject({ done: true });
    expect(aborts()).toBe(1);
  });

  it('an answer that is not what the endpoint answers is an ApiError with status 200', async () => {
    const { fetch } = oneThenHang(null);
    const error = await readThing(fetch)('a').catch((e: unknown) => e);
    expect(ApiError.is(error) && error.status).toBe(200);
    expect((error as Error).message).toBe('The answer to GET /v1/thing/a is not a thing: null.');
  });

  it('a list pages with next_token and stops at the last page', async () => {
    const seen: string[] = [];
    const fetch: FetchLike = async (input) => {
      seen.push(new URL(input).search);
      await Promise.resolve();
      const last = input.includes('next_token=b');
      return new Response(JSON.stringify([last ? 'b' : 'a']), {
        status: 200,
        headers: last ? {} : { 'x-svc-nexttoken': 'b' },
      });
    };
    const list = listEndpoint<{ perPage?: number }, string>(createTransport({ env: false, fetch }), () => ({
      method: 'GET',
      path: '/v1/things',
    }));
    const items: string[] = [];
    for await (const item of list.items({ perPage: 1 })) items.push(item);
    expect(items).toEqual(['a', 'b']);
    expect(seen).toEqual(['?per_page=1', '?next_token=b&per_page=1']);
  });
});

describe('a list endpoint', () => {
  /** Two pages (`a`, then `b`), each answer at the index of its call. */
  function twoPages(): { fetch: FetchLike; seen: string[] } {
    const seen: string[] = [];
    const fetch: FetchLike = (input) => {
      seen.push(new URL(input).search);
      const last = input.includes('next_token=b');
      const headers: Record<string, string> = { 'x-svc-index': String(seen.length) };
      if (!last && input.includes('per_page')) headers['x-svc-nexttoken'] = 'b';
      return Promise.resolve(new Response(JSON.stringify([last ? 'b' : 'a']), { status: 200, headers }));
    };
    return { fetch, seen };
  }
  const things = (fetch: FetchLike) =>
    listEndpoint<{ perPage?: number; nextToken?: string }, string>(
      createTransport({ env: false, fetch }),
      (options) => ({
        method: 'GET',
        path: '/v1/things',
        query: { per_page: options.perPage, next_token: options.nextToken },
      }),
    );

  it('reads one page when called, with the token of the next one', async () => {
    const { fetch, seen } = twoPages();
    const page = await things(fetch)({ perPage: 1 });
    expect([page.data, page.meta.nextToken]).toEqual([['a'], 'b']);
    expect(seen).toEqual(['?per_page=1']);
  });

  it('yields the pages from a given token to the last', async () => {
    const { fetch, seen } = twoPages();
    const pages: string[][] = [];
    for await (const page of things(fetch).pages({ perPage: 1 })) pages.push(page.data);
    expect(pages).toEqual([['a'], ['b']]);
    expect(seen).toEqual(['?per_page=1', '?per_page=1&next_token=b']);
  });

  it('watches the list with blocking reads, yielding when the index moves', async () => {
    const { fetch, seen } = twoPages();
    const indexes: (number | undefined)[] = [];
    for await (const { meta } of things(fetch).watch({ wait: '1s' })) {
      indexes.push(meta.index);
      if (indexes.length === 2) break;
    }
    expect(indexes).toEqual([1, 2]);
    expect(seen[1]).toMatch(/index=1/);
  });
});

describe('one validator', () => {
  it('takes (value, parameter) and names the parameter', () => {
    expect(() => requireInteger(-1, 'index')).toThrow('index must be an integer of at least 0, but got -1.');
    expect(requireWait(1500)).toBe('1500ms');
    expect(() => requireWait('soon')).toThrow(/^Invalid wait time "soon"/);
    expect(quote('x'.repeat(100))).toBe(JSON.stringify(`${'x'.repeat(80)}…`));
  });

  // Law: every segment of a built path decodes back to itself, whatever it holds.
  test.prop([fc.array(fc.string(), { minLength: 1, maxLength: 4 })])(
    'path encodes each segment',
    (segments) => {
      const built = segments.reduce((out, segment) => out + path`/${segment}`, '');
      expect(built.split('/').slice(1).map(decodeURIComponent)).toEqual(segments);
    },
  );
});
