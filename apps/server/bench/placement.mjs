// Benchmark of placing one large job (run after `pnpm --filter @sked/server build`):
//   node bench/placement.mjs [--sizes 500,1000,2000] [--nodes 6] [--settle 60]
// For each size, a fresh server on a real HTTP listener registers one service job of that many
// task groups (Count 1 each, 10 MHz / 10 MB a task, so every allocation fits on the nodes) and
// waits until it is placed and healthy. Meanwhile an interval probe measures the event loop's
// longest stall, and `GET /v1/status/leader` is asked every 20 ms (its slowest answer is printed
// too). The figure is the stall, beside the 100 ms target, and as a ratio against the stall of a
// one-group job placed by the same server build in the same run (the baseline).
import { parseArgs } from 'node:util';
import { request as httpRequest } from './http.mjs';
import { createHttpApp } from '../dist/http/app.js';
import { createAcl } from '../dist/scheduler/acl/index.js';
import { createCluster } from '../dist/scheduler/core/index.js';
import { registerSchedulerRoutes } from '../dist/scheduler/routes/index.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '500,1000,2000' },
    nodes: { type: 'string', default: '6' },
    settle: { type: 'string', default: '60' },
  },
});
const SIZES = values.sizes.split(',').map(Number);
const NODES = Number(values.nodes);
const SETTLE_MS = Number(values.settle) * 1000;
const TARGET_MS = 100;

function jobBody(groups) {
  return JSON.stringify({
    Job: {
      ID: `big-${groups}`,
      Name: `big-${groups}`,
      Type: 'service',
      Datacenters: ['dc1'],
      TaskGroups: Array.from({ length: groups }, (_, i) => ({
        Name: `group-${i}`,
        Count: 1,
        Tasks: [
          {
            Name: 'server',
            Driver: 'mock',
            Config: { run_for: '1h' },
            Resources: { CPU: 10, MemoryMB: 10 },
          },
        ],
      })),
    },
  });
}

/** Places one job of `groups` groups on a fresh server; the longest stall and slowest leader read. */
async function place(groups) {
  const cluster = createCluster({ region: 'global', datacenter: 'dc1', nodes: NODES });
  const shutdown = new AbortController();
  const app = createHttpApp();
  registerSchedulerRoutes(app, {
    cluster,
    acl: createAcl(undefined),
    region: 'global',
    shutdown: shutdown.signal,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${app.server.address().port}`;
  const body = jobBody(groups);
  let stall = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 1);
  let slowestLeader = 0;
  let reading = true;
  const leaderReads = (async () => {
    while (reading) {
      const started = performance.now();
      await httpRequest(`${base}/v1/status/leader`, 'GET');
      slowestLeader = Math.max(slowestLeader, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const started = performance.now();
  const res = await httpRequest(`${base}/v1/jobs`, 'POST', body);
  if (res.status !== 200) throw new Error(`register failed: ${res.status} ${res.body.slice(0, 200)}`);
  const id = `big-${groups}`;
  let settledAt = 0;
  while (performance.now() - started < SETTLE_MS) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const allocs = cluster.store.ofJob('allocs', 'default', id);
    const evals = cluster.store.ofJob('evals', 'default', id);
    const healthy = allocs.filter((a) => a.DeploymentStatus?.Healthy === true).length;
    if (healthy >= groups && !evals.some((e) => e.Status === 'pending')) {
      settledAt = performance.now();
      break;
    }
  }
  reading = false;
  await leaderReads;
  clearInterval(probe);
  const evals = cluster.store.ofJob('evals', 'default', id).length;
  const allocs = cluster.store.ofJob('allocs', 'default', id).length;
  shutdown.abort();
  await app.close();
  await cluster.close();
  return {
    stall,
    slowestLeader,
    evals,
    allocs,
    seconds: settledAt > 0 ? (settledAt - started) / 1000 : undefined,
    bytes: body.length,
  };
}

const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const baseline = await place(1);
console.log(
  `\nPlacing one job (${NODES} nodes); baseline: a 1-group job stalls the event loop ${fmt(baseline.stall, 1)} ms\n`,
);
const rows = [
  [
    'Job',
    'Longest stall',
    'Target',
    'Stall / target',
    'Stall / baseline',
    'Slowest leader read',
    'Evaluations',
    'Placed and healthy in',
  ],
];
let failed = false;
for (const size of SIZES) {
  const r = await place(size);
  if (r.stall >= TARGET_MS) failed = true;
  rows.push([
    `${fmt(size)} groups (${fmt(r.bytes / 1024)} KiB)`,
    `${fmt(r.stall, 1)} ms`,
    `< ${TARGET_MS} ms`,
    fmt(r.stall / TARGET_MS, 2),
    fmt(r.stall / Math.max(1, baseline.stall), 1),
    `${fmt(r.slowestLeader, 1)} ms`,
    `${r.evals} (${r.allocs} allocations)`,
    r.seconds === undefined ? `not within ${SETTLE_MS / 1000} s` : `${fmt(r.seconds, 1)} s`,
  ]);
}
const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => String(row[c]).length)));
for (const row of rows) console.log(row.map((cell, c) => String(cell).padEnd(widths[c])).join('  '));
console.log(failed ? '\nTarget missed at some size (see above).' : '\nTarget met at every size.');
