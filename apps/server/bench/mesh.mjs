// Benchmark of the mesh service's cluster peering between two real sked-server processes (run
// after `pnpm --filter @sked/server build`):
//   node bench/mesh.mjs [--establish 100] [--peerings 200] [--cpu-seconds 10]
// 1. establish -> ACTIVE on both sides, p50/p99 over N establishments, against the plainest code
//    for the same network work (one HTTP POST, then a WebSocket opened and its first message read);
// 2. CPU of each server holding 200 peerings at a 1 s heartbeat, as a share of one core, against
//    200 plain WebSockets with a setInterval heartbeat each (bench/mesh-baseline.mjs);
// 3. GET /v1/peerings of 200 peerings, p50/p99, against a plain node:http server answering the
//    same bytes.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { WebSocket } from 'ws';
import { launch, MAIN, printReport } from './support.mjs';

const { values } = parseArgs({
  options: {
    establish: { type: 'string', default: '100' },
    peerings: { type: 'string', default: '200' },
    'cpu-seconds': { type: 'string', default: '10' },
  },
});
const ESTABLISH = Number(values.establish);
const PEERINGS = Number(values.peerings);
const CPU_SECONDS = Number(values['cpu-seconds']);
const baselineScript = fileURLToPath(new URL('./mesh-baseline.mjs', import.meta.url));
/** Starts one sked-server; its mesh listener's base URL and its pid. */
async function startServer(dc) {
  const { child, match } = await launch(
    [MAIN, '--scheduler-port', '0', '--nodes', '0', '--heartbeat-ms', '1000', '--datacenter', dc],
    /mesh listening on (\S+)/,
  );
  return { url: match[1], pid: child.pid };
}

async function call(base, method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return { text, index: Number(res.headers.get('x-mesh-index')), json: () => JSON.parse(text) };
}

