import { mkdtempSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDurable } from '../../durable/index.js';
import { startServer, type RunningServer } from '../../wiring/server.js';
import {
  BLOCKING_MARGIN_MS,
  forwardedHeaders,
  hopDeadline,
  HOP_HEADER,
  namedRegion,
  PLAIN_HOP_MS,
} from './forward.js';

describe('hopDeadline', () => {
  const at = (url: string) => hopDeadline(url, 60_000);
  it('gives a blocking query its whole wait, the wait/16 jitter and a margin', () => {
    expect(at('/v1/jobs?index=5&wait=10m').headersTimeout).toBe(
      Math.ceil(600_000 * (17 / 16)) + BLOCKING_MARGIN_MS,
    );
    expect(at('/v1/jobs?index=5').headersTimeout).toBe(Math.ceil(300_000 * (17 / 16)) + BLOCKING_MARGIN_MS);
    expect(at('/v1/jobs?index=5&wait=2s').headersTimeout).toBe(
      Math.ceil(2000 * (17 / 16)) + BLOCKING_MARGIN_MS,
    );
    // a wait the member refuses at once: the longest wait still bounds the hop
    expect(at('/v1/jobs?index=5&wait=soon').headersTimeout).toBe(
      Math.ceil(600_000 * (17 / 16)) + BLOCKING_MARGIN_MS,
    );
  });
  it('answers at once without an index, and bounds only the silence of the event stream', () => {
    const plain = { headersTimeout: PLAIN_HOP_MS, bodyTimeout: PLAIN_HOP_MS, immediate: true };
    expect(at('/v1/jobs')).toEqual(plain);
    expect(at('/v1/jobs?prefix=a&region=east')).toEqual(plain);
    expect(at('/v1/jobs?index=0&wait=10m')).toEqual(plain);
    expect(at('/v1/event/stream?index=9')).toEqual({
      headersTimeout: PLAIN_HOP_MS,
      bodyTimeout: 60_000,
      immediate: false,
    });
  });
  it('never takes a blocking query for a read answered at once (which may be pipelined)', () => {
    // an encoded key is decoded by the member's query parser: it blocks as well
    expect(at('/v1/jobs?ind%65x=5&wait=1m')).toMatchObject({ immediate: false });
    expect(at('/v1/jobs?index=5')).toMatchObject({ immediate: false, bodyTimeout: PLAIN_HOP_MS });
    expect(at('/v1/jobs?a=1&index=7&wait=1s')).toMatchObject({ immediate: false });
  });
});

describe('namedRegion', () => {
  it.each([
    ['/v1/jobs', undefined],
    ['/v1/jobs?prefix=a', undefined],
    ['/v1/jobs?region=east', 'east'],
    ['/v1/jobs?region=a&region=b', 'b'],
    ['/v1/jobs?region=e%61st', 'east'],
    ['/v1/jobs?region=', ''],
    ['/v1/jobs?subregion=east', undefined],
    ['/v1/jobs?region=__proto__', '__proto__'],
  ])('reads %j as %j', (url, region) => {
    expect(namedRegion(url)).toBe(region);
  });
});

describe('forwardedHeaders', () => {
  it('keeps the token and the encoding, drops the connection, Host and Origin, and sets the hop header', () => {
    const out = forwardedHeaders(
      {
        host: 'a:1',
        origin: 'http://a:1',
        connection: 'keep-alive, x-svc-token',
        'transfer-encoding': 'chunked',
        'x-svc-token': 's',
        authorization: 'Bearer s',
        'accept-encoding': 'gzip',
        [HOP_HEADER]: 'spoofed',
      },
      'west',
    );
    expect({ ...out }).toEqual({
      'x-svc-token': 's',
      authorization: 'Bearer s',
      'accept-encoding': 'gzip',
      [HOP_HEADER]: 'west',
    });
    expect(Object.getPrototypeOf(out)).toBeNull();
  });
});

