import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidRequestError, type SchedulerClient } from '@sked/scheduler-client';

import { collect, eventually, rejection, serviceJob, startTestServer, type TestServer } from './support.js';

let server: TestServer;
let client: SchedulerClient;

function volume(id: string, pluginId = 'ebs0'): Parameters<SchedulerClient['volumes']['register']>[0] {
  return {
    ID: id,
    Name: id,
    ExternalID: `ext-${id}`,
    Namespace: 'default',
    PluginID: pluginId,
    AccessMode: 'multi-node-single-writer',
    AttachmentMode: 'file-system',
    Topologies: [],
  } as never;
}

beforeAll(async () => {
  server = await startTestServer();
  client = server.client;
});

afterAll(async () => {
  await server.close();
});

describe('volumes against the sample server', () => {
  it('registers, lists, reads, deletes', async () => {
    await client.volumes.register(volume('vol-a'));
    await client.volumes.register(volume('vol-b', 'nfs'));
    await client.volumes.register(volume('vol-c'));

    const { data, meta } = await client.volumes.list();
    expect(data.map((v) => v.ID)).toEqual(['vol-a', 'vol-b', 'vol-c']);
    expect(meta.index).toBeGreaterThan(1);
    expect(data.every((v) => !('Allocations' in v))).toBe(true);

    const byPlugin = await client.volumes.list({ pluginId: 'nf' });
    expect(byPlugin.data.map((v) => v.ID)).toEqual(['vol-b']);
    const filtered = await client.volumes.list({ filter: 'PluginID == "ebs0"' });
    expect(filtered.data.map((v) => v.ID)).toEqual(['vol-a', 'vol-c']);
    const pages = await collect(client.volumes.list.pages({ perPage: 2 }));
    expect(pages.map((p) => p.data.map((v) => v.ID))).toEqual([['vol-a', 'vol-b'], ['vol-c']]);

    const read = await client.volumes.read('vol-a');
    expect(read.data).toMatchObject({ ID: 'vol-a', PluginID: 'ebs0', ExternalID: 'ext-vol-a' });
    expect(read.data.Allocations).toEqual([]);

    await client.volumes.delete('vol-c');
    expect(await rejection(client.volumes.read('vol-c'))).toMatchObject({ status: 404 });
  });

  it('refuses to register a volume twice', async () => {
    await client.volumes.register(volume('vol-twice'));
    const error = await rejection(client.volumes.register(volume('vol-twice')));
    expect(error).toMatchObject({ status: 400 });
    expect(error.message).toContain('volume "vol-twice" already exists');
  });

  it('a volume claimed by a running allocation is in use until the job stops; then detach and delete work', async () => {
    // Arrange: a job whose group claims the volume.
    await client.volumes.register(volume('vol-claimed'));
    const job = serviceJob('uses-volume');
    const group = job.TaskGroups?.[0];
    if (group === undefined) throw new Error('no group');
    const claiming = {
      ...job,
      TaskGroups: [
        {
          ...group,
          Volumes: {
            data: {
              Name: 'data',
              Type: 'csi',
              Source: 'vol-claimed',
              AccessMode: 'multi-node-single-writer',
              AttachmentMode: 'file-system',
            },
          },
        },
      ],
    };
    await client.jobs.create(claiming);
    const alloc = await eventually(async () => {
      const { data } = await client.jobs.allocations('uses-volume');
      return data.find((a) => a.ClientStatus === 'running');
    }, 'a running allocation that claims the volume');

    // The volume read shows the claim.
    const read = await client.volumes.read('vol-claimed');
    expect(read.data.Allocations?.map((a) => a.ID)).toEqual([alloc.ID]);
    expect(Object.keys(read.data.WriteAllocs ?? {})).toEqual([alloc.ID]);

    // In use: detach and delete are refused, nothing changes.
    const detachInUse = await rejection(client.volumes.detach('vol-claimed', alloc.NodeID));
    expect(detachInUse).toMatchObject({
      status: 400,
      message: expect.stringContaining('volume "vol-claimed" is in use'),
    });
    const deleteInUse = await rejection(client.volumes.delete('vol-claimed', { force: true }));
    expect(deleteInUse).toMatchObject({ status: 400 });
    expect((await client.volumes.read('vol-claimed')).data.ID).toBe('vol-claimed');

    // Act: stop the job; once the claim is released the volume detaches and deletes.
    await client.jobs.stop('uses-volume', { purge: true });
    const detached = await eventually(
      async () => (await client.volumes.detach('vol-claimed', alloc.NodeID)).data,
      'the claim to be released',
    );
    expect(detached.Index).toBeGreaterThan(0);
    await client.volumes.delete('vol-claimed');
    expect(await rejection(client.volumes.read('vol-claimed'))).toMatchObject({ status: 404 });
  });

  it('detach names an unknown node or volume with 404', async () => {
    await client.volumes.register(volume('vol-detach'));
    expect(await rejection(client.volumes.detach('vol-detach', 'ffffffff'))).toMatchObject({ status: 404 });
    expect(await rejection(client.volumes.detach('no-such-volume', 'ffffffff'))).toMatchObject({
      status: 404,
    });
  });

  it('answers 404 for an unknown volume and refuses bad input early', async () => {
    expect(await rejection(client.volumes.read('nope'))).toMatchObject({ status: 404 });
    expect(await rejection(client.volumes.delete('nope'))).toMatchObject({ status: 404 });
    const conflict = await rejection(client.volumes.list({ nodeId: 'ab', filter: 'Schedulable' }));
    expect(InvalidRequestError.is(conflict)).toBe(true);
  });

  it('watch sees a new volume', async () => {
    const iterator = client.volumes.list.watch({ wait: '5s' })[Symbol.asyncIterator]();
    const first = await iterator.next();
    const before = first.value?.data.length ?? 0;
    await client.volumes.register(volume('vol-new'));
    const next = await iterator.next();
    expect(next.value?.data.length).toBe(before + 1);
    await iterator.return?.();
  });
});
