import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidRequestError, type SchedulerClient } from '@sked/scheduler-client';

import { collect, eventually, rejection, serviceJob, startTestServer, type TestServer } from './support.js';

let server: TestServer;
let client: SchedulerClient;

/** Waits until the job has `count` running allocations and returns their IDs. */
async function runningAllocs(jobId: string, count: number): Promise<string[]> {
  return eventually(async () => {
    const { data } = await client.jobs.allocations(jobId);
    const running = data.filter((a) => a.ClientStatus === 'running');
    return running.length === count ? running.map((a) => a.ID) : undefined;
  }, `${count} running allocations of ${jobId}`);
}

beforeAll(async () => {
  server = await startTestServer();
  client = server.client;
  await client.jobs.create(serviceJob('fleet', { count: 5 }));
  await runningAllocs('fleet', 5);
});

afterAll(async () => {
  await server.close();
});

describe('allocations against the sample server', () => {
  it('lists allocations, with and without task states and resources', async () => {
    const { data, meta } = await client.allocations.list();
    expect(data).toHaveLength(5);
    expect(meta.index).toBeGreaterThan(1);
    expect(data.every((a) => !('Job' in a) || a.Job === undefined)).toBe(true);
    expect(data.every((a) => a.TaskStates !== null)).toBe(true);
    const slim = await client.allocations.list({ taskStates: false });
    expect(slim.data.every((a) => a.TaskStates === null)).toBe(true);
  });

  it('pages through allocations', async () => {
    const all = (await client.allocations.list()).data.map((a) => a.ID);
    const pages = await collect(client.allocations.list.pages({ perPage: 2 }));
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((p) => p.data.map((a) => a.ID))).toEqual(all);
    const items = await collect(client.allocations.list.items({ perPage: 3, reverse: true }));
    expect(items.map((a) => a.ID)).toEqual([...all].reverse());
  });

  it('filters allocations on the server and finds one by an even-length prefix', async () => {
    const running = await client.allocations.list({
      filter: 'ClientStatus == "running" and JobID == "fleet"',
    });
    expect(running.data).toHaveLength(5);
    const first = running.data[0];
    if (first === undefined) throw new Error('no allocation');
    const byPrefix = await client.allocations.list({ prefix: first.ID.slice(0, 8) });
    expect(byPrefix.data.map((a) => a.ID)).toContain(first.ID);
  });

  it('refuses short IDs and odd prefixes before the request; the server agrees', async () => {
    const short = await rejection(client.allocations.read('abcd1234'));
    expect(InvalidRequestError.is(short)).toBe(true);
    const odd = await rejection(client.allocations.list({ prefix: 'abc' }));
    expect(InvalidRequestError.is(odd)).toBe(true);
    expect((await fetch(`${server.url}/v1/allocations?prefix=abc`)).status).toBe(400);
    expect((await fetch(`${server.url}/v1/allocation/abcd1234`)).status).toBe(400);
  });

  it('reads one allocation with its job', async () => {
    const [id] = await runningAllocs('fleet', 5);
    const { data } = await client.allocations.read(id ?? '');
    expect(data.ID).toBe(id);
    expect(data.Job?.ID).toBe('fleet');
    const missing = await rejection(client.allocations.read('00000000-0000-0000-0000-000000000000'));
    expect(missing).toMatchObject({ status: 404 });
    expect(missing.message).toContain('alloc not found');
  });

  it('signals a task and restarts it', async () => {
    const [id = ''] = await runningAllocs('fleet', 5);
    const signalled = await client.allocations.signal(id, 'SIGHUP', { task: 'server' });
    expect(signalled.data).toEqual({});
    const restarted = await client.allocations.restart(id, { task: 'server' });
    expect(restarted.data).toEqual({});
    const state = await eventually(async () => {
      const { data } = await client.allocations.read(id);
      const task = data.TaskStates?.['server'];
      return task !== undefined && task.Restarts >= 1 ? task : undefined;
    }, 'a restart in the task state');
    expect((state.Events ?? []).map((e) => e.Type)).toContain('Restart Signaled');
  });

  it('stops an allocation, which is rescheduled, and the watch sees it', async () => {
    const [id = ''] = await runningAllocs('fleet', 5);
    const controller = new AbortController();
    const watched = client.allocations.read.watch(id, { signal: controller.signal, wait: '5s' });
    const iterator = watched[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    const { data } = await client.allocations.stop(id);
    expect(data.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    const next = await iterator.next();
    expect(next.value?.data.DesiredStatus).toBe('stop');
    await iterator.return?.();
    await runningAllocs('fleet', 5);
  });
});
