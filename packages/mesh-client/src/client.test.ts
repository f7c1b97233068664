import { fc, test } from '@fast-check/vitest';
import { ApiError, ConfigError } from '@sked/http';
import { describe, expect, it } from 'vitest';

import { recorder, TOKEN } from '../test/fake-server.js';
import { createMeshClient, InvalidRequestError } from './index.js';

const record = {
  ID: 'a',
  Name: 'dc2',
  State: 'ACTIVE',
  Partition: 'default',
  PeerID: 'b',
  PeerServerName: 's',
  PeerServerAddresses: ['127.0.0.1:1'],
  Meta: null,
  StreamStatus: null,
  Remote: { Partition: 'default', Datacenter: 'dc2' },
  DeletedAt: null,
  CreateIndex: 1,
  ModifyIndex: 2,
};

describe('createMeshClient', () => {
  it('reads SKED_MESH_ADDR, SKED_MESH_TOKEN and SKED_MESH_PARTITION, and sends the token in X-Mesh-Token', async () => {
    const { fetch, seen } = recorder(() => ({ body: [], headers: { 'x-mesh-index': '3' } }));
    const client = createMeshClient({
      fetch,
      env: {
        SKED_MESH_ADDR: 'http://mesh.example:8501',
        SKED_MESH_TOKEN: 'tok',
        SKED_MESH_PARTITION: 'default',
      },
    });
    const result = await client.peerings.list();
    expect(result.meta.index).toBe(3);
    expect(seen[0]?.url.href).toBe('http://mesh.example:8501/v1/peerings?partition=default');
    expect(seen[0]?.headers.get('x-mesh-token')).toBe('tok');
    expect(client.partition).toBe('default');
  });

  it('defaults to http://127.0.0.1:8500 and options win over the environment', async () => {
    const { fetch, seen } = recorder(() => ({ body: [] }));
    await createMeshClient({ fetch, env: {} }).peerings.list();
    expect(seen[0]?.url.href).toBe('http://127.0.0.1:8500/v1/peerings');
    await createMeshClient({
      fetch,
      address: 'http://a:1',
      env: { SKED_MESH_ADDR: 'http://b:2' },
    }).peerings.list();
    expect(seen[1]?.url.host).toBe('a:1');
  });

  it('refuses a bad partition or address with a ConfigError', () => {
    expect(() => createMeshClient({ env: false, partition: 'a b' })).toThrow(ConfigError);
    expect(() => createMeshClient({ env: { SKED_MESH_PARTITION: 'x/y' } })).toThrow(/SKED_MESH_PARTITION/);
    expect(() => createMeshClient({ env: false, address: 'mesh:8500' })).toThrow(ConfigError);
  });
});

describe('peerings', () => {
  it('sends generateToken and establish bodies with the partition, and reads their answers', async () => {
    const { fetch, seen } = recorder((req) =>
      req.url.pathname === '/v1/peering/token' ? { body: { PeeringToken: TOKEN } } : { body: {} },
    );
    const { peerings } = createMeshClient({ fetch, env: false, partition: 'default' });
    const { data } = await peerings.generateToken({
      PeerName: 'dc2',
      ServerExternalAddresses: ['lb.example:8503'],
      Meta: { env: 'prod' },
    });
    expect(data.PeeringToken).toBe(TOKEN);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      body: {
        PeerName: 'dc2',
        Partition: 'default',
        ServerExternalAddresses: ['lb.example:8503'],
        Meta: { env: 'prod' },
      },
    });
    expect((await peerings.establish({ PeerName: 'dc1', PeeringToken: TOKEN })).data).toEqual({});
    expect(seen[1]?.body).toEqual({ PeerName: 'dc1', PeeringToken: TOKEN, Partition: 'default' });
  });

  it('reads, lists and deletes by name, with index and wait', async () => {
    const { fetch, seen } = recorder((req) => ({
      body: req.method === 'DELETE' ? undefined : req.url.pathname === '/v1/peerings' ? [record] : record,
      headers: { 'x-mesh-index': '9', 'x-mesh-results-filtered-by-acls': 'true' },
    }));
    const { peerings } = createMeshClient({ fetch, env: false });
    const read = await peerings.read('dc2', { index: 5, wait: 1500 });
    expect(read.data.Name).toBe('dc2');
    expect(seen[0]?.url.search).toBe('?index=5&wait=1500ms');
    const list = await peerings.list({ partition: 'default' });
    expect(list.data).toHaveLength(1);
    expect(list.meta.filteredByAcls).toBe(true);
    const deleted = await peerings.delete('dc2');
    expect(deleted.data).toBeUndefined();
    expect(seen[2]).toMatchObject({ method: 'DELETE' });
    expect(seen[2]?.url.pathname).toBe('/v1/peering/dc2');
  });

  it('turns a refusal of the server into an ApiError with its message', async () => {
    const { fetch } = recorder(() => ({ status: 404, body: 'Peering not found for "dc2"' }));
    const error = await createMeshClient({ fetch, env: false, token: 't0ken-value' })
      .peerings.read('dc2')
      .catch((e: unknown) => e);
    expect(ApiError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 404, message: 'Peering not found for "dc2"' });
  });

  it.each([
    [
      'a bad PeerName',
      (p: ReturnType<typeof createMeshClient>['peerings']) => p.generateToken({ PeerName: 'DC2' }),
      'PeerName',
    ],
    [
      'a body that is not an object',
      (p: ReturnType<typeof createMeshClient>['peerings']) => p.generateToken(null as never),
      'body',
    ],
    [
      'a bad address',
      (p: ReturnType<typeof createMeshClient>['peerings']) =>
        p.generateToken({ PeerName: 'a', ServerExternalAddresses: ['a'] }),
      'ServerExternalAddresses',
    ],
    [
      'a Meta value that is not a string',
      (p: ReturnType<typeof createMeshClient>['peerings']) =>
        p.generateToken({ PeerName: 'a', Meta: { a: 1 as never } }),
      'Meta.a',
    ],
    [
      'a token that is not base64',
      (p: ReturnType<typeof createMeshClient>['peerings']) =>
        p.establish({ PeerName: 'a', PeeringToken: 'not a token!' }),
      'PeeringToken',
    ],
    [
      'a token of base64 text',
      (p: ReturnType<typeof createMeshClient>['peerings']) =>
        p.establish({ PeerName: 'a', PeeringToken: Buffer.from('hello').toString('base64') }),
      'PeeringToken',
    ],
    ['a bad name to read', (p: ReturnType<typeof createMeshClient>['peerings']) => p.read('a/b'), 'name'],
    ['a bad name to delete', (p: ReturnType<typeof createMeshClient>['peerings']) => p.delete('..'), 'name'],
    ['a bad index', (p: ReturnType<typeof createMeshClient>['peerings']) => p.list({ index: -1 }), 'index'],
    ['a bad wait', (p: ReturnType<typeof createMeshClient>['peerings']) => p.list({ wait: 'soon' }), 'wait'],
    [
      'a bad partition',
      (p: ReturnType<typeof createMeshClient>['peerings']) => p.list({ partition: '' }),
      'partition',
    ],
  ])('refuses %s before any request, by rejecting', async (_what, run, parameter) => {
    const { fetch, seen } = recorder();
    const error = await run(createMeshClient({ fetch, env: false }).peerings).catch((e: unknown) => e);
    expect(InvalidRequestError.is(error)).toBe(true);
    expect((error as InvalidRequestError).parameter).toBe(parameter);
    expect(seen).toHaveLength(0);
  });

  it('never puts a refused token in the error', async () => {
    const error = (await createMeshClient({ env: false })
      .peerings.establish({ PeerName: 'a', PeeringToken: 'c2VjcmV0LXRva2Vu' })
      .catch((e: unknown) => e)) as InvalidRequestError;
    expect(error.message).not.toContain('c2VjcmV0LXRva2Vu');
    expect(JSON.stringify(error.value)).not.toContain('c2VjcmV0LXRva2Vu');
  });
});

