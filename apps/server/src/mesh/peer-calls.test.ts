import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { readPeering, startTestMesh, type TestMesh } from '../../test/mesh.js';
import { sendEndless, startFakePeer } from '../../test/fake-peer.js';
import { EXCHANGE_PATH } from './dialer.js';
import { callPeer, MAX_PEER_ANSWER, PeerCallError } from './peer-http.js';

async function establish(
  mesh: TestMesh,
  name: string,
  token: string,
): Promise<{ status: number; text: string }> {
  return mesh.call('POST', '/v1/peering/establish', { body: { PeerName: name, PeeringToken: token } });
}

describe('what is read from a peer is bounded', () => {
  it('stops reading an endless answer at the limit and closes its connection', async () => {
    // Arrange
    const written = { bytes: 0 };
    const fake = await startFakePeer((_request, response) => sendEndless(response, written));
    // Act
    const call = callPeer({
      address: fake.address,
      method: 'POST',
      path: EXCHANGE_PATH,
      body: '{}',
      timeoutMs: 60_000,
      maxBytes: 1024 * 1024,
    });
    // Assert
    await expect(call).rejects.toMatchObject({
      reason: 'too-large',
      message: 'the answer is larger than 1048576 bytes; reading stopped there',
    });
    await fake.closed();
    // what the peer could write is the limit plus the kernel's socket buffers, not an endless stream
    expect(written.bytes).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses an answer that announces more than the limit without reading it', async () => {
    const fake = await startFakePeer((_request, response) => {
      response.writeHead(200, { 'content-length': String(MAX_PEER_ANSWER + 1) });
      response.write('{');
    });
    const error = await callPeer({
      address: fake.address,
      method: 'POST',
      path: '/',
      timeoutMs: 60_000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PeerCallError);
    expect((error as PeerCallError).reason).toBe('too-large');
    await fake.closed();
  });

  it('aborts an establishment whose exchange answer is endless with a 400 and stores nothing', async () => {
    // Arrange
    const written = { bytes: 0 };
    const fake = await startFakePeer((_request, response) => sendEndless(response, written));
    const b = await startTestMesh({ exchangeLimits: { perAddressMs: 60_000, totalMs: 60_000 } });
    // Act
    const res = await establish(b, 'a', fake.token());
    // Assert
    expect(res.status).toBe(400);
    expect(res.text).toBe(
      `Could not reach the peer cluster at the token's addresses: ${fake.address}: ` +
        `the answer is larger than ${MAX_PEER_ANSWER} bytes; reading stopped there`,
    );
    await fake.closed();
    expect(written.bytes).toBeLessThan(64 * 1024 * 1024);
    expect((await b.call('GET', '/v1/peerings')).json()).toEqual([]);
  });
});

describe('every call to a peer has a deadline and closes its connection', () => {
  it('closes the connection of an exchange that gets no answer in time', async () => {
    const fake = await startFakePeer(() => undefined);
    const b = await startTestMesh({ exchangeLimits: { perAddressMs: 300, totalMs: 600 } });
    const res = await establish(b, 'a', fake.token());
    expect(res).toMatchObject({ status: 400 });
    expect(res.text).toContain(`${fake.address}: no answer in time`);
    await fake.closed();
    expect(fake.open).toBe(0);
  });

  it('cancels the exchange and closes its connection when the client of establish goes away', async () => {
    // Arrange: a peer that never answers, limits far away
    const fake = await startFakePeer(() => undefined);
    const b = await startTestMesh({ exchangeLimits: { perAddressMs: 600_000, totalMs: 600_000 } });
    const client = new AbortController();
    const call = fetch(`${b.url}/v1/peering/establish`, {
      method: 'POST',
      body: JSON.stringify({ PeerName: 'a', PeeringToken: fake.token() }),
      signal: client.signal,
    }).catch((error: unknown) => error);
    await expect.poll(() => fake.requests.length).toBe(1);
    // Act
    client.abort();
    // Assert
    await call;
    await fake.closed();
    expect(fake.open).toBe(0);
    expect((await b.call('GET', '/v1/peerings')).json()).toEqual([]);
  });

  it('cancels the exchange when the server stops', async () => {
    const fake = await startFakePeer(() => undefined);
    const b = await startTestMesh({ exchangeLimits: { perAddressMs: 600_000, totalMs: 600_000 } });
    const call = establish(b, 'a', fake.token()).catch((error: unknown) => error);
    await expect.poll(() => fake.requests.length).toBe(1);
    await b.listener.close();
    await fake.closed();
    await call;
    expect(fake.open).toBe(0);
  });
  it('closes a stream connection whose WebSocket handshake is not answered', async () => {
    // Arrange: a peer that accepts the exchange, then never answers the stream's upgrade
    const fake = await startFakePeer((request, response) => {
      if (request.url === EXCHANGE_PATH) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ StreamSecret: 'stream-secret' }));
      }
    });
    fake.onUpgrade(() => undefined);
    const b = await startTestMesh();
    // Act
    expect((await establish(b, 'a', fake.token())).status).toBe(200);
    // Assert: the exchange's connection, then the first stream attempt's, closed by the handshake deadline
    await fake.closed(2);
    expect(fake.upgrades).toBeGreaterThanOrEqual(1);
    expect((await b.call('DELETE', '/v1/peering/a')).status).toBe(200);
  });
});

