import { describe, expect, it } from 'vitest';
import { startTestMesh } from '../../test/mesh.js';

describe('ACL of the mesh service', () => {
  it('answers 403 ACL token not found without a token or with an unknown one', async () => {
    const a = await startTestMesh({ acl: true });
    for (const [method, path] of [
      ['GET', '/v1/peerings'],
      ['GET', '/v1/peering/x'],
      ['DELETE', '/v1/peering/x'],
      ['POST', '/v1/peering/token'],
      ['POST', '/v1/peering/establish'],
    ] as const) {
      const body = method === 'POST' ? { body: { PeerName: 'x' } } : {};
      expect(await a.call(method, path, body)).toMatchObject({ status: 403, text: 'ACL token not found' });
      expect((await a.call(method, path, { token: 'nope', ...body })).status).toBe(403);
    }
  });

  it('lets peering:read read and list but not write; peering:write does both', async () => {
    const a = await startTestMesh({ acl: true });
    const denied = await a.call('POST', '/v1/peering/token', {
      token: 'read-secret',
      body: { PeerName: 'x' },
    });
    expect(denied).toMatchObject({ status: 403, text: 'Permission denied' });
    expect(
      (
        await a.call('POST', '/v1/peering/establish', {
          token: 'read-secret',
          body: { PeerName: 'x', PeeringToken: 'a' },
        })
      ).status,
    ).toBe(403);
    expect((await a.call('DELETE', '/v1/peering/x', { token: 'read-secret' })).status).toBe(403);
    expect(
      (await a.call('POST', '/v1/peering/token', { token: 'write-secret', body: { PeerName: 'x' } })).status,
    ).toBe(200);
    expect((await a.call('GET', '/v1/peering/x', { token: 'read-secret' })).status).toBe(200);
    expect((await a.call('GET', '/v1/peerings', { token: 'read-secret' })).status).toBe(200);
    expect((await a.call('GET', '/v1/peering/x', { token: 'write-secret' })).status).toBe(200);
    expect((await a.call('GET', '/v1/peerings', { token: 'jobs-secret' })).status).toBe(403);
    // the token also comes as Authorization: Bearer
    const bearer = await a.call('GET', '/v1/peerings', { headers: { authorization: 'Bearer read-secret' } });
    expect(bearer.status).toBe(200);
  });

  it('hides peerings the token may not read and says so in X-Mesh-Results-Filtered-By-ACLs', async () => {
    const a = await startTestMesh({ acl: true });
    for (const name of ['dc2-east', 'dc2-west', 'dc3']) {
      await a.call('POST', '/v1/peering/token', { token: 'ops-secret', body: { PeerName: name } });
    }
    const partial = await a.call('GET', '/v1/peerings', { token: 'partial-secret' });
    expect(partial.status).toBe(200);
    expect((partial.json() as { Name: string }[]).map((p) => p.Name)).toEqual(['dc2-east', 'dc2-west']);
    expect(partial.headers.get('x-mesh-results-filtered-by-acls')).toBe('true');
    const all = await a.call('GET', '/v1/peerings', { token: 'read-secret' });
    expect((all.json() as unknown[]).length).toBe(3);
    expect(all.headers.get('x-mesh-results-filtered-by-acls')).toBeNull();
    expect((await a.call('GET', '/v1/peering/dc3', { token: 'partial-secret' })).status).toBe(403);
    expect((await a.call('DELETE', '/v1/peering/dc2-west', { token: 'partial-secret' })).status).toBe(403);
    expect((await a.call('DELETE', '/v1/peering/dc2-east', { token: 'partial-secret' })).status).toBe(200);
  });
});
