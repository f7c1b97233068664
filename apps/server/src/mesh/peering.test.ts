import { describe, expect, it } from 'vitest';
import { peer, readPeering, startTestMesh } from '../../test/mesh.js';
import { createMemoryPeeringStore } from './store.js';

const UUID = /^[0-9a-f-]{36}$/;

describe('establishment between two listeners', () => {
  it('leaves both sides ACTIVE with each other’s IDs, every field of the record, and moving heartbeats', async () => {
    // Arrange
    const a = await startTestMesh();
    const b = await startTestMesh({ datacenter: 'dc2' });
    // Act
    await peer(a, b, { onAcceptor: 'bee', onDialer: 'ay' });
    // Assert
    await expect.poll(async () => (await readPeering(a, 'bee')).State).toBe('ACTIVE');
    await expect.poll(async () => (await readPeering(b, 'ay')).State).toBe('ACTIVE');
    const onA = await readPeering(a, 'bee');
    const onB = await readPeering(b, 'ay');
    expect(Object.keys(onA).sort()).toEqual(
      [
        'CreateIndex',
        'DeletedAt',
        'ID',
        'Meta',
        'ModifyIndex',
        'Name',
        'Partition',
        'PeerID',
        'PeerServerAddresses',
        'PeerServerName',
        'Remote',
        'State',
        'StreamStatus',
      ].sort(),
    );
    expect(onA['ID']).toMatch(UUID);
    expect(onA['PeerID']).toBe(onB['ID']);
    expect(onB['PeerID']).toBe(onA['ID']);
    expect(onA['Remote']).toEqual({ Partition: 'default', Datacenter: 'dc2' });
    expect(onB['Remote']).toEqual({ Partition: 'default', Datacenter: 'dc1' });
    expect(onA['PeerServerAddresses']).toEqual([new URL(b.url).host]);
    expect(onB['PeerServerAddresses']).toEqual([new URL(a.url).host]);
    expect(onA['PeerServerName']).toBe(b.listener.service.serverName);
    expect(onB['PeerServerName']).toBe(a.listener.service.serverName);
    expect(onA['Partition']).toBe('default');
    expect(onA['DeletedAt']).toBeNull();
    await expect
      .poll(async () => (await readPeering(b, 'ay')).StreamStatus?.['LastHeartbeat'])
      .toMatch(/^\d{4}-\d\d-\d\dT/);
    const first = (await readPeering(b, 'ay')).StreamStatus?.['LastHeartbeat'];
    await expect
      .poll(async () => (await readPeering(b, 'ay')).StreamStatus?.['LastHeartbeat'])
      .not.toBe(first);
    const status = (await readPeering(a, 'bee')).StreamStatus ?? {};
    expect(status['LastReceive']).not.toBeNull();
    expect(status['LastSend']).not.toBeNull();
    expect(status['ImportedServices']).toBeNull();
    expect(status['ExportedServices']).toEqual([]);
  });

  it('keeps Meta given on each side and lists peerings by name with the read headers', async () => {
    const a = await startTestMesh();
    const b = await startTestMesh();
    const token = await a.call('POST', '/v1/peering/token', {
      body: { PeerName: 'zed', Meta: { env: 'prod' }, Partition: '' },
    });
    const PeeringToken = (token.json() as { PeeringToken: string }).PeeringToken;
    const est = await b.call('POST', '/v1/peering/establish', {
      body: { PeerName: 'first', PeeringToken, Meta: { team: 'x' }, Partition: 'default' },
    });
    expect(est.status).toBe(200);
    expect(est.json()).toEqual({});
    await a.call('POST', '/v1/peering/token', { body: { PeerName: 'alpha' } });
    const list = await a.call('GET', '/v1/peerings');
    expect(list.status).toBe(200);
    expect(list.headers.get('x-mesh-index')).toMatch(/^\d+$/);
    expect(list.headers.get('x-mesh-knownleader')).toBe('true');
    expect(list.headers.get('x-mesh-lastcontact')).toBe('0');
    expect(list.headers.get('x-mesh-results-filtered-by-acls')).toBeNull();
    const items = list.json() as { Name: string; Meta: unknown; State: string }[];
    expect(items.map((p) => p.Name)).toEqual(['alpha', 'zed']);
    expect(items[1]?.Meta).toEqual({ env: 'prod' });
    expect(items[0]?.State).toBe('INITIAL');
    expect((await readPeering(b, 'first'))['Meta']).toEqual({ team: 'x' });
  });
});

