import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidRequestError, type SchedulerClient } from '@sked/scheduler-client';

import { collect, rejection, startTestServer, type TestServer } from './support.js';

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

  it('detaches a volume from a node', async () => {
    await client.volumes.register(volume('vol-detach'));
    const result = await client.volumes.detach('vol-detach', '0000');
    expect(result.meta).toBeDefined();
    const missing = await rejection(client.volumes.detach('no-such-volume', '0000'));
    expect(missing).toMatchObject({ status: 404 });
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
