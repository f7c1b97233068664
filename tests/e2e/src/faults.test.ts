// Our own clients against the server's injected faults (issue 23): `paginate` (the lists' `pages`
// and `items`), `watch` (every blocking read's `watch`) and the event stream reader meet 500s,
// latency, cut connections and a leaderless server, and recover or fail as their READMEs say.
import { ApiError, createClient, type SchedulerClient } from '@sked/scheduler-client';
import { startServer, type RunningServer } from '@sked/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { serviceJob } from './support.js';

let server: RunningServer;
let client: SchedulerClient;
const quick = { backoffMs: 10, maxBackoffMs: 40 } as const;

beforeAll(async () => {
  server = await startServer({ nodes: 1, heartbeatMs: 200 });
  client = createClient({ address: server.scheduler.url, env: false });
  await server.seed.jobs(['a', 'b', 'c', 'd', 'e'].map((id) => serviceJob(id)));
});
afterEach(() => server.faults.clear());
afterAll(async () => {
  await server.close();
});

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('paginate (lists: pages, items)', () => {
  it('does not retry: a 500 on page 2 ends the iteration with the ApiError; nextToken resumes', async () => {
    server.faults.inject({ method: 'GET', path: '/v1/jobs', nth: 2, status: 500 });
    const seen: string[] = [];
    let token: string | undefined;
    const error = await failure(
      (async () => {
        for await (const page of client.jobs.list.pages({ perPage: 2 })) {
          seen.push(...page.data.map((job) => job.ID));
          token = page.meta.nextToken;
        }
      })(),
    );
    expect(ApiError.is(error) && [error.status, error.message]).toEqual([500, 'injected fault']);
    expect(seen).toEqual(['a', 'b']);
    for await (const job of client.jobs.list.items({
      perPage: 2,
      ...(token === undefined ? {} : { nextToken: token }),
    })) {
      seen.push(job.ID);
    }
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('waits out latency, and the caller signal ends a slow page with its own reason', async () => {
    server.faults.inject({ path: '/v1/jobs', delayMs: 100, times: 'always' });
    const ids = [];
    for await (const job of client.jobs.list.items({ perPage: 2 })) ids.push(job.ID);
    expect(ids).toEqual(['a', 'b', 'c', 'd', 'e']);
    server.faults.clear();
    server.faults.inject({ path: '/v1/jobs', delayMs: 30_000 });
    const error = await failure(
      (async () => {
        for await (const page of client.jobs.list.pages({ perPage: 2, signal: AbortSignal.timeout(200) }))
          void page;
      })(),
    );
    expect((error as Error).name).toBe('TimeoutError');
  });

  it('a cut connection is an ApiError with status 0, not retried', async () => {
    const rule = server.faults.inject({ path: '/v1/jobs', nth: 2, reset: true });
    const error = await failure(
      (async () => {
        for await (const page of client.jobs.list.pages({ perPage: 3 })) void page;
      })(),
    );
    expect(ApiError.is(error) && error.status).toBe(0);
    expect(rule.matched).toBe(2);
  });

  it('on a leaderless server: 500 "No cluster leader", unless stale (then knownLeader is false)', async () => {
    server.faults.leaderless();
    const error = await failure(client.jobs.list({ perPage: 2 }));
    expect(ApiError.is(error) && [error.status, error.message]).toEqual([500, 'No cluster leader']);
    const pages = [];
    for await (const page of client.jobs.list.pages({ perPage: 2, stale: true })) pages.push(page);
    expect(pages.map((page) => page.data.length)).toEqual([2, 2, 1]);
    expect(pages.every((page) => page.meta.knownLeader === false)).toBe(true);
  });
});

describe('watch (blocking reads)', () => {
  it('retries 5xx with backoff (onError per attempt) and yields once the server answers', async () => {
    const rule = server.faults.inject({ method: 'GET', path: '/v1/job/a', status: 503, times: 2 });
    const attempts: number[] = [];
    for await (const { data } of client.jobs.read.watch('a', {
      ...quick,
      onError: (error, retry) => attempts.push(ApiError.is(error) ? error.status * 10 + retry.attempt : -1),
    })) {
      expect(data.ID).toBe('a');
      break;
    }
    expect(attempts).toEqual([5031, 5032]);
    expect(rule.matched).toBe(3);
  });

  it('rethrows the last 5xx after maxRetries, and a 4xx at once', async () => {
    const always = server.faults.inject({ path: '/v1/job/b', status: 500, times: 'always' });
    const error = await failure(
      client.jobs.read
        .watch('b', { ...quick, maxRetries: 2 })
        [Symbol.asyncIterator]()
        .next(),
    );
    expect(ApiError.is(error) && error.status).toBe(500);
    expect(always.matched).toBe(3);
    always.remove();
    const denied = server.faults.inject({ path: '/v1/job/b', status: 403, times: 'always' });
    const refused = await failure(client.jobs.read.watch('b', quick)[Symbol.asyncIterator]().next());
    expect(ApiError.is(refused) && refused.status).toBe(403);
    expect(denied.matched).toBe(1);
  });

  it('a blocking query cut while it waits is retried, and the next write is seen', async () => {
    const errors: unknown[] = [];
    const versions: number[] = [];
    let writing: Promise<unknown> = Promise.resolve();
    for await (const { data } of client.jobs.read.watch('c', {
      ...quick,
      wait: '20s',
      onError: (e) => errors.push(e),
    })) {
      versions.push(data.Version);
      if (versions.length === 2) break;
      // once the watch waits in its blocking query: cut it, then write
      writing = (async () => {
        await expect.poll(() => server.faults.drop({ path: '/v1/job/:job_id' }), { timeout: 5_000 }).toBe(1);
        await client.jobs.update('c', serviceJob('c', { count: 2 }));
      })();
    }
    await writing;
    expect(versions).toEqual([0, 1]);
    expect(errors.map((e) => ApiError.is(e) && e.status)).toEqual([0]);
  });

  it('through a leaderless spell: retries the 500s, then yields when the leader is back', async () => {
    server.faults.leaderless();
    const errors: string[] = [];
    for await (const { data, meta } of client.jobs.read.watch('d', {
      ...quick,
      maxRetries: 1_000,
      onError(error) {
        errors.push((error as Error).message);
        if (errors.length === 3) server.faults.leaderless(false);
      },
    })) {
      expect([data.ID, meta.knownLeader]).toEqual(['d', true]);
      break;
    }
    expect(errors).toEqual(['No cluster leader', 'No cluster leader', 'No cluster leader']);
  });

  it('with stale on a leaderless server: answers, knownLeader false, lastContact growing', async () => {
    server.faults.leaderless();
    const first = await client.jobs.read('e', { stale: true });
    await new Promise((resolve) => setTimeout(resolve, 30));
    for await (const { meta } of client.jobs.read.watch('e', { ...quick, stale: true })) {
      expect(meta.knownLeader).toBe(false);
      expect(meta.lastContact ?? 0).toBeGreaterThan(first.meta.lastContact ?? Number.POSITIVE_INFINITY);
      break;
    }
  });
});

describe('the event stream reader', () => {
  /** Reads events of the Job topic until `stop` says so; registers jobs as `step` asks. */
  async function follow(
    options: Parameters<SchedulerClient['events']>[0],
    step: (ids: readonly string[]) => boolean | Promise<boolean>,
  ): Promise<{ ids: string[]; indexes: number[] }> {
    const ids: string[] = [];
    const indexes: number[] = [];
    for await (const event of client.events({
      topics: ['Job'],
      ...quick,
      heartbeatTimeout: 5_000,
      ...options,
    })) {
      if (event.Topic !== 'Job' || event.Type !== 'JobRegistered') continue;
      ids.push(event.Payload.Job.ID);
      indexes.push(event.Index);
      if (await step(ids)) break;
    }
    return { ids, indexes };
  }

  it('reconnects after a dropped stream from the last index + 1: nothing lost, nothing repeated', async () => {
    const start = server.scheduler.cluster.store.index + 1;
    const reconnects: { index: number; error: unknown }[] = [];
    const register = client.jobs.create(serviceJob('ev-1'));
    let dropped = -1;
    const seen = await follow({ index: start, onReconnect: (info) => reconnects.push(info) }, async (ids) => {
      if (ids.at(-1) === 'ev-1' && dropped < 0) {
        dropped = server.faults.dropEventStreams();
        await client.jobs.create(serviceJob('ev-2'));
        await client.jobs.create(serviceJob('ev-3'));
      }
      return ids.at(-1) === 'ev-3';
    });
    expect(dropped).toBe(1);
    await register;
    // a job's later writes (its status moving) are Job events too: each index once, in order
    expect([...new Set(seen.ids)]).toEqual(['ev-1', 'ev-2', 'ev-3']);
    expect(seen.indexes).toEqual([...new Set(seen.indexes)].sort((a, b) => a - b));
    expect(reconnects).toHaveLength(1);
    expect(reconnects[0]?.index).toBe((seen.indexes[0] ?? 0) + 1);
  });

  it('retries a 500 at connect and a connection that stays silent past heartbeatTimeout', async () => {
    const start = server.scheduler.cluster.store.index + 1;
    server.faults.inject({ path: '/v1/event/stream', status: 500 });
    server.faults.inject({ path: '/v1/event/stream', nth: 2, delayMs: 60_000 });
    const reasons: string[] = [];
    await client.jobs.create(serviceJob('ev-4'));
    const seen = await follow(
      {
        index: start,
        heartbeatTimeout: 1_000,
        onReconnect: (info) => reasons.push((info.error as Error).name),
      },
      (ids) => ids.includes('ev-4'),
    );
    expect(seen.ids).toContain('ev-4');
    expect(reasons.slice(0, 2)).toEqual(['ApiError', 'HeartbeatTimeoutError']);
    // on a loaded machine a later connection may also be slow to send its first byte
    expect(reasons.slice(2).every((reason) => reason === 'HeartbeatTimeoutError')).toBe(true);
  });

  it('throws a 403 at once, and waits out a leaderless spell (the stream is not a stale read)', async () => {
    server.faults.inject({ path: '/v1/event/stream', status: 403 });
    const denied = await failure(
      client
        .events({ topics: ['Job'] })
        [Symbol.asyncIterator]()
        .next(),
    );
    expect(ApiError.is(denied) && denied.status).toBe(403);
    const start = server.scheduler.cluster.store.index + 1;
    await client.jobs.create(serviceJob('ev-5'));
    server.faults.leaderless();
    const reasons: string[] = [];
    const seen = await follow(
      {
        index: start,
        onReconnect(info) {
          reasons.push((info.error as Error).message);
          if (reasons.length === 2) server.faults.leaderless(false);
        },
      },
      (ids) => ids.includes('ev-5'),
    );
    expect(seen.ids).toContain('ev-5');
    expect(reasons).toEqual(['No cluster leader', 'No cluster leader']);
  });
});

describe('a client of the fault control endpoint', () => {
  it('is refused when control is off (the default)', async () => {
    const res = await fetch(`${server.scheduler.url}/v1/sked/faults`);
    expect(res.status).toBe(404);
  });
});