describe('forwarding between two members in this process', () => {
  let west: RunningServer;
  let east: RunningServer;
  const dataDir = mkdtempSync(join(tmpdir(), 'sked-regions-'));

  beforeAll(async () => {
    east = await startServer({
      schedulerPort: 0,
      nodes: 1,
      region: 'east',
      maxBody: 4 * 1024 * 1024,
      demo: true,
    });
    west = await startServer({
      schedulerPort: 0,
      nodes: 1,
      region: 'west',
      maxBody: 4 * 1024 * 1024,
      join: [east.scheduler.url],
      dataDir,
    });
    await west.scheduler.regions.synced();
    await east.scheduler.regions.synced();
  });
  afterAll(async () => {
    await Promise.all([west.close(), east.close()]);
  });

  it('joins both ways and keeps the other member in the data dir', () => {
    expect(west.scheduler.regions.list()).toEqual(['east', 'west']);
    expect(east.scheduler.regions.list()).toEqual(['east', 'west']);
  });

  it('passes a gzip answer through untouched, and ?pretty', async () => {
    const via = await request(`${west.scheduler.url}/v1/agent/members?region=east&pretty`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(via.headers['content-encoding']).toBe('gzip');
    const body = gunzipSync(Buffer.from(await via.body.arrayBuffer())).toString('utf8');
    const direct = await (await fetch(`${east.scheduler.url}/v1/agent/members?pretty`)).text();
    expect(body).toContain('"ServerRegion": "east"');
    expect(body).toBe(direct);
    expect(body).toContain('\n    ');
  });

  it.each([
    ['with Content-Length', { 'content-type': 'application/json' }],
    ['chunked', {}],
  ])('refuses a body over the limit (%s) with the listener 413, nothing stored', async (_what, headers) => {
    const body = JSON.stringify({ Job: { ID: 'big', Meta: { pad: 'x'.repeat(5 * 1024 * 1024) } } });
    const answer = await request(`${west.scheduler.url}/v1/jobs?region=east`, {
      method: 'POST',
      headers,
      // without a length, undici sends the iterable chunked
      body:
        'content-type' in headers
          ? body
          : Readable.from([Buffer.from(body.slice(0, 2_000_000)), Buffer.from(body.slice(2_000_000))]),
    });
    expect([answer.statusCode, await answer.body.text()]).toEqual([
      413,
      'Request body is larger than the limit of 4194304 bytes',
    ]);
    expect((await fetch(`${east.scheduler.url}/v1/job/big`)).status).toBe(404);
  });

  it('streams the event stream with backpressure: a reader that reads nothing makes nothing pile up here', async () => {
    // Arrange: a forwarded stream whose reader reads nothing (its socket is never resumed), and
    // this member's response to it
    let response: ServerResponse | undefined;
    const capture = (request: IncomingMessage, res: ServerResponse): void => {
      if (request.url?.startsWith('/v1/event/stream') === true) response = res;
    };
    west.scheduler.app.server.on('request', capture);
    const socket = connect(Number(new URL(west.scheduler.url).port), '127.0.0.1');
    const index = east.scheduler.cluster.store.index + 1;
    socket.write(
      `GET /v1/event/stream?region=east&topic=Job&index=${index} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
    );
    // Act: 20 MB of job events on east (100 KB each, under east's per-reader queue), more than the
    // sockets' buffers between here and the reader hold
    const pad = 'x'.repeat(200 * 1024);
    let largest = 0;
    for (let i = 0; i < 100; i++) {
      const job = {
        Job: {
          ID: `bp-${i}`,
          Type: 'batch',
          Datacenters: ['dc1'],
          Meta: { pad },
          TaskGroups: [{ Name: 'g', Count: 0, Tasks: [{ Name: 't', Driver: 'mock', Config: {} }] }],
        },
      };
      await fetch(`${east.scheduler.url}/v1/jobs`, { method: 'POST', body: JSON.stringify(job) });
      largest = Math.max(largest, response?.writableLength ?? 0);
    }
    west.scheduler.app.server.removeListener('request', capture);
    socket.destroy();
    // Assert: this member wrote no more than the reader's socket took, plus a chunk (a member
    // that read on regardless would hold megabytes here)
    expect(response).toBeDefined();
    expect(largest).toBeLessThan(1024 * 1024);
  });

  it('refuses a foreign Host or Origin before forwarding', async () => {
    const host = await west.scheduler.app.inject({
      url: '/v1/jobs?region=east',
      headers: { host: 'evil.example' },
    });
    expect([host.statusCode, host.body]).toEqual([
      403,
      expect.stringMatching(/^Host "evil.example" is not allowed/),
    ]);
    const origin = await west.scheduler.app.inject({
      method: 'DELETE',
      url: '/v1/job/web?region=east&purge=true',
      headers: { origin: 'http://evil.example' },
    });
    expect(origin.statusCode).toBe(403);
    expect((await fetch(`${east.scheduler.url}/v1/job/web`)).status).toBe(200);
  });

  it('forwards a path with dot segments as it is (the member answers it as its own) and never an absolute-form target', async () => {
    for (const path of ['/v1/job/..%2F..%2Fetc%2Fpasswd', '/v1/../v1/jobs', '/v1/job/%2e%2e']) {
      const [via, direct] = await Promise.all([
        fetch(`${west.scheduler.url}${path}?region=east`),
        fetch(`${east.scheduler.url}${path}?region=east`),
      ]);
      expect([via.status, await via.text()]).toEqual([direct.status, await direct.text()]);
    }
    const port = Number(new URL(west.scheduler.url).port);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(
          'GET http://evil.example/v1/jobs?region=east HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
        ),
      );
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    // answered here, as without regions, never sent on to east
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\n\r\nNo path to region "east"$/);
  });

  it('never forwards a forwarded request again: a stale table is a 502 saying so, not a loop', async () => {
    const answer = await fetch(`${east.scheduler.url}/v1/jobs?region=west`, {
      headers: { [HOP_HEADER]: 'north' },
    });
    expect(answer.status).toBe(502);
    expect(await answer.text()).toBe(
      'Region "west" is not served by this member (it serves "east"): the forwarding member\'s membership is out of date',
    );
  });

  it('checks the membership exchange: hostile records named and refused, a foreign Origin refused, nothing merged', async () => {
    const self = { Region: 'south', Address: 'http://127.0.0.1:9', Datacenter: 'dc1', Name: 'x', Epoch: 1 };
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      east.scheduler.app.inject({
        method: 'POST',
        url: '/v1/internal/regions/sync',
        payload: JSON.stringify(body),
        headers,
      });
    const bad = await post({ Self: self, Members: [{ ...self, Region: '../x' }] });
    expect([bad.statusCode, bad.body]).toEqual([
      400,
      expect.stringMatching(/^Invalid membership exchange: Members\[0\]\.Region: a region name is/),
    ]);
    const address = await post({ Self: { ...self, Address: 'http://127.0.0.1:9/v1?x' }, Members: [] });
    expect(address.body).toMatch(/^Invalid membership exchange: Self: Address: a member address is/);
    const origin = await post({ Self: self, Members: [] }, { origin: 'http://evil.example' });
    expect(origin.statusCode).toBe(403);
    expect(east.scheduler.regions.list()).toEqual(['east', 'west']);
  });

  it('refuses a region name or a join address that cannot be used, from code too', async () => {
    await expect(startServer({ schedulerPort: 0, nodes: 0, region: '../x' })).rejects.toThrow(
      /^region: a region name is 1-128 letters/,
    );
    await expect(
      startServer({ schedulerPort: 0, nodes: 0, join: ['http://127.0.0.1:1/v1'] }),
    ).rejects.toThrow(/^join: a member address is the scheduling address of another sked-server/);
  });

  it('keeps the members in the data dir', async () => {
    await west.close();
    const durable = openDurable(dataDir);
    try {
      expect(durable.regions.load()).toEqual([
        expect.objectContaining({ Region: 'east', Address: east.scheduler.url }),
      ]);
    } finally {
      durable.close();
    }
  });
});
