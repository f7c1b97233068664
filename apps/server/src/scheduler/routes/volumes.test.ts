import { beforeAll, describe, expect, it } from 'vitest';
import { ensureOk, eventually, jobInput, startTestServer, type TestServer } from '../../../test/server.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
  for (const [id, plugin] of [
    ['vol-a', 'aws-ebs'],
    ['vol-b', 'aws-ebs'],
    ['vol-c', 'gce-pd'],
  ] as const) {
    const res = await t.request('PUT', `/v1/volume/csi/${id}`, {
      body: {
        Volumes: [
          {
            ID: id,
            Name: id,
            PluginID: plugin,
            AccessMode: 'multi-node-single-writer',
            AttachmentMode: 'file-system',
          },
        ],
      },
    });
    ensureOk(res);
  }
});

describe('volumes', () => {
  it('registers with POST as with PUT (the spec lists both verbs)', async () => {
    const res = await t.request('POST', '/v1/volume/csi/vol-post?namespace=posted', {
      body: { Volumes: [{ ID: 'vol-post', PluginID: 'aws-ebs' }] },
    });
    expect([res.statusCode, res.body]).toEqual([
      200,
      JSON.stringify({ Index: t.server.scheduler.cluster.store.index }),
    ]);
    const read = await t.request('GET', '/v1/volume/csi/vol-post?namespace=posted');
    expect(read.json()).toMatchObject({ ID: 'vol-post', Namespace: 'posted', PluginID: 'aws-ebs' });
  });

  it('lists csi volumes without the single-read fields', async () => {
    const res = await t.request('GET', '/v1/volumes?type=csi');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-svc-knownleader']).toBe('true');
    const list = res.json() as Record<string, unknown>[];
    expect(list.map((v) => v['ID'])).toEqual(['vol-a', 'vol-b', 'vol-c']);
    for (const field of ['Allocations', 'ReadAllocs', 'WriteAllocs', 'Version'])
      expect(list[0]).not.toHaveProperty(field);
    expect(list[0]).toMatchObject({ Name: 'vol-a', PluginID: 'aws-ebs', Namespace: 'default' });
  });

  it('answers an empty list without type and 400 for another type', async () => {
    expect((await t.request('GET', '/v1/volumes')).json()).toEqual([]);
    const host = await t.request('GET', '/v1/volumes?type=host');
    expect([host.statusCode, host.body]).toEqual([400, 'Unsupported volume type "host"']);
  });

  it('filters by plugin, prefix and filter, and pages', async () => {
    const byPlugin = (await t.request('GET', '/v1/volumes?type=csi&plugin_id=aws')).json() as {
      ID: string;
    }[];
    expect(byPlugin.map((v) => v.ID)).toEqual(['vol-a', 'vol-b']);
    const byPrefix = (await t.request('GET', '/v1/volumes?type=csi&prefix=vol-c')).json() as { ID: string }[];
    expect(byPrefix.map((v) => v.ID)).toEqual(['vol-c']);
    const filtered = (
      await t.request('GET', `/v1/volumes?type=csi&filter=${encodeURIComponent('PluginID == "gce-pd"')}`)
    ).json() as { ID: string }[];
    expect(filtered.map((v) => v.ID)).toEqual(['vol-c']);
    const page = await t.request('GET', '/v1/volumes?type=csi&per_page=2');
    expect(page.headers['x-svc-nexttoken']).toBe('default.vol-c');
    const both = await t.request('GET', '/v1/volumes?type=csi&plugin_id=aws&filter=ID%20%3D%3D%20%22x%22');
    expect([both.statusCode, both.body]).toEqual([
      400,
      'Filter expression cannot be used with other filter parameters',
    ]);
    const oddNode = await t.request('GET', '/v1/volumes?type=csi&node_id=abc');
    expect([oddNode.statusCode, oddNode.body]).toEqual([
      400,
      'Invalid node_id "abc": a hex prefix must have an even number of characters',
    ]);
  });

  it('reads one volume with its allocations', async () => {
    const res = await t.request('GET', '/v1/volume/csi/vol-a');
    expect(res.statusCode).toBe(200);
    const volume = res.json();
    expect(volume).toMatchObject({ ID: 'vol-a', ReadAllocs: {}, WriteAllocs: {}, Allocations: [] });
    expect(volume).toHaveProperty('Version');
    const missing = await t.request('GET', '/v1/volume/csi/nope');
    expect([missing.statusCode, missing.body]).toEqual([404, 'volume not found']);
  });

  it('refuses to register an existing volume, storing nothing', async () => {
    const before = t.index();
    const res = await t.request('PUT', '/v1/volume/csi/vol-a', {
      body: { Volumes: [{ ID: 'vol-a', PluginID: 'x' }] },
    });
    expect([res.statusCode, res.body]).toEqual([400, 'volume "vol-a" already exists']);
    expect(t.index()).toBe(before);
  });

  it('stores the plugin fields as validated, and never shows the secrets', async () => {
    const fields = {
      MountOptions: { FSType: 'ext4', MountFlags: ['noatime'] },
      Parameters: { type: 'gp3' },
      Context: { zone: 'z1' },
      Capacity: 10_737_418_240,
      RequestedCapabilities: [{ AccessMode: 'single-node-writer', AttachmentMode: 'file-system' }],
    };
    const res = await t.request('PUT', '/v1/volume/csi/vol-fields', {
      body: { Volumes: [{ ID: 'vol-fields', PluginID: 'p', Secrets: { key: 'hunter2' }, ...fields }] },
    });
    ensureOk(res);
    const read = await t.request('GET', '/v1/volume/csi/vol-fields');
    expect(read.json()).toMatchObject({ ...fields, Secrets: null });
    expect(read.body).not.toContain('hunter2');
  });

  it.each([
    ['Capacity', { Capacity: 'big' }],
    ['Secrets', { Secrets: { key: 1 } }],
    ['MountOptions', { MountOptions: { MountFlags: 'noatime' } }],
    ['RequestedCapabilities', { RequestedCapabilities: [{ AccessMode: 'everyone' }] }],
  ])('refuses a volume whose %s has the wrong shape, naming it and storing nothing', async (field, bad) => {
    const before = t.index();
    const res = await t.request('PUT', '/v1/volume/csi/vol-bad', {
      body: { Volumes: [{ ID: 'vol-bad', PluginID: 'p', ...bad }] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(`Volumes[0].${field}`);
    expect(res.body).not.toContain('hunter2');
    expect(t.index()).toBe(before);
  });

  it('refuses a body whose volume ID differs from the path', async () => {
    const before = t.index();
    const res = await t.request('PUT', '/v1/volume/csi/path-id', {
      body: { Volumes: [{ ID: 'body-id', PluginID: 'p' }] },
    });
    expect([res.statusCode, res.body]).toEqual([
      400,
      'Volume ID "body-id" does not match the volume ID in the path "path-id"',
    ]);
    expect(t.index()).toBe(before);
  });

  it('detaches and deregisters', async () => {
    const detachNoNode = await t.request('DELETE', '/v1/volume/csi/vol-b/detach');
    expect([detachNoNode.statusCode, detachNoNode.body]).toEqual([
      400,
      'The "node" query parameter is required',
    ]);
    const node = (t.server.scheduler.cluster.store.nodes.items.values({}).next().value as { ID: string }).ID;
    const detach = await t.request('DELETE', `/v1/volume/csi/vol-b/detach?node=${node}`);
    expect({ status: detach.statusCode, body: detach.body }).toMatchObject({ status: 200 });
    const del = await t.request('DELETE', '/v1/volume/csi/vol-b');
    expect({ status: del.statusCode, body: del.body }).toMatchObject({ status: 200 });
    expect((await t.request('GET', '/v1/volume/csi/vol-b')).statusCode).toBe(404);
    const again = await t.request('DELETE', '/v1/volume/csi/vol-b');
    expect([again.statusCode, again.body]).toEqual([404, 'volume not found']);
  });

  it('answers 405 for another verb on a volume', async () => {
    const res = await t.request('PATCH', '/v1/volume/csi/vol-a', { body: {} });
    expect([res.statusCode, res.body]).toEqual([405, 'Invalid method']);
  });
});

describe('volumes in use', () => {
  it('refuses to deregister or detach a claimed volume, storing nothing', async () => {
    ensureOk(
      await t.request('PUT', '/v1/volume/csi/claimed', {
        body: {
          Volumes: [
            {
              ID: 'claimed',
              PluginID: 'p',
              AccessMode: 'multi-node-single-writer',
              AttachmentMode: 'file-system',
            },
          ],
        },
      }),
    );
    ensureOk(
      await t.request('POST', '/v1/jobs', {
        body: {
          Job: jobInput('uses-volume', {
            group: { Volumes: { data: { Name: 'data', Type: 'csi', Source: 'claimed', ReadOnly: false } } },
          }),
        },
      }),
    );
    const volume = await eventually(async () => {
      const read = (await t.request('GET', '/v1/volume/csi/claimed')).json();
      return Object.keys(read.WriteAllocs ?? {}).length + Object.keys(read.ReadAllocs ?? {}).length > 0
        ? read
        : undefined;
    });
    expect(volume.Allocations).toHaveLength(1);
    const before = t.index();
    const del = await t.request('DELETE', '/v1/volume/csi/claimed');
    expect([del.statusCode, del.body]).toEqual([400, 'volume "claimed" is in use']);
    const forced = await t.request('DELETE', '/v1/volume/csi/claimed?force=true');
    expect(forced.statusCode).toBe(400);
    expect(t.index()).toBe(before);
  });
});
