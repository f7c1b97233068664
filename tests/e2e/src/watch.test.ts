import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result, SchedulerClient } from '@sked/scheduler-client';

import { eventually, serviceJob, startTestServer, type TestServer } from './support.js';

let server: TestServer;
let client: SchedulerClient;

beforeAll(async () => {
  server = await startTestServer();
  client = server.client;
});

afterAll(async () => {
  await server.close();
});

/**
 * Takes the first answer of a watch, runs `write`, and returns the first answer and the next one
 * that satisfies `until` (by default any later answer: the watch yields only when the index moves).
 * Other writes of the cluster (allocations starting) may wake the watch in between, hence `until`.
 */
async function acrossWrite<T>(
  watched: AsyncIterable<Result<T>>,
  write: () => Promise<unknown>,
  until: (after: Result<T>) => boolean = () => true,
): Promise<[Result<T>, Result<T>]> {
  const iterator = watched[Symbol.asyncIterator]();
  try {
    const first = await iterator.next();
    if (first.done === true) throw new Error('the watch ended before its first answer');
    await write();
    for (;;) {
      const next = await iterator.next();
      if (next.done === true) throw new Error('the watch ended before the write was seen');
      if (until(next.value)) return [first.value, next.value];
    }
  } finally {
    await iterator.return?.();
  }
}

const options = { wait: '10s' } as const;

describe('every blocking read wakes its watch on a write', () => {
  it('jobs: list, read, versions, summary, submission', async () => {
    const [before, after] = await acrossWrite(
      client.jobs.list.watch(options),
      () => client.jobs.create(serviceJob('w1')),
      (result) => result.data.some((j) => j.ID === 'w1'),
    );
    expect(after.meta.index).toBeGreaterThan(before.meta.index ?? 0);
    expect(after.data.map((j) => j.ID)).toContain('w1');

    const [jobBefore, jobAfter] = await acrossWrite(
      client.jobs.read.watch('w1', options),
      () => client.jobs.update('w1', serviceJob('w1', { count: 2 })),
      (result) => result.data.Version === 1,
    );
    expect(jobBefore.data.Version).toBe(0);
    expect(jobAfter.data.Version).toBe(1);

    const [versionsBefore, versionsAfter] = await acrossWrite(
      client.jobs.versions.watch('w1', options),
      () => client.jobs.update('w1', serviceJob('w1', { count: 3 })),
      (result) => result.data.Versions.length === 3,
    );
    expect(versionsAfter.data.Versions.length).toBe(versionsBefore.data.Versions.length + 1);

    const [summaryBefore, summaryAfter] = await acrossWrite(client.jobs.summary.watch('w1', options), () =>
      client.jobs.update('w1', serviceJob('w1', { count: 1 })),
    );
    expect(summaryAfter.meta.index).toBeGreaterThan(summaryBefore.meta.index ?? 0);

    await client.jobs.create(serviceJob('w2'), { submission: { Format: 'json', Source: '{}' } });
    const [submissionBefore, submissionAfter] = await acrossWrite(
      client.jobs.submission.watch('w2', 0, options),
      () =>
        client.jobs.update('w2', serviceJob('w2', { count: 2 }), {
          submission: { Format: 'json', Source: '{ }' },
        }),
    );
    expect(submissionAfter.meta.index).toBeGreaterThan(submissionBefore.meta.index ?? 0);
    expect(submissionAfter.data.Version).toBe(0);
  });

  it("a job's allocations, evaluations, deployments and latest deployment", async () => {
    const rolling = (count: number): ReturnType<typeof serviceJob> => ({
      ...serviceJob('w3', { count }),
      Update: { MaxParallel: 1 },
    });
    await client.jobs.create(rolling(1));
    await eventually(
      async () => ((await client.jobs.allocations('w3')).data.length === 1 ? true : undefined),
      'an allocation',
    );

    const [allocsBefore, allocsAfter] = await acrossWrite(client.jobs.allocations.watch('w3', options), () =>
      client.jobs.update('w3', rolling(2)),
    );
    expect(allocsAfter.meta.index).toBeGreaterThan(allocsBefore.meta.index ?? 0);

    let evalId = '';
    const [evalsBefore, evalsAfter] = await acrossWrite(
      client.jobs.evaluations.watch('w3', options),
      async () => {
        evalId = (await client.jobs.evaluate('w3')).data.EvalID;
      },
      (result) => result.data.some((e) => e.ID === evalId),
    );
    expect(evalsBefore.data.some((e) => e.ID === evalId)).toBe(false);
    expect(evalsAfter.meta.index).toBeGreaterThan(evalsBefore.meta.index ?? 0);

    const [deploymentsBefore, deploymentsAfter] = await acrossWrite(
      client.jobs.deployments.watch('w3', options),
      () => client.jobs.update('w3', rolling(3)),
    );
    expect(deploymentsAfter.meta.index).toBeGreaterThan(deploymentsBefore.meta.index ?? 0);

    const [latestBefore, latestAfter] = await acrossWrite(
      client.jobs.latestDeployment.watch('w3', options),
      () => client.jobs.update('w3', rolling(4)),
    );
    expect(latestAfter.meta.index).toBeGreaterThan(latestBefore.meta.index ?? 0);
    expect(latestAfter.data?.JobID).toBe('w3');
  });

  it('allocations: list and read', async () => {
    await client.jobs.create(serviceJob('w4'));
    // the answer that holds w4's second allocation (other allocations starting wake the watch too,
    // and w4's first may be placed only after the watch's first answer)
    const [listBefore, listAfter] = await acrossWrite(
      client.allocations.list.watch(options),
      () => client.jobs.update('w4', serviceJob('w4', { count: 2 })),
      (result) => result.data.filter((a) => a.JobID === 'w4').length >= 2,
    );
    expect(listAfter.meta.index).toBeGreaterThan(listBefore.meta.index ?? 0);

    const id = listAfter.data.find((a) => a.JobID === 'w4')?.ID ?? '';
    expect(id).not.toBe('');
    const [readBefore, readAfter] = await acrossWrite(client.allocations.read.watch(id, options), () =>
      client.allocations.stop(id),
    );
    expect(readAfter.meta.index).toBeGreaterThan(readBefore.meta.index ?? 0);
  });

  it('volumes: list and read', async () => {
    const volume = (id: string): never => ({ ID: id, Name: id, PluginID: 'p0' }) as never;
    const [listBefore, listAfter] = await acrossWrite(
      client.volumes.list.watch(options),
      () => client.volumes.register(volume('wv1')),
      (result) => result.data.some((v) => v.ID === 'wv1'),
    );
    expect(listAfter.data.length).toBe(listBefore.data.length + 1);

    const [readBefore, readAfter] = await acrossWrite(client.volumes.read.watch('wv1', options), () =>
      client.volumes.register(volume('wv2')),
    );
    expect(readAfter.meta.index).toBeGreaterThan(readBefore.meta.index ?? 0);
    expect(readAfter.data.ID).toBe('wv1');
  });
});
