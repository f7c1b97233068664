import { describe, expect, it } from 'vitest';

import { fakeClient } from '../test/fake-fetch.js';
import { createClient, InvalidRequestError, type SchedulerClient } from './index.js';

const allocId = '5456bd7a-9fc0-c0dd-6131-cbee77f57577';
describe('InvalidRequestError.is', () => {
  it('recognises the error by its brand, not by instanceof', () => {
    const error = new InvalidRequestError('x', 'p', 1);
    const copy = Object.assign(Object.create(null) as object, error);
    expect(InvalidRequestError.is(error)).toBe(true);
    expect(InvalidRequestError.is(new Error('x'))).toBe(false);
    expect(InvalidRequestError.is(null)).toBe(false);
    expect(InvalidRequestError.is('InvalidRequestError')).toBe(false);
    expect(InvalidRequestError.is(copy)).toBe(false);
  });
});

describe('every ID-taking function refuses a bad ID before any request', () => {
  const byJob: [string, (c: SchedulerClient, id: string) => Promise<unknown>][] = [
    ['jobs.read', (c, id) => c.jobs.read(id)],
    ['jobs.submission', (c, id) => c.jobs.submission(id, 0)],
    ['jobs.versions', (c, id) => c.jobs.versions(id)],
    ['jobs.allocations', (c, id) => c.jobs.allocations(id)],
    ['jobs.evaluations', (c, id) => c.jobs.evaluations(id)],
    ['jobs.deployments', (c, id) => c.jobs.deployments(id)],
    ['jobs.latestDeployment', (c, id) => c.jobs.latestDeployment(id)],
    ['jobs.summary', (c, id) => c.jobs.summary(id)],
    ['jobs.update', (c, id) => c.jobs.update(id, { TaskGroups: [] } as never)],
    ['jobs.dispatch', (c, id) => c.jobs.dispatch(id)],
    ['jobs.revert', (c, id) => c.jobs.revert(id, 0)],
    ['jobs.stable', (c, id) => c.jobs.stable(id, { version: 0, stable: true })],
    ['jobs.evaluate', (c, id) => c.jobs.evaluate(id)],
    ['jobs.periodicForce', (c, id) => c.jobs.periodicForce(id)],
    ['jobs.stop', (c, id) => c.jobs.stop(id)],
  ];
  const byAlloc: [string, (c: SchedulerClient, id: string) => Promise<unknown>][] = [
    ['allocations.read', (c, id) => c.allocations.read(id)],
    ['allocations.stop', (c, id) => c.allocations.stop(id)],
    ['allocations.signal', (c, id) => c.allocations.signal(id, 'SIGTERM')],
    ['allocations.restart', (c, id) => c.allocations.restart(id)],
  ];
  const byVolume: [string, (c: SchedulerClient, id: string) => Promise<unknown>][] = [
    ['volumes.read', (c, id) => c.volumes.read(id)],
    ['volumes.delete', (c, id) => c.volumes.delete(id)],
    ['volumes.detach', (c, id) => c.volumes.detach(id, 'node')],
  ];

  it.each(byJob.flatMap(([name, call]) => ['', '.', '..'].map((id) => ({ name, call, id }))))(
    '$name refuses the job ID "$id"',
    async ({ call, id }) => {
      const { client, calls } = fakeClient();
      await expect(call(client, id)).rejects.toSatisfy(
        (e) => InvalidRequestError.is(e) && e.parameter === 'jobId',
      );
      expect(calls).toHaveLength(0);
    },
  );

  it.each(
    byAlloc.flatMap(([name, call]) =>
      ['', '5456bd7a', '5456bd7a-9fc0-c0dd-6131-cbee77f5757', `${allocId}/../x`, `${allocId} `].map((id) => ({
        name,
        call,
        id,
      })),
    ),
  )('$name refuses the allocation ID "$id"', async ({ call, id }) => {
    const { client, calls } = fakeClient();
    await expect(call(client, id)).rejects.toSatisfy(
      (e) => InvalidRequestError.is(e) && e.parameter === 'allocId',
    );
    expect(calls).toHaveLength(0);
  });

  it.each(byVolume.flatMap(([name, call]) => ['', '..'].map((id) => ({ name, call, id }))))(
    '$name refuses the volume ID "$id"',
    async ({ call, id }) => {
      const { client, calls } = fakeClient();
      await expect(call(client, id)).rejects.toSatisfy(
        (e) => InvalidRequestError.is(e) && e.parameter === 'volumeId',
      );
      expect(calls).toHaveLength(0);
    },
  );

  it('sends a 100,000-character job ID as one encoded path segment (the server decides)', async () => {
    const { client, calls } = fakeClient(() => ({ status: 404, text: 'job not found' }));
    const id = 'x/'.repeat(50_000);
    await expect(client.jobs.read(id)).rejects.toMatchObject({ status: 404 });
    expect(calls[0]?.path).toBe(`/v1/job/${encodeURIComponent(id)}`);
  });
});

describe('createClient refuses bad configuration', () => {
  it('throws the ConfigError of an address that is not a URL', () => {
    expect(() => createClient({ address: 'not a url', env: false })).toThrow(
      expect.objectContaining({ name: 'ConfigError' }) as Error,
    );
  });
});
