// Benchmark of the fault injection hook's cost on a request no fault applies to (run after
// `pnpm --filter @sked/server build`):
//   node bench/faults.mjs [--rounds 21] [--requests 2000]
// Three instances of the scheduling API in this process (as bench/ab-server.mjs builds it):
// without the fault injector ("off": faults disabled entirely), with it and no rule ("empty": as
// every sked-server runs), and with four rules that match none of the bench's requests ("miss":
// another service, another method, a path pattern and a regular expression that do not match).
// Each round sends `--requests` plain reads (GET /v1/status/leader, the cheapest read, so that the
// hook's share is the largest it can be) one after the other to each instance, in a turning order,
// through fastify's `inject` (no sockets: the network's fixed cost would only make the hook's share
// smaller, and a shared machine's load would swamp a few per cent across processes). Figures: time
// per request and requests/s, the median of the rounds; the ratio to "off" is the median of the
// per-round ratios (adjacent runs see the same load). Target: the hook costs at most 5 % of a plain
// read (ratio <= 1.05) with no rule and with rules that do not match.
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createHttpApp } from '../dist/http/app.js';
import { createFaultInjector } from '../dist/http/faults.js';
import { createAcl } from '../dist/scheduler/acl/index.js';
import { createCluster } from '../dist/scheduler/core/index.js';
import { registerSchedulerRoutes } from '../dist/scheduler/routes/index.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '21' },
    requests: { type: 'string', default: '2000' },
  },
});
const ROUNDS = Number(values.rounds);
const REQUESTS = Number(values.requests);
const TARGET = 1.05;
const MODES = ['off', 'empty', 'miss'];
const LABEL = {
  off: 'faults disabled (no hook)',
  empty: 'hook, no rule',
  miss: 'hook, 4 rules, none matches',
};
const loadavg = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
const loadAtStart = loadavg();

// no client nodes: nothing runs in the background of the process between the measured requests
const cluster = createCluster({ region: 'global', datacenter: 'dc1', nodes: 0 });
const shutdown = new AbortController();

/** The scheduling API with the fault injector in the state of `mode`. */
async function build(mode) {
  const app = createHttpApp();
  if (mode !== 'off') {
    const faults = createFaultInjector();
    faults.install(app, { service: 'scheduler' });
    if (mode === 'miss') {
      faults.inject({ service: 'mesh', status: 503 });
      faults.inject({ service: 'scheduler', method: 'DELETE', status: 503 });
      faults.inject({ service: 'scheduler', path: '/v1/job/:job_id/allocations', status: 503 });
      faults.inject({ path: /^\/v1\/nodes/, delayMs: 1000 });
    }
  }
  registerSchedulerRoutes(app, {
    cluster,
    acl: createAcl(undefined),
    region: 'global',
    shutdown: shutdown.signal,
  });
  await app.ready();
  return app;
}

/** Microseconds per request of `count` reads sent one after the other. */
async function run(app, count) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const answer = await app.inject({ method: 'GET', url: '/v1/status/leader' });
    if (answer.statusCode !== 200) throw new Error(`GET /v1/status/leader: ${answer.statusCode}`);
  }
  return Number(process.hrtime.bigint() - start) / 1000 / count;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const apps = Object.fromEntries(await Promise.all(MODES.map(async (mode) => [mode, await build(mode)])));
for (const mode of MODES) await run(apps[mode], REQUESTS * 2); // warm-up, not counted
const rounds = [];
for (let i = 0; i < ROUNDS; i++) {
  const round = {};
  for (let k = 0; k < MODES.length; k++) {
    const mode = MODES[(i + k) % MODES.length];
    round[mode] = await run(apps[mode], REQUESTS);
  }
  rounds.push(round);
}
for (const app of Object.values(apps)) await app.close();
shutdown.abort();
await cluster.close();

console.log(
  `fault injection hook: GET /v1/status/leader through fastify inject, ${ROUNDS} rounds of ${REQUESTS} requests per instance (medians); load average ${loadAtStart} -> ${loadavg()}`,
);
console.log('| instance | time per request | requests/s | ratio to disabled | target |');
console.log('|---|---|---|---|---|');
let met = true;
for (const mode of MODES) {
  const us = median(rounds.map((r) => r[mode]));
  const ratio = median(rounds.map((r) => r[mode] / r.off));
  if (mode !== 'off' && ratio > TARGET) met = false;
  console.log(
    `| ${LABEL[mode]} | ${us.toFixed(1)} µs | ${Math.round(1e6 / us).toLocaleString('en')} | ${ratio.toFixed(3)}x | ${mode === 'off' ? 'baseline' : `<= ${TARGET}x`} |`,
  );
}
console.log(met ? 'target met' : 'TARGET NOT MET');
process.exit(met ? 0 : 1);
