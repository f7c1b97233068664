import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../http/app.js';
import { createAcl, parseAclConfig } from '../acl/index.js';
import { registerEventStreamRoute } from './route.js';
import type { EventBatch, StreamEvent } from './types.js';

/** A stand-in for the core's Cluster: just its `onEvents`. */
function fakeCluster() {
  const listeners = new Set<(batch: EventBatch) => void>();
  return {
    onEvents(listener: (batch: EventBatch) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(batch: EventBatch) {
      for (const listener of listeners) listener(batch);
    },
    get listeners() {
      return listeners.size;
    },
  };
}

function event(index: number, overrides: Partial<StreamEvent> = {}): StreamEvent {
  return {
    Topic: 'Job',
    Type: 'JobRegistered',
    Key: 'web',
    Namespace: 'default',
    FilterKeys: null,
    Index: index,
    Payload: { Job: { ID: 'web' } },
    ...overrides,
  };
}

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function start(
  options: { acl?: ReturnType<typeof createAcl>; heartbeatMs?: number; bufferSize?: number } = {},
) {
  const cluster = fakeCluster();
  const app = createHttpApp();
  const broker = registerEventStreamRoute(app, {
    cluster,
    ...(options.acl === undefined ? {} : { acl: options.acl }),
    heartbeatMs: options.heartbeatMs ?? 60_000,
    buffer: { bufferSize: options.bufferSize ?? 1024 },
  });
  apps.push(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return { app, cluster, broker, port: address.port };
}

interface Lines {
  response: IncomingMessage;
  /** Resolves with the next parsed line. */
  next(): Promise<unknown>;
  close(): void;
}

function open(port: number, path: string, headers: Record<string, string> = {}): Promise<Lines> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (response) => {
      const queue: unknown[] = [];
      const waiters: ((value: unknown) => void)[] = [];
      let rest = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        rest += chunk;
        let at = rest.indexOf('\n');
        while (at >= 0) {
          const value = JSON.parse(rest.slice(0, at)) as unknown;
          rest = rest.slice(at + 1);
          const waiter = waiters.shift();
          if (waiter === undefined) queue.push(value);
          else waiter(value);
          at = rest.indexOf('\n');
        }
      });
      resolve({
        response,
        next: () =>
          queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise((done) => waiters.push(done)),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

function text(port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string; type: string | undefined }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body, type: response.headers['content-type'] }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GET /v1/event/stream', () => {
  it('answers ndjson, uncompressed, with a heartbeat at once, the backlog and live batches', async () => {
    // Arrange
    const { cluster, port } = await start();
    cluster.emit({ Index: 5, Events: [event(5)] });
    // Act
    const stream = await open(port, '/v1/event/stream', { 'accept-encoding': 'gzip' });
    const heartbeat = await stream.next();
    const backlog = await stream.next();
    cluster.emit({ Index: 6, Events: [event(6, { Type: 'JobDeregistered' })] });
    const live = await stream.next();
    stream.close();
    // Assert
    expect(stream.response.statusCode).toBe(200);
    expect(stream.response.headers['content-type']).toBe('application/json');
    expect(stream.response.headers['content-encoding']).toBeUndefined();
    expect(heartbeat).toEqual({});
    expect(backlog).toEqual({ Index: 5, Events: [event(5)] });
    expect(live).toEqual({ Index: 6, Events: [event(6, { Type: 'JobDeregistered' })] });
  });

  it('sends heartbeats at the configured interval', async () => {
    const { port } = await start({ heartbeatMs: 50 });
    const stream = await open(port, '/v1/event/stream');
    const lines = [await stream.next(), await stream.next(), await stream.next()];
    stream.close();
    expect(lines).toEqual([{}, {}, {}]);
  });

  it('resumes at the given index, inclusive', async () => {
    const { cluster, port } = await start();
    for (const index of [3, 4, 7]) cluster.emit({ Index: index, Events: [event(index)] });
    const stream = await open(port, '/v1/event/stream?index=4');
    await stream.next();
    const first = (await stream.next()) as EventBatch;
    const second = (await stream.next()) as EventBatch;
    stream.close();
    expect([first.Index, second.Index]).toEqual([4, 7]);
  });

  it('filters by topic and filter key and by namespace', async () => {
    // Arrange
    const { cluster, port } = await start();
    cluster.emit({ Index: 1, Events: [event(1, { Key: 'db' })] });
    cluster.emit({ Index: 2, Events: [event(2, { Topic: 'Evaluation', Key: 'e1', FilterKeys: ['web'] })] });
    cluster.emit({ Index: 3, Events: [event(3, { Namespace: 'prod' })] });
    cluster.emit({ Index: 4, Events: [event(4)] });
    // Act
    const stream = await open(port, '/v1/event/stream?topic=Job:web&topic=Evaluation:web');
    await stream.next();
    const lines = [(await stream.next()) as EventBatch, (await stream.next()) as EventBatch];
    stream.close();
    // Assert
    expect(lines.map((b) => `${b.Index}:${b.Events[0]?.Topic}`)).toEqual(['2:Evaluation', '4:Job']);
  });

  it.each([
    ['/v1/event/stream?index=x', 'Invalid index'],
    ['/v1/event/stream?index=-1', 'Invalid index'],
    [
      '/v1/event/stream?topic=Job:a:b',
      'Invalid key value pair for topic "Job:a:b": expected Topic or Topic:key.',
    ],
    ['/v1/event/stream?topic=', 'Invalid topic "": the topic name is empty.'],
  ])('answers 400 to %s', async (path, message) => {
    const { port, broker } = await start();
    const answer = await text(port, path);
    expect(answer).toEqual({ status: 400, body: message, type: 'text/plain; charset=utf-8' });
    expect(broker.stats().subscribers).toBe(0);
  });

  describe('with ACL on', () => {
    const acl = createAcl(
      parseAclConfig({
        tokens: [
          { name: 'root', secret: 'root-secret', management: true },
          { name: 'reader', secret: 'reader-secret', namespaces: { default: ['read-job'] } },
          { name: 'everywhere', secret: 'every-secret', namespaces: { '*': ['read-job'] }, node: 'read' },
        ],
      }),
    );

    it.each([
      ['/v1/event/stream', {}, 'ACL token not found'],
      ['/v1/event/stream', { 'x-svc-token': 'nope' }, 'ACL token not found'],
      ['/v1/event/stream', { 'x-svc-token': 'reader-secret' }, 'Permission denied'],
      ['/v1/event/stream?topic=Node', { 'x-svc-token': 'reader-secret' }, 'Permission denied'],
      ['/v1/event/stream?topic=Job&namespace=prod', { 'x-svc-token': 'reader-secret' }, 'Permission denied'],
      ['/v1/event/stream?topic=Job&namespace=*', { 'x-svc-token': 'reader-secret' }, 'Permission denied'],
      ['/v1/event/stream?topic=ACLToken', { 'x-svc-token': 'every-secret' }, 'Permission denied'],
    ])('answers 403 to %s with %j before any byte of stream', async (path, headers, message) => {
      const { port } = await start({ acl });
      expect(await text(port, path, headers)).toEqual({
        status: 403,
        body: message,
        type: 'text/plain; charset=utf-8',
      });
    });

    it.each([
      ['/v1/event/stream?topic=Job:web&topic=Allocation', { 'x-svc-token': 'reader-secret' }],
      ['/v1/event/stream?topic=Job&namespace=*&topic=Node', { authorization: 'Bearer every-secret' }],
      ['/v1/event/stream', { 'x-svc-token': 'root-secret' }],
    ])('streams %s for %j', async (path, headers) => {
      const { port } = await start({ acl });
      const stream = await open(port, path, headers);
      const first = await stream.next();
      stream.close();
      expect(stream.response.statusCode).toBe(200);
      expect(first).toEqual({});
    });
  });

  it('disconnects a subscriber that never reads, keeping the buffer bounded', async () => {
    // Arrange: a raw socket that sends the request and then never reads
    const { cluster, port, broker } = await start({ bufferSize: 16 });
    const socket = connect({ host: '127.0.0.1', port });
    socket.pause();
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write('GET /v1/event/stream HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    while (broker.stats().subscribers === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    // Act: write far more than the socket buffers hold
    const payload = { blob: 'x'.repeat(64 * 1024) };
    let index = 0;
    while (broker.stats().lagged === 0 && index < 5000) {
      index += 1;
      cluster.emit({ Index: index, Events: [event(index, { Payload: payload })] });
      if (index % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    socket.resume();
    socket.on('data', () => undefined);
    await closed;
    // Assert
    expect(broker.stats()).toMatchObject({ lagged: 1, subscribers: 0 });
    expect(broker.stats().bufferedBatches).toBeLessThanOrEqual(16);
  });

  it('ends open streams when the app closes and stops listening to the cluster', async () => {
    const { app, cluster, port } = await start();
    const stream = await open(port, '/v1/event/stream');
    await stream.next();
    const ended = new Promise<void>((resolve) => stream.response.once('end', () => resolve()));
    await app.close();
    await ended;
    expect(cluster.listeners).toBe(0);
  });
});