async function untilActive(base, name) {
  let index = 0;
  for (;;) {
    const res = await call(base, 'GET', `/v1/peering/${name}?index=${index}&wait=10s`);
    if (res.json().State === 'ACTIVE') return;
    index = res.index;
  }
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const ms = (n) => `${n.toFixed(2)} ms`;
const rows = [];

function cpuTicks(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks
}
async function cpuShare(pids, seconds) {
  const before = pids.map(cpuTicks);
  const t0 = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const elapsed = (performance.now() - t0) / 1000;
  const ticks = Number(process.env.CLK_TCK ?? 100);
  return pids.map((pid, i) => (cpuTicks(pid) - before[i]) / ticks / elapsed);
}

const servers = await Promise.all([startServer('dc1'), startServer('dc2')]);
const [a, b] = servers.map((server) => server.url);
const pids = servers.map((server) => server.pid);
const { child: baseChild, match: baseMatch } = await launch(
  [baselineScript, '1000'],
  /baseline listening on (\d+)/,
);
const baseline = `127.0.0.1:${baseMatch[1]}`;

// --- 1. establish -> ACTIVE ----------------------------------------------------------------------
const ours = [];
const plain = [];
for (let i = 0; i < ESTABLISH; i++) {
  {
    const t0 = performance.now();
    const { PeeringToken } = (await call(a, 'POST', '/v1/peering/token', { PeerName: `b-${i}` })).json();
    await call(b, 'POST', '/v1/peering/establish', { PeerName: `a-${i}`, PeeringToken });
    await Promise.all([untilActive(a, `b-${i}`), untilActive(b, `a-${i}`)]);
    ours.push(performance.now() - t0);
  }
  {
    const t0 = performance.now();
    await fetch(`http://${baseline}/token`, { method: 'POST', body: '{}' }).then((r) => r.text());
    await fetch(`http://${baseline}/establish`, { method: 'POST', body: '{}' }).then((r) => r.text());
    const socket = new WebSocket(`ws://${baseline}/stream`);
    await new Promise((resolve) => socket.once('message', resolve));
    plain.push(performance.now() - t0);
    socket.close();
  }
}
ours.sort((x, y) => x - y);
plain.sort((x, y) => x - y);
rows.push([
  `establish -> ACTIVE on both sides (${ESTABLISH} establishments)`,
  `p50 ${ms(quantile(ours, 0.5))}, p99 ${ms(quantile(ours, 0.99))}`,
  `${(quantile(ours, 0.5) / quantile(plain, 0.5)).toFixed(2)}x the plain POST+POST+WebSocket p50 (${ms(quantile(plain, 0.5))}; p99 ${ms(quantile(plain, 0.99))})`,
  'reported (no target)',
]);

// --- 2. CPU with 200 peerings at 1 s -------------------------------------------------------------
for (let i = ESTABLISH; i < PEERINGS; i++) {
  const { PeeringToken } = (await call(a, 'POST', '/v1/peering/token', { PeerName: `b-${i}` })).json();
  await call(b, 'POST', '/v1/peering/establish', { PeerName: `a-${i}`, PeeringToken });
}
for (let i = 0; i < PEERINGS; i++) await untilActive(a, `b-${i}`);
await new Promise((resolve) => setTimeout(resolve, 2000));
const [cpuA, cpuB] = await cpuShare(pids, CPU_SECONDS);
// the baseline: the same number of plain sockets with a heartbeat each way, between two processes
const dialer = await launch(
  [baselineScript, '1000', '--dial', `ws://${baseline}/`, String(PEERINGS)],
  /dialed (\d+)/,
);
await new Promise((resolve) => setTimeout(resolve, 2000));
const [cpuBaseServer, cpuBaseDialer] = await cpuShare([baseChild.pid, dialer.child.pid], CPU_SECONDS);
const pct = (share) => `${(share * 100).toFixed(2)} %`;
for (const [label, share, base] of [
  ['accepting server (generated the tokens)', cpuA, cpuBaseServer],
  ['establishing server (dials the streams)', cpuB, cpuBaseDialer],
]) {
  rows.push([
    `CPU of the ${label}, ${PEERINGS} peerings at 1 s heartbeat`,
    `${pct(share)} of a core`,
    `${(share / Math.max(base, 0.0001)).toFixed(2)}x the plain sockets (${pct(base)})`,
    `<= 5 % ${share <= 0.05 ? 'PASS' : 'FAIL'}`,
  ]);
}

// --- 3. list of 200 ------------------------------------------------------------------------------
const listed = await call(a, 'GET', '/v1/peerings');
if (listed.json().length !== PEERINGS) throw new Error(`expected ${PEERINGS} peerings`);
await fetch(`http://${baseline}/list`, { method: 'PUT', body: listed.text });
const timeList = async (url, encoding = 'identity') => {
  const times = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    // identity on both sides: the baseline does not compress (gzip is measured on its own below)
    const res = await fetch(url, { headers: { 'accept-encoding': encoding } });
    await res.text();
    times.push(performance.now() - t0);
  }
  return times.sort((x, y) => x - y);
};
for (let round = 0; round < 2; round++) {
  // warm both, then measure alternately
  await timeList(`${a}/v1/peerings`);
  await timeList(`http://${baseline}/list`);
}
const listOurs = await timeList(`${a}/v1/peerings`);
const listPlain = await timeList(`http://${baseline}/list`);
const listGzip = await timeList(`${a}/v1/peerings`, 'gzip');
rows.push([
  `GET /v1/peerings, ${PEERINGS} peerings (${listed.text.length.toLocaleString('en-US')} B), 200 requests`,
  `p50 ${ms(quantile(listOurs, 0.5))}, p99 ${ms(quantile(listOurs, 0.99))}`,
  `${(quantile(listOurs, 0.5) / quantile(listPlain, 0.5)).toFixed(2)}x the plain server p50 (${ms(quantile(listPlain, 0.5))}; its p99 ${ms(quantile(listPlain, 0.99))})`,
  `p99 <= 20 ms ${quantile(listOurs, 0.99) <= 20 ? 'PASS' : 'FAIL'}`,
]);
rows.push([
  `the same with Accept-Encoding: gzip (what @sked/http sends)`,
  `p50 ${ms(quantile(listGzip, 0.5))}, p99 ${ms(quantile(listGzip, 0.99))}`,
  `${(quantile(listGzip, 0.5) / quantile(listPlain, 0.5)).toFixed(2)}x the plain server p50`,
  `p99 <= 20 ms ${quantile(listGzip, 0.99) <= 20 ? 'PASS' : 'FAIL'}`,
]);

printReport(['Measure', 'Result', 'Ratio to the baseline', 'Target'], rows);
process.exit(0);