/** Ports fetch refuses (its "bad ports" list); the first free one is used. */
const BAD_PORTS = [6666, 6665, 6667, 6668, 6669, 6000, 6697, 10080];

async function freeBadPort(): Promise<number> {
  for (const port of BAD_PORTS) {
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      return port;
    }
  }
  throw new Error(`none of the ports ${BAD_PORTS.join(', ')} is free on 127.0.0.1`);
}

describe('peers on any port', () => {
  it('establishes, streams and deletes with a peer on a port of fetch’s block-list', async () => {
    // Arrange: the accepting side on 6666 (or the next free port fetch refuses)
    const port = await freeBadPort();
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow('fetch failed');
    await startTestMesh({ port });
    const b = await startTestMesh();
    const onA = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<string> =>
      (
        await callPeer({
          address: `127.0.0.1:${port}`,
          method,
          path,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          timeoutMs: 10_000,
        })
      ).text;
    const stateOnA = async (): Promise<unknown> =>
      (JSON.parse(await onA('GET', '/v1/peering/bee')) as { State?: string }).State;
    // Act
    const generated = JSON.parse(await onA('POST', '/v1/peering/token', { PeerName: 'bee' })) as {
      PeeringToken: string;
    };
    const res = await establish(b, 'ay', generated.PeeringToken);
    // Assert
    expect(res.status).toBe(200);
    await expect.poll(async () => (await readPeering(b, 'ay')).State).toBe('ACTIVE');
    await expect.poll(stateOnA).toBe('ACTIVE');
    expect((await readPeering(b, 'ay')).PeerServerAddresses).toEqual([`127.0.0.1:${port}`]);
    expect((await b.call('DELETE', '/v1/peering/ay')).status).toBe(200);
    await expect.poll(stateOnA).toBe('TERMINATED');
  });
});

describe('token generation and establishment of one name', () => {
  it('refuses a token for a name whose establishment is in flight, so no token is overwritten', async () => {
    // Arrange: a peer that holds the exchange until released
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fake = await startFakePeer((_request, response) => {
      void held.then(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ StreamSecret: 'stream-secret' }));
      });
    });
    const b = await startTestMesh({ exchangeLimits: { perAddressMs: 60_000, totalMs: 60_000 } });
    const establishing = establish(b, 'x', fake.token());
    await expect.poll(() => fake.requests.length).toBe(1);
    // Act
    const generated = await b.call('POST', '/v1/peering/token', { body: { PeerName: 'x' } });
    release();
    // Assert
    expect(generated.status).toBe(400);
    expect(generated.text).toContain('An establishment of "x" with a peer\'s token is in progress');
    expect((await establishing).status).toBe(200);
    expect((await readPeering(b, 'x')).PeerServerName).toBe('server.fake.peering.x.mesh');
  });

  it('keeps a token handed out valid when an establishment of the same name follows', async () => {
    const a = await startTestMesh();
    const b = await startTestMesh();
    const c = await startTestMesh();
    const generated = await b.call('POST', '/v1/peering/token', { body: { PeerName: 'x' } });
    const token = (generated.json() as { PeeringToken: string }).PeeringToken;
    const other = await a.call('POST', '/v1/peering/token', { body: { PeerName: 'bee' } });
    const late = await establish(b, 'x', (other.json() as { PeeringToken: string }).PeeringToken);
    expect(late.status).toBe(400);
    expect(late.text).toContain('already exists');
    expect((await establish(c, 'bee', token)).status).toBe(200);
    await expect.poll(async () => (await readPeering(b, 'x')).State).toBe('ACTIVE');
  });
});
