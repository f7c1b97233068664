import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { peer, readPeering, startTestMesh } from '../../test/mesh.js';
import { EXCHANGE_PATH, PEERING_ID_HEADER, STREAM_PATH } from './dialer.js';
import { decodeToken, encodeToken } from './token.js';

async function generate(mesh: Awaited<ReturnType<typeof startTestMesh>>, name: string): Promise<string> {
  const res = await mesh.call('POST', '/v1/peering/token', { body: { PeerName: name } });
  return (res.json() as { PeeringToken: string }).PeeringToken;
}

describe('peer names and partitions', () => {
  it.each([
    ['Upper', 'PeerName "Upper" is not a valid peer name'],
    ['-lead', 'PeerName "-lead" is not a valid peer name'],
    ['trail-', 'PeerName "trail-" is not a valid peer name'],
    ['a.b', 'PeerName "a.b" is not a valid peer name'],
    ['', 'PeerName "" is not a valid peer name'],
    ['x'.repeat(64), `PeerName "${'x'.repeat(64)}" is not a valid peer name`],
    [42, 'PeerName 42 is not a valid peer name'],
    [undefined, 'PeerName undefined is not a valid peer name'],
  ])('refuses PeerName %j with a 400 that says why, and stores nothing', async (name, message) => {
    const a = await startTestMesh();
    for (const path of ['/v1/peering/token', '/v1/peering/establish']) {
      const res = await a.call('POST', path, { body: { PeerName: name, PeeringToken: 'abcd' } });
      expect(res.status).toBe(400);
      expect(res.text).toContain(message);
      expect(res.text).toContain('lowercase DNS label');
    }
    expect((await a.call('GET', '/v1/peerings')).json()).toEqual([]);
  });

  it('accepts names of 1 and 63 characters', async () => {
    const a = await startTestMesh();
    expect((await a.call('POST', '/v1/peering/token', { body: { PeerName: 'a' } })).status).toBe(200);
    expect((await a.call('POST', '/v1/peering/token', { body: { PeerName: 'a'.repeat(63) } })).status).toBe(
      200,
    );
  });

  it('refuses a bad name in the path of read and delete', async () => {
    const a = await startTestMesh();
    for (const method of ['GET', 'DELETE']) {
      const res = await a.call(method, '/v1/peering/Bad_Name');
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/^The peering name "Bad_Name" is not a valid peer name/);
    }
  });

  it('refuses another partition in the body or the query', async () => {
    const a = await startTestMesh();
    const body = await a.call('POST', '/v1/peering/token', { body: { PeerName: 'b', Partition: 'team' } });
    expect(body).toMatchObject({ status: 400 });
    expect(body.text).toBe('Partition "team" is not served: this server has only the "default" partition');
    expect((await a.call('GET', '/v1/peerings?partition=team')).status).toBe(400);
    expect((await a.call('GET', '/v1/peering/b?partition=team')).status).toBe(400);
    expect((await a.call('GET', '/v1/peerings?partition=default')).status).toBe(200);
  });

  it('refuses bodies that are not objects, malformed JSON, bad fields and oversized bodies', async () => {
    const a = await startTestMesh({ maxBody: 2048 });
    expect((await a.call('POST', '/v1/peering/token')).status).toBe(400);
    expect((await a.call('POST', '/v1/peering/token', { body: '[1]' })).status).toBe(400);
    const bad = await a.call('POST', '/v1/peering/token', { body: '{"PeerName": ' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/^Failed to parse the request body as JSON/);
    const meta = await a.call('POST', '/v1/peering/token', { body: { PeerName: 'b', Meta: { k: 1 } } });
    expect(meta.status).toBe(400);
    expect(meta.text).toContain('Meta.k');
    const addr = await a.call('POST', '/v1/peering/token', {
      body: { PeerName: 'b', ServerExternalAddresses: ['nope'] },
    });
    expect(addr.status).toBe(400);
    const big = await a.call('POST', '/v1/peering/token', {
      body: { PeerName: 'b', Meta: { k: 'x'.repeat(4096) } },
    });
    expect(big.status).toBe(413);
    expect((await a.call('GET', '/v1/peerings')).json()).toEqual([]);
  });
});