describe('blocking reads', () => {
  it('are not woken by heartbeats, and are woken by the other side’s delete', async () => {
    const a = await startTestMesh();
    const b = await startTestMesh();
    await peer(a, b, { onAcceptor: 'bee', onDialer: 'ay' });
    await expect.poll(async () => (await readPeering(b, 'ay')).State).toBe('ACTIVE');
    const now = await b.call('GET', '/v1/peering/ay');
    const index = now.headers.get('x-mesh-index') ?? '';
    // heartbeats every 50 ms: a 300 ms wait times out with the same index
    const idle = await b.call('GET', `/v1/peering/ay?index=${index}&wait=300ms`);
    expect(idle.headers.get('x-mesh-index')).toBe(index);
    const started = Date.now();
    const woken = b.call('GET', `/v1/peering/ay?index=${index}&wait=30s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await a.call('DELETE', '/v1/peering/bee')).status).toBe(200);
    const res = await woken;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(Number(res.headers.get('x-mesh-index'))).toBeGreaterThan(Number(index));
    expect((res.json() as { State: string }).State).toBe('TERMINATED');
  });

  it('refuses a bad index or wait', async () => {
    const a = await startTestMesh();
    expect(await a.call('GET', '/v1/peerings?index=x')).toMatchObject({ status: 400, text: 'Invalid index' });
    expect(await a.call('GET', '/v1/peerings?index=1&wait=soon')).toMatchObject({
      status: 400,
      text: 'Invalid wait time',
    });
  });
});

describe('deletion', () => {
  it('on the accepting side reaches the dialing side, and both records go after the clean-up delay', async () => {
    const a = await startTestMesh();
    const b = await startTestMesh();
    await peer(a, b, { onAcceptor: 'bee', onDialer: 'ay' });
    await expect.poll(async () => (await readPeering(a, 'bee')).State).toBe('ACTIVE');
    expect((await a.call('DELETE', '/v1/peering/bee')).status).toBe(200);
    const onA = await readPeering(a, 'bee');
    expect(onA.State).toBe('TERMINATED');
    expect(onA['DeletedAt']).toMatch(/^\d{4}-/);
    await expect.poll(async () => (await readPeering(b, 'ay')).State).toBe('TERMINATED');
    expect((await readPeering(b, 'ay'))['DeletedAt']).toMatch(/^\d{4}-/);
    await expect.poll(async () => (await a.call('GET', '/v1/peering/bee')).status).toBe(404);
    await expect.poll(async () => (await b.call('GET', '/v1/peering/ay')).status).toBe(404);
    expect((await a.call('GET', '/v1/peering/bee')).text).toBe('Peering not found for "bee"');
  });

  it('on the dialing side reaches the accepting side; deleting again or an unknown name is 200', async () => {
    const a = await startTestMesh();
    const b = await startTestMesh();
    await peer(a, b, { onAcceptor: 'bee', onDialer: 'ay' });
    await expect.poll(async () => (await readPeering(a, 'bee')).State).toBe('ACTIVE');
    expect((await b.call('DELETE', '/v1/peering/ay')).status).toBe(200);
    expect((await b.call('DELETE', '/v1/peering/ay')).status).toBe(200);
    expect((await b.call('DELETE', '/v1/peering/never')).status).toBe(200);
    await expect.poll(async () => (await readPeering(a, 'bee')).State).toBe('TERMINATED');
  });

  it('made while the peer is down reaches it when it comes back', async () => {
    // the accepting side goes away; the dialing side deletes; the acceptor restarts on its port
    const storeA = createMemoryPeeringStore();
    const a = await startTestMesh({ store: storeA });
    const b = await startTestMesh({ cleanupMs: 20_000 });
    await peer(a, b, { onAcceptor: 'bee', onDialer: 'ay' });
    await expect.poll(async () => (await readPeering(a, 'bee')).State).toBe('ACTIVE');
    const port = Number(new URL(a.url).port);
    await a.listener.close();
    expect((await b.call('DELETE', '/v1/peering/ay')).status).toBe(200);
    const again = await startTestMesh({ store: storeA, port });
    expect((await readPeering(again, 'bee')).State).toBe('ACTIVE');
    await expect
      .poll(async () => (await readPeering(again, 'bee')).State, { timeout: 15_000 })
      .toBe('TERMINATED');
  });

  it('made while the dialing side is down is learnt on its reconnect', async () => {
    const storeB = createMemoryPeeringStore();
    const a = await startTestMesh({ cleanupMs: 20_000 });
    const b = await startTestMesh({ store: storeB });
    await peer(a, b, { onAcceptor: 'bee', onDialer: 'ay' });
    await expect.poll(async () => (await readPeering(b, 'ay')).State).toBe('ACTIVE');
    await b.listener.close();
    expect((await a.call('DELETE', '/v1/peering/bee')).status).toBe(200);
    const again = await startTestMesh({ store: storeB });
    await expect
      .poll(async () => (await readPeering(again, 'ay')).State, { timeout: 15_000 })
      .toBe('TERMINATED');
  });
});

describe('a peer that goes away', () => {
  it('stops the heartbeats (the record stays ACTIVE) and they resume when it is back', async () => {
    const storeA = createMemoryPeeringStore();
    const a = await startTestMesh({ store: storeA });
    const b = await startTestMesh();
    await peer(a, b, { onAcceptor: 'bee', onDialer: 'ay' });
    await expect.poll(async () => (await readPeering(b, 'ay')).State).toBe('ACTIVE');
    const port = Number(new URL(a.url).port);
    await a.listener.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopped = (await readPeering(b, 'ay')).StreamStatus?.['LastHeartbeat'];
    await new Promise((resolve) => setTimeout(resolve, 300));
    const still = await readPeering(b, 'ay');
    expect(still.State).toBe('ACTIVE');
    expect(still.StreamStatus?.['LastHeartbeat']).toBe(stopped);
    await startTestMesh({ store: storeA, port });
    await expect
      .poll(async () => (await readPeering(b, 'ay')).StreamStatus?.['LastHeartbeat'], { timeout: 15_000 })
      .not.toBe(stopped);
  });
});
