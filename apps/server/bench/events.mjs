// Benchmark of the event stream (run after `pnpm --filter @sked/server build`):
//   node bench/events.mjs [--subscribers 100] [--events 5000] [--memory-events 100000]
// 1. Events per second delivered to N subscribers over real HTTP connections (the readers run in a
//    child process), as a ratio against a baseline route of the same server that writes the same
//    bytes, pre-serialised and pre-joined into 64 KiB writes, to the same number of connections.
// 2. Server live heap (after GC, sampled every 10,000 events) while 100,000 events are written
//    with one subscriber that never reads, against the same run with no subscriber at all. Memory
//    must stay bounded: the broker drops the subscriber once its unread batches leave the buffer.
import { fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';

const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '100' },
    events: { type: 'string', default: '5000' },
    'memory-events': { type: 'string', default: '100000' },
    client: { type: 'boolean', default: false },
    url: { type: 'string', default: '' },
    lines: { type: 'string', default: '0' },
  },
});

// --- child: the readers -------------------------------------------------------------------------
if (values.client) {
  const count = Number(values.subscribers);
  const expected = Number(values.lines);
  const url = new URL(values.url);
  let ready = 0;
  let done = 0;
  for (let i = 0; i < count; i += 1) {
    let lines = 0;
    let open = false;
    const req = http.get(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, agent: false },
      (res) => {
        res.on('data', (chunk) => {
          for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lines += 1;
          if (!open && lines >= 1) {
            open = true;
            ready += 1;
            if (ready === count) process.send({ type: 'ready' });
          }
          if (lines === expected + 1) {
            done += 1;
            if (done === count)
              process.send({ type: 'done', at: performance.timeOrigin + performance.now() });
            req.destroy();
          }
        });
      },
    );
    req.on('error', () => undefined);
  }
  process.on('message', (message) => {
    if (message === 'exit') process.exit(0);
  });
} else {
  await main();
}

