import { createServer as createTcpServer, connect, type Server as TcpServer, type Socket } from 'node:net';
import { ensureAptPackages } from '@sked/testkit/apt';
import type { Event } from '@sked/model';
import {
  createClient,
  ExecError,
  HeartbeatTimeoutError,
  type JobInput,
  type SchedulerClient,
} from '@sked/scheduler-client';
import { startServer, type RunningServer } from '@sked/server';
import { makeJob } from '@sked/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The client's event stream and exec against the real sample server (startServer), through a TCP
 * proxy that can cut or freeze connections to play a flaky network.
 */

/** A TCP proxy to `port`; `cut()` resets every open connection, `freeze()` stops relaying without closing. */
async function startProxy(port: number) {
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let frozen = false;
  const server: TcpServer = createTcpServer((client) => {
    const upstream = connect({ host: '127.0.0.1', port });
    const pair = { client, upstream };
    pairs.add(pair);
    client.on('data', (chunk) => {
      if (!frozen) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!frozen) client.write(chunk);
    });
    const end = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no proxy address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    /** Resets every connection open now. */
    cut(): void {
      for (const { client, upstream } of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
    },
    /** Stops relaying bytes on every connection (new ones included) until `thaw`. */
    freeze(): void {
      frozen = true;
    },
    thaw(): void {
      frozen = false;
    },
    /** Connections open now. */
    get open(): number {
      return pairs.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const { client, upstream } of pairs) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

const serviceJob = (id: string, count = 1): JobInput => makeJob({ ID: id, group: { Count: count } });

/** Reads events until `done` holds for what was read (fails after `timeoutMs`). */
async function readUntil(
  events: (signal: AbortSignal) => AsyncIterable<Event>,
  done: (read: Event[]) => boolean,
  timeoutMs = 10_000,
): Promise<Event[]> {
  const read: Event[] = [];
  const signal = AbortSignal.timeout(timeoutMs);
  for await (const event of events(signal)) {
    read.push(event);
    if (done(read)) break;
  }
  return read;
}

const signature = (e: Event): string => `${e.Index}/${e.Topic}/${e.Type}/${e.Key}`;
const about = (e: Event, id: string): boolean => e.Key === id || (e.FilterKeys ?? []).includes(id);

describe('event stream: client against the server', () => {
  let server: RunningServer;
  let client: SchedulerClient;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let viaProxy: SchedulerClient;

  beforeAll(async () => {
    server = await startServer({ bind: '127.0.0.1', schedulerPort: 0, nodes: 2, heartbeatMs: 100 });
    client = createClient({ address: server.scheduler.url, env: false });
    proxy = await startProxy(Number(new URL(server.scheduler.url).port));
    viaProxy = createClient({ address: proxy.url, env: false });
  });
  afterAll(async () => {
    await proxy.close();
    await server.close();
  });

  it('receives JobRegistered, EvaluationUpdated and AllocationCreated of a registration in index order', async () => {
    // Arrange
    const reading = readUntil(
      (signal) => client.events({ topics: ['Job', 'Evaluation', 'Allocation'], signal }),
      (read) => read.some((e) => e.Type === 'AllocationCreated' && about(e, 'ee-order')),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Act
    await client.jobs.create(serviceJob('ee-order'));
    const read = (await reading).filter((e) => about(e, 'ee-order'));
    // Assert
    const types = read.map((e) => e.Type);
    expect(types.indexOf('JobRegistered')).toBeGreaterThanOrEqual(0);
    expect(types.indexOf('JobRegistered')).toBeLessThan(types.indexOf('EvaluationUpdated'));
    expect(types.indexOf('EvaluationUpdated')).toBeLessThan(types.indexOf('AllocationCreated'));
    const indexes = read.map((e) => e.Index);
    expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
  });

  it('resumes after the connection is cut mid-stream, losing and repeating nothing', async () => {
    // Arrange: a reader through the proxy, and writes that keep coming while it is cut
    const first = (await client.jobs.create(serviceJob('ee-resume-0'))).meta.index ?? 0;
    const reconnects: unknown[] = [];
    const lastId = 'ee-resume-5';
    const reading = readUntil(
      (signal) =>
        viaProxy.events({
          index: first,
          topics: ['Job', 'Evaluation', 'Allocation'],
          signal,
          backoffMs: 20,
          onReconnect: (info) => reconnects.push(info.error),
        }),
      (read) => read.some((e) => e.Type === 'AllocationCreated' && about(e, lastId)),
    );
    // Act
    for (let i = 1; i <= 5; i += 1) {
      await client.jobs.create(serviceJob(`ee-resume-${i}`));
      await new Promise((resolve) => setTimeout(resolve, 60));
      if (i === 2 || i === 4) proxy.cut();
    }
    const read = await reading;
    // Assert: the same as one uninterrupted read of the same range, straight from the server
    const end = Math.max(...read.map((e) => e.Index));
    const reference = await readUntil(
      (signal) => client.events({ index: first, topics: ['Job', 'Evaluation', 'Allocation'], signal }),
      (all) => all.some((e) => e.Index >= end),
    );
    expect(reconnects.length).toBeGreaterThanOrEqual(2);
    expect(read.map(signature)).toEqual(reference.filter((e) => e.Index <= end).map(signature));
    expect(new Set(read.map(signature)).size).toBe(read.length);
  });

  it('notices a frozen connection by the missing heartbeats and resumes on a new one', async () => {
    // Arrange
    const reasons: unknown[] = [];
    const start = (await client.jobs.create(serviceJob('ee-frozen-a'))).meta.index ?? 0;
    const reading = readUntil(
      (signal) =>
        viaProxy.events({
          index: start,
          topics: ['Job'],
          heartbeatTimeout: 400,
          backoffMs: 20,
          signal,
          onReconnect: (info) => {
            reasons.push(info.error);
            proxy.thaw();
          },
        }),
      (read) => read.some((e) => e.Key === 'ee-frozen-b'),
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    // Act: the connection goes silent without closing, and a write happens meanwhile
    proxy.freeze();
    await client.jobs.create(serviceJob('ee-frozen-b'));
    const read = await reading;
    // Assert
    expect(HeartbeatTimeoutError.is(reasons[0])).toBe(true);
    expect(new Set(read.map((e) => e.Key))).toEqual(new Set(['ee-frozen-a', 'ee-frozen-b']));
    expect(new Set(read.map(signature)).size).toBe(read.length);
  });

  it('filters by topic and filter key', async () => {
    // Arrange
    const start = (await client.jobs.create(serviceJob('ee-filter-other'))).meta.index ?? 0;
    const onlyJob = readUntil(
      (signal) => client.events({ index: start, topics: ['Job:ee-filter-mine'], signal }),
      (read) => read.some((e) => e.Type === 'JobRegistered'),
    );
    const onlyAllocs = readUntil(
      (signal) => client.events({ index: start, topics: ['Allocation:ee-filter-mine'], signal }),
      (read) => read.some((e) => e.Type === 'AllocationCreated'),
    );
    // Act
    await client.jobs.create(serviceJob('ee-filter-mine'));
    // Assert
    expect((await onlyJob).every((e) => e.Topic === 'Job' && e.Key === 'ee-filter-mine')).toBe(true);
    expect((await onlyAllocs).every((e) => e.Topic === 'Allocation' && about(e, 'ee-filter-mine'))).toBe(
      true,
    );
  });

  it('stops on abort', async () => {
    const controller = new AbortController();
    const iterator = client
      .events({ topics: ['Node'], index: 1_000_000_000, signal: controller.signal })
      [Symbol.asyncIterator]();
    const pending = iterator.next();
    setTimeout(() => controller.abort(new Error('done watching')), 100);
    await expect(pending).rejects.toThrow('done watching');
  });
});

describe('exec: client against the server', () => {
  let server: RunningServer;
  let client: SchedulerClient;
  let allocId: string;

  beforeAll(async () => {
    server = await startServer({ bind: '127.0.0.1', schedulerPort: 0, nodes: 1, enableRawExec: true });
    client = createClient({ address: server.scheduler.url, env: false });
    await client.jobs.create(
      makeJob({
        ID: 'ee-exec',
        group: { Name: 'group' },
        task: { Name: 'worker', Driver: 'raw_exec', Config: { command: 'sleep', args: ['300'] } },
      }),
    );
    const signal = AbortSignal.timeout(10_000);
    for await (const { data } of client.jobs.allocations.watch('ee-exec', { signal })) {
      const running = data.find((a) => a.ClientStatus === 'running');
      if (running !== undefined) {
        allocId = running.ID;
        break;
      }
    }
  });
  afterAll(async () => {
    await server.close();
  });

  async function output(iterable: AsyncIterable<Uint8Array>): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of iterable) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks).toString('utf8');
  }

  it('runs echo and returns its output and exit code 0', async () => {
    const session = client.exec(allocId, 'worker', ['echo', 'hello']);
    expect(await output(session.stdout)).toBe('hello\n');
    expect(await session.exitCode).toBe(0);
  });

  it("returns 3 for sh -c 'exit 3'", async () => {
    expect(await client.exec(allocId, 'worker', ['sh', '-c', 'exit 3']).exitCode).toBe(3);
  });

  it('pipes stdin to the command and stderr back apart', async () => {
    const session = client.exec(allocId, 'worker', ['sh', '-c', 'cat; echo done >&2']);
    session.write('over the wire\n');
    session.closeStdin();
    const [out, err] = await Promise.all([output(session.stdout), output(session.stderr)]);
    expect(out).toBe('over the wire\n');
    expect(err).toBe('done\n');
    expect(await session.exitCode).toBe(0);
  });

  it('runs a tty session sized at start and resized later', async () => {
    // Arrange
    const session = client.exec(allocId, 'worker', ['sh', '-c', 'read a; stty size; read b; stty size'], {
      tty: true,
      size: { width: 100, height: 40 },
    });
    let seen = '';
    const reading = (async () => {
      for await (const chunk of session.stdout) seen += Buffer.from(chunk).toString('utf8');
    })();
    // Act
    session.write('\r');
    while (!seen.includes('40 100')) await new Promise((resolve) => setTimeout(resolve, 10));
    session.resize(132, 50);
    session.write('\r');
    await reading;
    // Assert
    expect(seen).toContain('50 132');
    expect(await session.exitCode).toBe(0);
  });

  it('rejects the exit code with a clear error for an unknown task', async () => {
    const error = await client.exec(allocId, 'nope', ['true']).exitCode.catch((caught: unknown) => caught);
    expect(ExecError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: 1008, reason: `task "nope" not found in allocation ${allocId}` });
  });
});

describe('exec with ACLs on: token by header or by handshake', () => {
  let server: RunningServer;
  let allocId: string;

  beforeAll(async () => {
    // exec into a mock task with alloc-exec alone runs in the server's sandbox (bubblewrap);
    // without it, such an exec would need alloc-node-exec
    await ensureAptPackages({ name: 'bubblewrap', packages: ['bubblewrap'], paths: ['/usr/bin/bwrap'] });
    server = await startServer({
      bind: '127.0.0.1',
      schedulerPort: 0,
      nodes: 1,
      aclConfig: {
        tokens: [
          { name: 'root', secret: 'root-secret', management: true },
          { name: 'exec', secret: 'exec-secret', namespaces: { default: ['alloc-exec', 'read-job'] } },
        ],
      },
    });
    const root = createClient({ address: server.scheduler.url, token: 'root-secret', env: false });
    await root.jobs.create(serviceJob('ee-acl'));
    const signal = AbortSignal.timeout(10_000);
    for await (const { data } of root.jobs.allocations.watch('ee-acl', { signal })) {
      const running = data.find((a) => a.ClientStatus === 'running');
      if (running !== undefined) {
        allocId = running.ID;
        break;
      }
    }
  }, 900_000);
  afterAll(async () => {
    await server.close();
  });

  it.each([false, true])('runs with the token (wsHandshake: %s)', async (wsHandshake) => {
    const client = createClient({ address: server.scheduler.url, token: 'exec-secret', env: false });
    expect(await client.exec(allocId, 'server', ['true'], { wsHandshake }).exitCode).toBe(0);
  });

  it('refuses a session without a token with 1008 ACL token not found', async () => {
    const client = createClient({ address: server.scheduler.url, env: false });
    await expect(client.exec(allocId, 'server', ['true']).exitCode).rejects.toMatchObject({
      code: 1008,
      reason: 'ACL token not found',
    });
  });

  it('refuses an event stream of every topic to a token without management, with 403', async () => {
    const client = createClient({ address: server.scheduler.url, token: 'exec-secret', env: false });
    const error = await readUntil(
      (signal) => client.events({ signal }),
      () => true,
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 403 });
  });
});