describe('tokens', () => {
  it('carry the addresses, server name, peer ID, secret, partition and datacenter; ServerExternalAddresses win', async () => {
    const a = await startTestMesh({ datacenter: 'east' });
    const own = decodeToken(await generate(a, 'b'));
    expect(own.ServerAddresses).toEqual([new URL(a.url).host]);
    expect(own.ServerName).toBe(a.listener.service.serverName);
    expect(own.PeerID).toBe((await readPeering(a, 'b'))['ID']);
    expect(own.Remote).toEqual({ Partition: 'default', Datacenter: 'east' });
    const res = await a.call('POST', '/v1/peering/token', {
      body: { PeerName: 'c', ServerExternalAddresses: ['lb.example:8503', '[::1]:8503'] },
    });
    expect(decodeToken((res.json() as { PeeringToken: string }).PeeringToken).ServerAddresses).toEqual([
      'lb.example:8503',
      '[::1]:8503',
    ]);
  });

  it.each([
    ['not base64', '!!!!', 'PeeringToken is not valid base64'],
    ['base64 of text', Buffer.from('hello world!').toString('base64'), 'does not decode to JSON'],
    ['JSON that is not a token', Buffer.from('{"a":1}').toString('base64'), 'ServerAddresses must be'],
    ['an array', Buffer.from('[]').toString('base64'), 'expected a JSON object'],
  ])('refuses a token that is %s with a 400 and stores nothing', async (_what, token, message) => {
    const b = await startTestMesh();
    const res = await b.call('POST', '/v1/peering/establish', {
      body: { PeerName: 'a', PeeringToken: token },
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain(message);
    expect((await b.call('GET', '/v1/peerings')).json()).toEqual([]);
  });

  it('refuses unreachable addresses within the time limit, naming each, and stores nothing', async () => {
    const b = await startTestMesh({ exchangeLimits: { perAddressMs: 300, totalMs: 600 } });
    const token = encodeToken({
      CA: null,
      // refused at once; a blackhole address that never answers; a third not tried in time
      ServerAddresses: ['127.0.0.1:1', '10.255.255.1:8503', '10.255.255.2:8503'],
      ServerName: 'server.x',
      PeerID: '00000000-0000-4000-8000-000000000000',
      EstablishmentSecret: 's',
      Remote: { Partition: 'default', Datacenter: 'dc9' },
    });
    const started = Date.now();
    const res = await b.call('POST', '/v1/peering/establish', {
      body: { PeerName: 'a', PeeringToken: token },
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/^Could not reach the peer cluster at the token's addresses: 127\.0\.0\.1:1: /);
    expect(res.text).toContain('10.255.255.1:8503');
    expect((await b.call('GET', '/v1/peerings')).json()).toEqual([]);
  });

  it('refuses an address that is not a mesh service', async () => {
    const other = await startTestMesh();
    const b = await startTestMesh();
    const token = encodeToken({
      ...decodeToken(await generate(other, 'x')),
      ServerAddresses: [`${new URL(b.url).hostname}:${new URL(b.url).port}`],
    });
    // b's own exchange endpoint does not know the peering ID
    const res = await b.call('POST', '/v1/peering/establish', {
      body: { PeerName: 'a', PeeringToken: token },
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('refused the establishment');
  });

  it('refuses a replayed secret, a rotated one, a forged one and the server’s own token', async () => {
    const a = await startTestMesh();
    const b = await startTestMesh();
    const c = await startTestMesh();
    const used = await peer(a, b, { onAcceptor: 'bee', onDialer: 'ay' });
    const replay = await c.call('POST', '/v1/peering/establish', {
      body: { PeerName: 'ay', PeeringToken: used },
    });
    expect(replay.status).toBe(400);
    expect(replay.text).toContain('The establishment secret is invalid, already used or rotated');
    const first = await generate(a, 'cee');
    const second = await generate(a, 'cee');
    const rotated = await c.call('POST', '/v1/peering/establish', {
      body: { PeerName: 'ay', PeeringToken: first },
    });
    expect(rotated.status).toBe(400);
    const forged = encodeToken({ ...decodeToken(second), EstablishmentSecret: 'guess' });
    expect(
      (await c.call('POST', '/v1/peering/establish', { body: { PeerName: 'ay', PeeringToken: forged } }))
        .status,
    ).toBe(400);
    expect((await c.call('GET', '/v1/peerings')).json()).toEqual([]);
    const own = await a.call('POST', '/v1/peering/establish', {
      body: { PeerName: 'self', PeeringToken: second },
    });
    expect(own.status).toBe(400);
    expect(own.text).toContain('generated by this same server');
    const ok = await c.call('POST', '/v1/peering/establish', {
      body: { PeerName: 'ay', PeeringToken: second },
    });
    expect(ok.status).toBe(200);
  });

  it('refuses a token for an ACTIVE name and an establishment under a name in use', async () => {
    const a = await startTestMesh();
    const b = await startTestMesh();
    await peer(a, b, { onAcceptor: 'bee', onDialer: 'ay' });
    await expect.poll(async () => (await readPeering(a, 'bee')).State).toBe('ACTIVE');
    const again = await a.call('POST', '/v1/peering/token', { body: { PeerName: 'bee' } });
    expect(again.status).toBe(400);
    expect(again.text).toContain('is ACTIVE');
    const token = await generate(a, 'other');
    const taken = await b.call('POST', '/v1/peering/establish', {
      body: { PeerName: 'ay', PeeringToken: token },
    });
    expect(taken.status).toBe(400);
    expect(taken.text).toContain('already exists');
    const dialerName = await b.call('POST', '/v1/peering/token', { body: { PeerName: 'ay' } });
    expect(dialerName.status).toBe(400);
  });
});

describe('the endpoints peers call', () => {
  it('refuse a garbage exchange, and a stream without the right secret before any upgrade', async () => {
    const a = await startTestMesh();
    const token = decodeToken(await generate(a, 'b'));
    expect((await a.call('POST', EXCHANGE_PATH, { body: '"x"' })).status).toBe(400);
    const wrong = await a.call('POST', EXCHANGE_PATH, {
      body: { PeerID: token.PeerID, EstablishmentSecret: 'no' },
    });
    expect(wrong.status).toBe(400);
    expect((await a.call('GET', STREAM_PATH)).status).toBe(404);
    const forbidden = await a.call('GET', STREAM_PATH, {
      headers: { [PEERING_ID_HEADER]: token.PeerID, authorization: 'Bearer guess' },
    });
    expect(forbidden.status).toBe(403);
  });

  it('disconnect a peer that floods the stream or sends oversized or unknown messages', async () => {
    // Arrange: play the dialing side by hand
    const a = await startTestMesh();
    const token = decodeToken(await generate(a, 'b'));
    const exchange = await a.call('POST', EXCHANGE_PATH, {
      body: {
        PeerID: token.PeerID,
        EstablishmentSecret: token.EstablishmentSecret,
        ID: '00000000-0000-4000-8000-000000000001',
        ServerName: 'fake',
        ServerAddresses: ['127.0.0.1:9'],
        Remote: { Partition: 'default', Datacenter: 'x' },
      },
    });
    const secret = (exchange.json() as { StreamSecret: string }).StreamSecret;
    const open = async (): Promise<WebSocket> => {
      const socket = new WebSocket(`${a.url.replace('http', 'ws')}${STREAM_PATH}`, {
        headers: { [PEERING_ID_HEADER]: token.PeerID, authorization: `Bearer ${secret}` },
      });
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      return socket;
    };
    const closed = (socket: WebSocket): Promise<number> =>
      new Promise((resolve) => socket.once('close', (code) => resolve(code)));
    // Act + Assert: a flood
    const flooder = await open();
    const flooded = closed(flooder);
    const heartbeat = JSON.stringify({ type: 'heartbeat' });
    for (let i = 0; i < 5000 && flooder.readyState === WebSocket.OPEN; i++) flooder.send(heartbeat);
    expect(await flooded).toBe(1008);
    expect((await readPeering(a, 'b')).State).toBe('ACTIVE');
    // an oversized message
    const big = await open();
    const bigClosed = closed(big);
    big.send('x'.repeat(128 * 1024));
    expect(await bigClosed).toBe(1009);
    // an unknown message
    const odd = await open();
    const oddClosed = closed(odd);
    odd.send('{"type":"gossip"}');
    expect(await oddClosed).toBe(1008);
  });
});