async function main() {
  const { createHttpApp } = await import('../dist/http/app.js');
  const { registerEventStreamRoute } = await import('../dist/scheduler/events/index.js');

  const SUBSCRIBERS = Number(values.subscribers);
  const EVENTS = Number(values.events);
  const MEMORY_EVENTS = Number(values['memory-events']);
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');

  /** An allocation-like event of about 700 bytes of JSON. */
  const event = (index) => ({
    Topic: 'Allocation',
    Type: 'AllocationUpdated',
    Key: `a1b2c3d4-0000-4000-8000-${String(index).padStart(12, '0')}`,
    Namespace: 'default',
    FilterKeys: ['web', `e1b2c3d4-0000-4000-8000-${String(index).padStart(12, '0')}`],
    Index: index,
    Payload: {
      Allocation: {
        ID: `a1b2c3d4-0000-4000-8000-${String(index).padStart(12, '0')}`,
        Name: 'web.group[0]',
        JobID: 'web',
        TaskGroup: 'group',
        NodeID: 'n1b2c3d4-0000-4000-8000-000000000001',
        DesiredStatus: 'run',
        ClientStatus: 'running',
        TaskStates: {
          task: {
            State: 'running',
            Failed: false,
            Restarts: 0,
            StartedAt: '2026-01-01T00:00:00Z',
            Events: [],
          },
        },
        Resources: { CPU: 100, MemoryMB: 64, DiskMB: 300, Networks: null },
        CreateIndex: index,
        ModifyIndex: index,
        CreateTime: 1767225600000000000,
        ModifyTime: 1767225600000000000,
      },
    },
  });

  // --- the server: fastify app, the real route and broker, a baseline route -------------------
  const feed = new EventEmitter();
  const cluster = {
    onEvents(listener) {
      feed.on('batch', listener);
      return () => feed.off('batch', listener);
    },
  };
  const app = createHttpApp();
  registerEventStreamRoute(app, {
    cluster,
    heartbeatMs: 60_000,
    buffer: { bufferSize: EVENTS + 10, maxBufferedEvents: EVENTS + 10 },
  });
  const go = new EventEmitter();
  go.setMaxListeners(0);
  let baselineLines = [];
  app.get('/bench/baseline', (request, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write('{}\n');
    go.once('go', () => {
      let i = 0;
      const pump = () => {
        while (i < baselineLines.length) {
          if (!res.write(baselineLines[i++])) {
            res.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${app.server.address().port}`;

  const runReaders = (path, start) =>
    new Promise((resolve, reject) => {
      const child = fork(fileURLToPath(import.meta.url), [
        '--client',
        '--url',
        `${base}${path}`,
        '--subscribers',
        String(SUBSCRIBERS),
        '--lines',
        String(EVENTS),
      ]);
      let t0 = 0;
      child.on('message', (message) => {
        if (message.type === 'ready') {
          t0 = performance.timeOrigin + performance.now();
          start();
        } else if (message.type === 'done') {
          child.send('exit');
          resolve(message.at - t0);
        }
      });
      child.on('error', reject);
    });

  // 1a. baseline: the same bytes, pre-serialised, written with backpressure
  // the same bytes the stream sends, pre-joined into 64 KiB writes (what the stream writer does)
  {
    const all = Array.from(
      { length: EVENTS },
      (_, i) => `${JSON.stringify({ Index: i + 1, Events: [event(i + 1)] })}\n`,
    );
    baselineLines = [];
    let chunk = '';
    for (const line of all) {
      chunk += line;
      if (chunk.length >= 64 * 1024) {
        baselineLines.push(chunk);
        chunk = '';
      }
    }
    if (chunk !== '') baselineLines.push(chunk);
  }
  const baselineMs = await runReaders('/bench/baseline', () => go.emit('go'));

  // 1b. the event stream: publish as fast as the loop allows, subscribers read from index 0
  let published = 0;
  const streamMs = await runReaders('/v1/event/stream?topic=Allocation', () => {
    const step = () => {
      const end = Math.min(EVENTS, published + 500);
      while (published < end) {
        published += 1;
        feed.emit('batch', { Index: published, Events: [event(published)] });
      }
      if (published < EVENTS) setImmediate(step);
    };
    step();
  });
  const delivered = SUBSCRIBERS * EVENTS;
  const streamRate = delivered / (streamMs / 1000);
  const baselineRate = delivered / (baselineMs / 1000);
  await app.close();

  // 2. memory: one subscriber that never reads, 100,000 events written, vs no subscriber
  const memoryRun = async (withReader) => {
    const memFeed = new EventEmitter();
    const memApp = createHttpApp();
    const memBroker = registerEventStreamRoute(memApp, {
      cluster: { onEvents: (l) => (memFeed.on('batch', l), () => memFeed.off('batch', l)) },
      heartbeatMs: 60_000,
    });
    await memApp.listen({ host: '127.0.0.1', port: 0 });
    const port = memApp.server.address().port;
    let socket;
    if (withReader) {
      socket = net.connect({ host: '127.0.0.1', port });
      socket.pause();
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write('GET /v1/event/stream HTTP/1.1\r\nHost: bench\r\n\r\n');
      while (memBroker.stats().subscribers === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    gc();
    const before = process.memoryUsage();
    let peakLive = before.heapUsed;
    let peakRss = before.rss;
    for (let i = 1; i <= MEMORY_EVENTS; i += 1) {
      memFeed.emit('batch', { Index: i, Events: [event(i)] });
      if (i % 1000 === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
      }
      if (i % 10_000 === 0) {
        // live heap: what the server holds, garbage of the generator excluded
        gc();
        peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
      }
    }
    gc();
    const after = process.memoryUsage();
    const stats = memBroker.stats();
    socket?.destroy();
    await memApp.close();
    return {
      peakLiveGrowth: (peakLive - before.heapUsed) / 2 ** 20,
      retainedHeap: (after.heapUsed - before.heapUsed) / 2 ** 20,
      peakRssGrowth: (peakRss - before.rss) / 2 ** 20,
      stats,
    };
  };
  const without = await memoryRun(false);
  const withSlow = await memoryRun(true);

  // --- report -------------------------------------------------------------------------------
  const mib = (n) => `${n.toFixed(1)} MiB`;
  const rows = [
    [
      `events/s delivered to ${SUBSCRIBERS} subscribers (${EVENTS} events each)`,
      `${Math.round(streamRate).toLocaleString('en')} /s`,
      '>= 100,000 /s',
      streamRate >= 100_000,
    ],
    [
      '  ratio to the baseline (same bytes, pre-serialised, 64 KiB writes)',
      `${(streamRate / baselineRate).toFixed(2)} (baseline ${Math.round(baselineRate).toLocaleString('en')} /s)`,
      '>= 0.50',
      streamRate / baselineRate >= 0.5,
    ],
    [
      `peak live heap growth, ${MEMORY_EVENTS.toLocaleString('en')} events, 1 subscriber never reading`,
      mib(withSlow.peakLiveGrowth),
      '<= 32 MiB',
      withSlow.peakLiveGrowth <= 32,
    ],
    ['  same without any subscriber (baseline)', mib(without.peakLiveGrowth), '-', true],
    [
      '  live heap after the run, never-reading minus none',
      mib(withSlow.retainedHeap - without.retainedHeap),
      '<= 8 MiB',
      withSlow.retainedHeap - without.retainedHeap <= 8,
    ],
    [
      '  batches kept in the buffer / subscribers dropped as too slow',
      `${withSlow.stats.bufferedBatches} / ${withSlow.stats.lagged}`,
      '<= 1024 / 1',
      withSlow.stats.bufferedBatches <= 1024 && withSlow.stats.lagged === 1,
    ],
    [
      '  peak RSS growth, never-reading vs none',
      `${mib(withSlow.peakRssGrowth)} vs ${mib(without.peakRssGrowth)}`,
      '-',
      true,
    ],
  ];
  const width = Math.max(...rows.map((row) => row[0].length));
  console.log('\nEvent stream benchmark (node bench/events.mjs)\n');
  for (const [name, value, target, ok] of rows) {
    console.log(
      `${name.padEnd(width)}  ${String(value).padEnd(34)}  target ${String(target).padEnd(20)} ${target === '-' ? '' : ok ? 'ok' : 'MISSED'}`,
    );
  }
  process.exit(0);
}
