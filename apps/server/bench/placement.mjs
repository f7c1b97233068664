// Benchmark of placing one large job (run after `pnpm --filter @sked/server build`):
//   node bench/placement.mjs [--sizes 500,1000,2000] [--nodes 6] [--settle 60] [--dist DIR]
// For each size, a fresh server on a real HTTP listener registers one service job of that many
// task groups (Count 1 each, 10 MHz / 10 MB a task, so every allocation fits on the nodes) and
// waits until it is placed and healthy. Meanwhile a 1 ms interval probe measures the event loop's
// longest stall, and `GET /v1/status/leader` is asked every 20 ms (its slowest answer is printed
// too). Each stall is measured twice:
//   - on-CPU: the main thread's CPU time between two probe ticks (process.threadCpuUsage), the
//     work the server did without yielding to the event loop. This is what the server's code
//     decides, and what the 100 ms target is judged on;
//   - wall clock: what a client saw, which adds the time the operating system ran other processes
//     (on the shared 2-core machine under load, or under `nice`, that alone reaches hundreds of ms).
// Both are printed beside the target and as a ratio against the stall of a one-group job placed
// by the same server build in the same run (the baseline), with the load average. The CPU time the
// whole placement took, per group, shows how the cost grows with the job's size (linear: flat).
// `--dist DIR` runs another build of the server (a copy of `dist/`), for before/after comparisons.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { makeWideJob } from '@sked/testkit';
import { request as httpRequest } from './http.mjs';
import { schedulerApp } from './support.mjs';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '500,1000,2000' },
    nodes: { type: 'string', default: '6' },
    settle: { type: 'string', default: '60' },
    dist: { type: 'string', default: new URL('../dist', import.meta.url).pathname },
  },
});
const SIZES = values.sizes.split(',').map(Number);
const NODES = Number(values.nodes);
const SETTLE_MS = Number(values.settle) * 1000;
const TARGET_MS = 100;

const cpuMs = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};

/** Places one job of `groups` groups on a fresh server; the longest stalls and slowest leader read. */
async function place(groups) {
  const server = await schedulerApp(values.dist, NODES);
  const { app, cluster } = server;
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${app.server.address().port}`;
  const id = `big-${groups}`;
  const body = JSON.stringify({ Job: makeWideJob(id, groups) });
  let wallStall = 0;
  let cpuStall = 0;
  let last = performance.now();
  let lastCpu = cpuMs();
  const probe = setInterval(() => {
    const now = performance.now();
    const cpu = cpuMs();
    wallStall = Math.max(wallStall, now - last);
    cpuStall = Math.max(cpuStall, cpu - lastCpu);
    last = now;
    lastCpu = cpu;
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
  const cpuStarted = cpuMs();
  const res = await httpRequest(`${base}/v1/jobs`, 'POST', body);
  if (res.status !== 200) throw new Error(`register failed: ${res.status} ${res.body.slice(0, 200)}`);
  let settledAt = 0;
  let cpu = 0;
  while (performance.now() - started < SETTLE_MS) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const allocs = cluster.store.ofJob('allocs', 'default', id);
    const evals = cluster.store.ofJob('evals', 'default', id);
    const healthy = allocs.filter((a) => a.DeploymentStatus?.Healthy === true).length;
    if (healthy >= groups && !evals.some((e) => e.Status === 'pending')) {
      settledAt = performance.now();
      cpu = cpuMs() - cpuStarted;
      break;
    }
  }
  reading = false;
  await leaderReads;
  clearInterval(probe);
  const evals = cluster.store.ofJob('evals', 'default', id).length;
  const allocs = cluster.store.ofJob('allocs', 'default', id).length;
  await server.close();
  return {
    wallStall,
    cpuStall,
    slowestLeader,
    evals,
    allocs,
    seconds: settledAt > 0 ? (settledAt - started) / 1000 : undefined,
    cpuPerGroup: settledAt > 0 ? cpu / groups : undefined,
    bytes: body.length,
  };
}

const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const load = loadavg()[0];
const baseline = await place(1);
console.log(
  `\nPlacing one job (${NODES} nodes, load average ${fmt(load, 1)}); baseline: a 1-group job stalls the event loop ` +
    `${fmt(baseline.cpuStall, 1)} ms on-CPU, ${fmt(baseline.wallStall, 1)} ms wall clock\n`,
);
const rows = [
  [
    'Job',
    'Longest stall on-CPU',
    'Target',
    'On-CPU / target',
    'On-CPU / baseline',
    'Longest stall wall clock',
    'Wall / target',
    'Slowest leader read',
    'Evaluations',
    'CPU per group',
    'Placed and healthy in',
  ],
];
let cpuMissed = false;
let wallMissed = false;
for (const size of SIZES) {
  const r = await place(size);
  if (r.cpuStall >= TARGET_MS) cpuMissed = true;
  if (r.wallStall >= TARGET_MS) wallMissed = true;
  rows.push([
    `${fmt(size)} groups (${fmt(r.bytes / 1024)} KiB)`,
    `${fmt(r.cpuStall, 1)} ms`,
    `< ${TARGET_MS} ms`,
    fmt(r.cpuStall / TARGET_MS, 2),
    fmt(r.cpuStall / Math.max(1, baseline.cpuStall), 1),
    `${fmt(r.wallStall, 1)} ms`,
    fmt(r.wallStall / TARGET_MS, 2),
    `${fmt(r.slowestLeader, 1)} ms`,
    `${r.evals} (${r.allocs} allocations)`,
    r.cpuPerGroup === undefined ? '-' : `${fmt(r.cpuPerGroup, 2)} ms`,
    r.seconds === undefined ? `not within ${SETTLE_MS / 1000} s` : `${fmt(r.seconds, 1)} s`,
  ]);
}
const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => String(row[c]).length)));
for (const row of rows) console.log(row.map((cell, c) => String(cell).padEnd(widths[c])).join('  '));
console.log(
  `\nOn-CPU stall (the target): ${cpuMissed ? 'target missed at some size' : 'target met at every size'}. ` +
    `Wall-clock stall (load average ${fmt(load, 1)} at the start): ${wallMissed ? 'over' : 'under'} the target at ${wallMissed ? 'some' : 'every'} size.`,
);
