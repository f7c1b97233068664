import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fc, test } from '@fast-check/vitest';
import { ApiError, createTransport, type FetchLike } from '@sked/http';
import { isEventOf, type Event } from '@sked/model';
import { afterEach, describe, expect, it } from 'vitest';

import { createClient } from './client.js';
import { InvalidRequestError } from './errors.js';
import { HeartbeatTimeoutError, streamEvents, type EventStreamReconnect } from './events.js';

function event(index: number, key = 'web'): Event {
  return {
    Topic: 'Job',
    Type: 'JobRegistered',
    Key: key,
    Namespace: 'default',
    FilterKeys: null,
    Index: index,
    Payload: { Job: { ID: key } },
  };
}

const line = (index: number): string => `${JSON.stringify({ Index: index, Events: [event(index)] })}\n`;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

/** A real HTTP server playing the event stream; `handle` gets each connection in turn. */
async function fakeServer(handle: (req: IncomingMessage, res: ServerResponse, attempt: number) => void) {
  const requests: URL[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(url);
    handle(req, res, requests.length);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { transport: createTransport({ address: `http://127.0.0.1:${port}`, env: false }), requests };
}

function openStream(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{}\n');
}

async function take<T>(iterable: AsyncIterable<T>, count: number): Promise<T[]> {
  const out: T[] = [];
  if (count === 0) return out;
  for await (const item of iterable) {
    out.push(item);
    if (out.length === count) break;
  }
  return out;
}

describe('streamEvents', () => {
  it('yields the events of each batch in order, hiding heartbeats, and sends the query', async () => {
    // Arrange
    const { transport, requests } = await fakeServer((_req, res) => {
      openStream(res);
      res.write(`{}\n${JSON.stringify({ Index: 4, Events: [event(4, 'a'), event(4, 'b')] })}\n{}\n`);
      res.write(line(5));
    });
    // Act
    const events = await take(
      streamEvents(transport, { topics: ['Job:a', 'Node'], namespace: '*', index: 4 }),
      3,
    );
    // Assert
    expect(events.map((e) => `${e.Index}:${e.Key}`)).toEqual(['4:a', '4:b', '5:web']);
    expect(requests[0]?.pathname).toBe('/v1/event/stream');
    expect(requests[0]?.searchParams.getAll('topic')).toEqual(['Job:a', 'Node']);
    expect(requests[0]?.searchParams.get('namespace')).toBe('*');
    expect(requests[0]?.searchParams.get('index')).toBe('4');
  });

  it('reconnects after a dropped connection from the last index + 1, skipping repeats', async () => {
    // Arrange: the first connection dies after batch 2; the second repeats batch 2 before 3
    const { transport, requests } = await fakeServer((_req, res, attempt) => {
      openStream(res);
      if (attempt === 1) {
        res.write(line(1) + line(2));
        setTimeout(() => res.destroy(), 20);
      } else {
        res.write(line(2) + line(3));
      }
    });
    const reconnects: EventStreamReconnect[] = [];
    // Act
    const events = await take(
      streamEvents(transport, { backoffMs: 1, onReconnect: (info) => reconnects.push(info) }),
      3,
    );
    // Assert
    expect(events.map((e) => e.Index)).toEqual([1, 2, 3]);
    expect(requests.map((url) => url.searchParams.get('index'))).toEqual(['0', '3']);
    expect(reconnects).toHaveLength(1);
    expect(reconnects[0]?.index).toBe(3);
  });

  it('yields events typed by topic, and an event of a topic it does not know unchanged', async () => {
    // Arrange: a job, a node and a topic this version does not type, in one batch
    const node: Event = { ...event(6, 'n1'), Topic: 'Node', Payload: { Node: { ID: 'n1', Name: 'dc1-a' } } };
    const volume: Event = { ...event(6, 'v1'), Topic: 'Volume', Payload: { Volume: { ID: 'v1' } } };
    const { transport } = await fakeServer((_req, res) => {
      openStream(res);
      res.write(`${JSON.stringify({ Index: 6, Events: [event(6, 'web'), node, volume] })}\n`);
    });
    // Act
    const read = await take(streamEvents(transport), 3);
    const described = read.map((e) => {
      if (e.Topic === 'Job') return `job ${e.Payload.Job.ID}`;
      if (e.Topic === 'Node') return `node ${e.Payload.Node.Name}`;
      return `other ${e.Topic}`;
    });
    // Assert
    expect(described).toEqual(['job web', 'node dc1-a', 'other Volume']);
    expect(read[2]).toEqual(volume);
    expect(read.map((e) => isEventOf(e, 'Node'))).toEqual([false, true, false]);
  });

  it('is available as client.events', async () => {
    const { transport } = await fakeServer((_req, res) => {
      openStream(res);
      res.write(line(9));
    });
    const { events } = createClient(transport);
    expect((await take(events({ topics: ['Job'] }), 1)).map((e) => e.Index)).toEqual([9]);
  });

  it('starts over when the server went back in time (a restart lost its state)', async () => {
    // Arrange: the first server life reaches index 50; after the drop, the index starts again
    const { transport } = await fakeServer((_req, res, attempt) => {
      if (attempt === 1) {
        res.writeHead(200, { 'content-type': 'application/json', 'x-svc-index': '50' });
        res.write(`{}\n${line(50)}`);
        setTimeout(() => res.destroy(), 20);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-svc-index': '3' });
      res.write(`{}\n${line(2)}${line(3)}`);
    });
    // Act
    const events = await take(streamEvents(transport, { backoffMs: 1 }), 3);
    // Assert
    expect(events.map((e) => e.Index)).toEqual([50, 2, 3]);
  });

  it('notices a silent connection by the missing heartbeats and replaces it', async () => {
    // Arrange: the first connection goes quiet without closing
    const { transport, requests } = await fakeServer((_req, res, attempt) => {
      openStream(res);
      res.write(attempt === 1 ? line(7) : line(8));
    });
    const errors: unknown[] = [];
    // Act
    const events = await take(
      streamEvents(transport, {
        heartbeatTimeout: 100,
        backoffMs: 1,
        onReconnect: (info) => errors.push(info.error),
      }),
      2,
    );
    // Assert
    expect(events.map((e) => e.Index)).toEqual([7, 8]);
    expect(requests.map((url) => url.searchParams.get('index'))).toEqual(['0', '8']);
    expect(HeartbeatTimeoutError.is(errors[0])).toBe(true);
    expect((errors[0] as Error).message).toBe(
      'The event stream sent nothing for 100 ms, so the connection is considered dead.',
    );
  });

  it('does not count the time the consumer spends on an event as silence', async () => {
    // Arrange: heartbeats every 30 ms keep the connection alive
    const { transport, requests } = await fakeServer((_req, res) => {
      openStream(res);
      res.write(line(1));
      const timer = setInterval(() => res.write('{}\n'), 30);
      const later = setTimeout(() => res.write(line(2)), 400);
      res.on('close', () => {
        clearInterval(timer);
        clearTimeout(later);
      });
    });
    // Act: a consumer slower than the heartbeat timeout
    const seen: number[] = [];
    for await (const event of streamEvents(transport, { heartbeatTimeout: 100, backoffMs: 1 })) {
      seen.push(event.Index);
      if (seen.length === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    // Assert
    expect(seen).toEqual([1, 2]);
    expect(requests).toHaveLength(1);
  });

  it('retries a 5xx answer and a refused connection', async () => {
    const { transport } = await fakeServer((_req, res, attempt) => {
      if (attempt === 1) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('internal server error: boom');
        return;
      }
      if (attempt === 2) {
        res.socket?.destroy();
        return;
      }
      openStream(res);
      res.write(line(1));
    });
    const events = await take(streamEvents(transport, { backoffMs: 1 }), 1);
    expect(events.map((e) => e.Index)).toEqual([1]);
  });

  it('throws a 403 at once, without retrying', async () => {
    const { transport, requests } = await fakeServer((_req, res) => {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('Permission denied');
    });
    const error = await take(streamEvents(transport, { topics: ['Node'] }), 1).catch(
      (caught: unknown) => caught,
    );
    expect(ApiError.is(error)).toBe(true);
    expect((error as ApiError).status).toBe(403);
    expect((error as ApiError).message).toContain('Permission denied');
    expect(requests).toHaveLength(1);
  });

  it('gives up after maxRetries consecutive failures with the last error', async () => {
    const { transport, requests } = await fakeServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('unavailable');
    });
    const error = await take(streamEvents(transport, { backoffMs: 1, maxRetries: 2 }), 1).catch(
      (caught: unknown) => caught,
    );
    expect((error as ApiError).status).toBe(503);
    expect(requests).toHaveLength(3);
  });

  it('stops on abort: the pending next() rejects with the reason and the connection closes', async () => {
    // Arrange
    let closed: Promise<void> = Promise.resolve();
    const { transport } = await fakeServer((req, res) => {
      closed = new Promise((resolve) => req.socket.once('close', () => resolve()));
      openStream(res);
    });
    const controller = new AbortController();
    const iterator = streamEvents(transport, { signal: controller.signal })[Symbol.asyncIterator]();
    // Act
    const pending = iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort(new Error('enough'));
    // Assert
    await expect(pending).rejects.toThrow('enough');
    await closed;
  });

  it('closes the connection when the consumer breaks out', async () => {
    let closed: Promise<void> = Promise.resolve();
    const { transport } = await fakeServer((req, res) => {
      closed = new Promise((resolve) => req.socket.once('close', () => resolve()));
      openStream(res);
      res.write(line(1));
    });
    expect((await take(streamEvents(transport), 1)).map((e) => e.Index)).toEqual([1]);
    await closed;
  });

  it.each([
    [{ index: -1 }, 'index', 'The event stream index must be a non-negative integer, but got -1.'],
    [{ index: 1.5 }, 'index', 'The event stream index must be a non-negative integer, but got 1.5.'],
    [
      { topics: ['Job:a:b'] },
      'topics',
      'The event stream topic "Job:a:b" is not of the form "Topic" or "Topic:key".',
    ],
    [{ topics: [''] }, 'topics', 'The event stream topic "" is not of the form "Topic" or "Topic:key".'],
    [
      { topics: 'Job' },
      'topics',
      'The event stream topics must be an array of "Topic" or "Topic:key" strings, but got "Job".',
    ],
    [
      { heartbeatTimeout: 0 },
      'heartbeatTimeout',
      'The heartbeat timeout must be a positive number of milliseconds, but got 0.',
    ],
  ])('rejects %j from the first next(), before any request', async (options, parameter, message) => {
    // Arrange: a fetch that records any call
    const calls: string[] = [];
    const transport = createTransport({
      address: 'http://127.0.0.1:1',
      env: false,
      fetch: (input) => {
        calls.push(input);
        return Promise.reject(new Error('unreachable'));
      },
    });
    // Act
    const iterable = streamEvents(transport, options as never);
    const error = await iterable[Symbol.asyncIterator]()
      .next()
      .catch((caught: unknown) => caught);
    // Assert
    expect(InvalidRequestError.is(error)).toBe(true);
    expect(error).toMatchObject({ message, parameter });
    expect(calls).toEqual([]);
  });
});

describe('properties', () => {
  /**
   * A fake fetch serving `batches` over several connections: each connection starts at the
   * requested index (inclusive, as the server does), may first repeat up to `repeat` earlier
   * batches, then sends `take` batches and drops.
   */
  function flakyFetch(batches: number[], plan: { take: number; repeat: number }[]): FetchLike {
    let connection = 0;
    return (input) => {
      const requested = Number(new URL(input).searchParams.get('index') ?? '0');
      const step = plan[Math.min(connection, plan.length - 1)] ?? { take: batches.length, repeat: 0 };
      connection += 1;
      const start = batches.findIndex((index) => index >= requested);
      const from = start < 0 ? batches.length : start;
      const last = connection > plan.length;
      const sent = [
        ...batches.slice(Math.max(0, from - step.repeat), from),
        ...batches.slice(from, last ? batches.length : from + step.take),
      ];
      const text = `{}\n${sent.map((index) => line(index)).join('')}`;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(text));
          if (last) return;
          controller.error(new TypeError('connection reset'));
        },
      });
      return Promise.resolve(
        new Response(body, { status: 200, headers: { 'content-type': 'application/json' } }),
      );
    };
  }

  test.prop(
    [
      fc
        .uniqueArray(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 40 })
        .map((values) => [...values].sort((a, b) => a - b)),
      fc.array(fc.record({ take: fc.nat({ max: 6 }), repeat: fc.nat({ max: 3 }) }), { maxLength: 8 }),
    ],
    { numRuns: 50 },
  )('yields every event exactly once, in order, however the connections drop', async (batches, plan) => {
    const transport = createTransport({
      address: 'http://sched.test',
      env: false,
      fetch: flakyFetch(batches, plan),
    });
    const events = await take(streamEvents(transport, { backoffMs: 0, maxBackoffMs: 0 }), batches.length);
    expect(events.map((e) => e.Index)).toEqual(batches);
  });
});
