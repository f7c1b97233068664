// Benchmark of the scheduling service's HTTP API (run after `pnpm --filter @sked/server build`):
//   node bench/run.mjs [--jobs 10000] [--duration 5] [--waiters 5000] [--rounds 200]
// Every figure is printed beside its target. Throughput figures are ratios against a trivial route
// of the same server (same fastify instance, conventions and hooks) that returns a prebuilt body
// of the same number of bytes, measured in the same run.
import { spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { request as httpRequest } from './http.mjs';
import { createHttpApp, sendJson, sendJsonText } from '../dist/http/app.js';
import { createAcl } from '../dist/scheduler/acl/index.js';
import { createCluster } from '../dist/scheduler/core/index.js';
import { registerSchedulerRoutes } from '../dist/scheduler/routes/index.js';

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '5' },
    waiters: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '200' },
    connections: { type: 'string', default: '10' },
  },
});
const JOBS = Number(values.jobs);
const DURATION = Number(values.duration);
const WAITERS = Number(values.waiters);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = Number(values.connections);
const FILTER = 'Meta.team == "alpha" or Meta.team == "beta"';

// --- the server -----------------------------------------------------------------------------
const cluster = createCluster({ region: 'global', datacenter: 'dc1', nodes: 3 });
const shutdown = new AbortController();
const app = createHttpApp();
app.addHook('preClose', (done) => {
  shutdown.abort();
  done();
});
registerSchedulerRoutes(app, {
  cluster,
  acl: createAcl(undefined),
  region: 'global',
  shutdown: shutdown.signal,
});
let trivialBody = '[]';
app.get('/bench/trivial', (request, reply) => sendJsonText(request, reply, trivialBody));
app.get('/bench/empty', (request, reply) => sendJson(request, reply, {}));
await app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${app.server.address().port}`;

const require = createRequire(import.meta.url);
const registerRequestFile = fileURLToPath(new URL('./register-request.cjs', import.meta.url));
const { jobBody } = require(registerRequestFile);

function run(options) {
  return new Promise((resolve, reject) => {
    // The load generator runs in a worker thread so that it does not share the server's event loop.
    autocannon({ connections: CONNECTIONS, pipelining: 1, workers: 1, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

const request = (method, path, body, agent) => httpRequest(`${base}${path}`, method, body, agent);

const rows = [];
const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

// --- 1. registrations per second ----------------------------------------------------------------
{
  const started = performance.now();
  const result = await run({
    url: base,
    amount: JOBS,
    requests: [
      {
        method: 'POST',
        path: '/v1/jobs',
        headers: { 'content-type': 'application/json' },
        setupRequest: registerRequestFile,
      },
    ],
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`registration failed: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const rate = JOBS / seconds;
  trivialBody = JSON.stringify({
    EvalID: '00000000-0000-0000-0000-000000000000',
    EvalCreateIndex: 1,
    JobModifyIndex: 1,
    Warnings: '',
    Index: 1,
    LastContact: 0,
    KnownLeader: true,
  });
  const baseline = await run({ url: `${base}/bench/trivial`, duration: DURATION });
  rows.push([
    'POST /v1/jobs (new job each time)',
    `${fmt(rate)} registrations/s`,
    `${fmt((rate / baseline.requests.average) * 100, 1)}% of trivial (${fmt(baseline.requests.average)} req/s)`,
    'reported (no target)',
  ]);
}

// --- 2. filtered list of 10,000 jobs --------------------------------------------------------------
{
  const path = `/v1/jobs?per_page=100&filter=${encodeURIComponent(FILTER)}`;
  const probe = await request('GET', path);
  if (probe.status !== 200) throw new Error(`list failed: ${probe.status} ${probe.body}`);
  const items = JSON.parse(probe.body);
  if (items.length !== 100) throw new Error(`expected 100 items, got ${items.length}`);
  trivialBody = probe.body;
  // Alternate the two routes so that load from elsewhere on the machine hits both alike.
  let listTotal = 0;
  let trivialTotal = 0;
  for (let round = 0; round < 3; round++) {
    trivialTotal += (await run({ url: `${base}/bench/trivial`, duration: DURATION })).requests.average;
    listTotal += (await run({ url: `${base}${path}`, duration: DURATION })).requests.average;
  }
  const list = { requests: { average: listTotal / 3 } };
  const trivial = { requests: { average: trivialTotal / 3 } };
  const ratio = list.requests.average / trivial.requests.average;
  rows.push([
    `GET ${path.replace(/filter=.*/, 'filter=…')} (${fmt(JOBS)} jobs, ${fmt(probe.body.length)} B)`,
    `${fmt(list.requests.average)} req/s vs ${fmt(trivial.requests.average)} req/s trivial`,
    `${fmt(ratio * 100, 1)}%`,
    `>= 50% ${ratio >= 0.5 ? 'PASS' : 'FAIL'}`,
  ]);
}

// --- 3. write -> blocking answer while thousands wait -----------------------------------------------
async function wakeLatencies(rounds) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const latencies = [];
  for (let round = 0; round < rounds; round++) {
    const index = cluster.store.jobs.watch.current;
    const waiting = cluster.store.jobs.watch.waiting;
    const answer = request('GET', `/v1/job/bench-000000?index=${index}&wait=1m`, undefined, agent);
    while (cluster.store.jobs.watch.waiting <= waiting) await new Promise((r) => setImmediate(r));
    const body = JSON.parse(jobBody(0));
    body.Job.Meta.round = String(round) + Math.random();
    const t0 = performance.now();
    const write = request('POST', '/v1/job/bench-000000', JSON.stringify(body), agent);
    const res = await answer;
    latencies.push(performance.now() - t0);
    await write;
    if (res.status !== 200 || Number(res.headers['x-svc-index']) <= index)
      throw new Error('blocking query did not see the write');
  }
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { p50: pct(50), p99: pct(99) };
}
{
  const quiet = await wakeLatencies(Math.min(50, ROUNDS));
  // The other waiters are held by a child process, so that their client side is not in this heap.
  const volumeIndex = cluster.store.volumes.watch.current;
  const child = spawn(
    process.execPath,
    [
      fileURLToPath(new URL('./waiters.mjs', import.meta.url)),
      `${base}/v1/volumes?type=csi&index=${volumeIndex}&wait=10m`,
      String(WAITERS),
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const childExit = new Promise((resolve) => child.on('exit', resolve));
  while (cluster.store.volumes.watch.waiting < WAITERS) await new Promise((r) => setTimeout(r, 20));
  const busy = await wakeLatencies(ROUNDS);
  rows.push([
    `write -> answer of a blocking GET /v1/job/:id (${fmt(WAITERS)} others waiting)`,
    `p50 ${fmt(busy.p50, 2)} ms, p99 ${fmt(busy.p99, 2)} ms`,
    `${fmt(busy.p99 / quiet.p99, 2)}x the p99 with no other waiter (${fmt(quiet.p99, 2)} ms)`,
    `p99 < 50 ms ${busy.p99 < 50 ? 'PASS' : 'FAIL'}`,
  ]);
  shutdown.abort();
  await childExit;
}

await app.close();
await cluster.close();

const load = os
  .loadavg()
  .map((n) => n.toFixed(1))
  .join(' ');
console.log(`Node ${process.version}, ${os.cpus().length} CPUs, load average at the end ${load}`);
console.log('');
console.log('| Measure | Result | Ratio | Target |');
console.log('|---|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