describe('watch', () => {
  it('follows a peering over X-Mesh-Index, yielding only when the index moves', async () => {
    const states = ['INITIAL', 'INITIAL', 'ACTIVE', 'TERMINATED'];
    let i = 0;
    const { fetch, seen } = recorder(() => {
      const n = Math.min(i++, states.length - 1);
      const index = n === 1 ? 1 : n + 1;
      return { body: { ...record, State: states[n] }, headers: { 'x-mesh-index': String(index) } };
    });
    const { peerings } = createMeshClient({ fetch, env: false });
    const seenStates: string[] = [];
    for await (const { data } of peerings.read.watch('dc2', { wait: '1s' })) {
      seenStates.push(data.State);
      if (data.State === 'TERMINATED') break;
    }
    expect(seenStates).toEqual(['INITIAL', 'ACTIVE', 'TERMINATED']);
    expect(seen[1]?.url.searchParams.get('index')).toBe('1');
    expect(seen[1]?.url.searchParams.get('wait')).toBe('1s');
  });

  it('follows the list and rejects the first next() for a bad name', async () => {
    const { fetch } = recorder(() => ({ body: [record], headers: { 'x-mesh-index': '4' } }));
    const { peerings } = createMeshClient({ fetch, env: false });
    for await (const { data, meta } of peerings.list.watch()) {
      expect(data).toHaveLength(1);
      expect(meta.index).toBe(4);
      break;
    }
    const iterator = peerings.read.watch('Bad')[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toThrow(InvalidRequestError);
  });
});

describe('properties', () => {
  test.prop([fc.string()])('a name is sent exactly when it is a lowercase DNS label', async (name) => {
    const { fetch, seen } = recorder(() => ({ body: record }));
    const valid = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(name);
    const outcome = await createMeshClient({ fetch, env: false })
      .peerings.read(name)
      .then(
        () => 'sent',
        (e: unknown) => (InvalidRequestError.is(e) ? 'refused' : 'other'),
      );
    expect(outcome).toBe(valid ? 'sent' : 'refused');
    expect(seen.length).toBe(valid ? 1 : 0);
  });

  test.prop([fc.string()])(
    'establish refuses any text that is not base64 of a JSON object, before a request',
    async (text) => {
      let isToken = false;
      try {
        const json = JSON.parse(Buffer.from(text.trim(), 'base64').toString('utf8')) as unknown;
        isToken =
          /^[A-Za-z0-9+/]*={0,2}$/.test(text.trim()) &&
          text.trim().length % 4 === 0 &&
          text.trim() !== '' &&
          typeof json === 'object' &&
          json !== null &&
          !Array.isArray(json);
      } catch {
        isToken = false;
      }
      const { fetch, seen } = recorder();
      const refused = await createMeshClient({ fetch, env: false })
        .peerings.establish({ PeerName: 'a', PeeringToken: text })
        .then(
          () => false,
          (e: unknown) => InvalidRequestError.is(e),
        );
      expect(refused).toBe(!isToken);
      expect(seen.length).toBe(isToken ? 1 : 0);
    },
  );
});
