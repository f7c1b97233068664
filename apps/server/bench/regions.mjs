// Benchmark of region forwarding between two real sked-server processes, west joined to east (run
// after `pnpm --filter @sked/server build`):
//   node bench/regions.mjs [--readers 100] [--requests 4000] [--waiters 1000] [--rounds 3]
// 1. a read of east's job list with 100 concurrent readers (keep-alive), p50 and p99, sent to east
//    directly and to west with ?region=east (forwarded), in alternating rounds of the same run;
//    target: forwarded p50 at most 2x direct;
// 2. wake-up: with 1,000 other blocking queries held on east (through west, or directly: a child
//    process holds them, on the volumes table, as bench/run.mjs does), a blocking read of one job
//    and a write of that job on east: write -> answer, p99 over --wake-rounds rounds; target:
//    forwarded p99 under 50 ms;
// 3. (reported) 1,000 blocking queries on east's jobs all woken by one write: write -> each answer,
//    p99.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';

const { values } = parseArgs({
  options: {
    readers: { type: 'string', default: '100' },
    requests: { type: 'string', default: '4000' },
    waiters: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
    'wake-rounds': { type: 'string', default: '100' },
  },
});
const READERS = Number(values.readers);
const REQUESTS = Number(values.requests);
const WAITERS = Number(values.waiters);
const ROUNDS = Number(values.rounds);
const WAKE_ROUNDS = Number(values['wake-rounds']);
const waitersScript = fileURLToPath(new URL('./waiters.mjs', import.meta.url));
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const children = [];
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));

/** CPU time of a process so far, in ms (utime + stime from /proc; clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function launch(args) {
  const child = spawn(process.execPath, [main, '--scheduler-port', '0', '--nodes', '1', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /scheduler listening on (\S+)/.exec(out);
      if (match) resolve({ url: match[1], pid: child.pid });
    });
    child.on('exit', (code) => reject(new Error(`sked-server ${args.join(' ')} exited ${code}: ${out}`)));
  });
}

const eastProcess = await launch(['--region', 'east']);
const east = eastProcess.url;
const westProcess = await launch(['--region', 'west', '--join', east]);
const west = westProcess.url;
const client = new Agent({ connections: null, keepAliveTimeout: 60_000, headersTimeout: 120_000 });

async function call(url, init = {}) {
  const answer = await request(url, { dispatcher: client, ...init });
  const text = await answer.body.text();
  if (answer.statusCode !== 200)
    throw new Error(`${init.method ?? 'GET'} ${url}: ${answer.statusCode} ${text}`);
  return { text, index: Number(answer.headers['x-svc-index']) };
}
for (;;) {
  if (JSON.parse((await call(`${west}/v1/regions`)).text).includes('east')) break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const job = (id, team = id.length % 2 === 0 ? 'alpha' : 'beta') =>
  JSON.stringify({
    Job: {
      ID: id,
      Name: id,
      Type: 'service',
      Datacenters: ['dc1'],
      Meta: { team },
      TaskGroups: [{ Name: 'g', Count: 0, Tasks: [{ Name: 't', Driver: 'mock', Config: {} }] }],
    },
  });
for (let i = 0; i < 20; i++) await call(`${east}/v1/jobs`, { method: 'POST', body: job(`seed-${i}`) });
await call(`${east}/v1/jobs`, { method: 'POST', body: job('probe') });

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const ms = (n) => `${n.toFixed(2)} ms`;

/** READERS readers, each reading in a loop until REQUESTS reads are done; every read's latency. */
async function readers(url) {
  const latencies = [];
  let left = REQUESTS;
  await Promise.all(
    Array.from({ length: READERS }, async () => {
      while (left-- > 0) {
        const started = performance.now();
        await call(url);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

/** WAITERS blocking queries on east's jobs, then one write on east: ms from the write to each answer. */
async function wakeUps(base, suffix) {
  const { index } = await call(`${east}/v1/jobs?prefix=zzz`);
  const answered = [];
  const waiting = Array.from({ length: WAITERS }, () =>
    call(`${base}/v1/jobs?prefix=zzz&index=${index}&wait=60s${suffix}`).then(() =>
      answered.push(performance.now()),
    ),
  );
  // every waiter is held on east (directly or through west) before the write
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const written = performance.now();
  await call(`${east}/v1/jobs`, { method: 'POST', body: job(`wake-${index}`) });
  await Promise.all(waiting);
  return answered.map((at) => at - written);
}

/** Established TCP connections to a local port (from /proc/net/tcp). */
function connectionsTo(port) {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .filter((line) => {
      const fields = line.trim().split(/\s+/);
      return fields[2]?.endsWith(`:${hex}`) && fields[3] === '01';
    }).length;
}

/**
 * WAITERS blocking queries on east's volumes held through `base` by a child process, then
 * WAKE_ROUNDS rounds of: a blocking read of job `probe` through `base`, a write of it on east,
 * the time from the write to the read's answer.
 */
async function probeWakeUps(base, suffix) {
  const volumes = await call(`${east}/v1/volumes?type=csi`);
  const holder = spawn(
    process.execPath,
    [waitersScript, `${base}/v1/volumes?type=csi&index=${volumes.index}&wait=10m${suffix}`, String(WAITERS)],
    { stdio: 'ignore' },
  );
  children.push(holder);
  const eastPort = Number(new URL(east).port);
  // held directly, or through west, whose pool then holds as many connections to east
  while (connectionsTo(eastPort) < WAITERS) await new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const latencies = [];
  for (let round = 0; round < WAKE_ROUNDS; round++) {
    const { index } = await call(`${base}/v1/job/probe?x=1${suffix}`);
    const answered = call(`${base}/v1/job/probe?index=${index}&wait=60s${suffix}`).then(() =>
      performance.now(),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const written = performance.now();
    await call(`${east}/v1/jobs`, { method: 'POST', body: job('probe', `r${round}`) });
    latencies.push((await answered) - written);
  }
  holder.kill();
  while (connectionsTo(eastPort) > 50) await new Promise((resolve) => setTimeout(resolve, 50));
  return latencies;
}

// warm both paths (connections, JIT) before measuring
await readers(`${east}/v1/jobs`);
await readers(`${west}/v1/jobs?region=east`);
const direct = [];
const forwarded = [];
// CPU per read of each process, which the machine's load does not change much: east's for a
// direct read; west's and east's for a forwarded one
const cpu = { direct: 0, forwardWest: 0, forwardEast: 0 };
for (let round = 0; round < ROUNDS; round++) {
  let east0 = cpuMs(eastProcess.pid);
  direct.push(...(await readers(`${east}/v1/jobs`)));
  cpu.direct += cpuMs(eastProcess.pid) - east0;
  east0 = cpuMs(eastProcess.pid);
  const west0 = cpuMs(westProcess.pid);
  forwarded.push(...(await readers(`${west}/v1/jobs?region=east`)));
  cpu.forwardEast += cpuMs(eastProcess.pid) - east0;
  cpu.forwardWest += cpuMs(westProcess.pid) - west0;
}
const perRead = (total) => `${((total * 1000) / (REQUESTS * ROUNDS)).toFixed(0)} us`;
const probeDirect = await probeWakeUps(east, '');
const probeForwarded = await probeWakeUps(west, '&region=east');
const wakeDirect = [];
const wakeForwarded = [];
for (let round = 0; round < ROUNDS; round++) {
  wakeDirect.push(...(await wakeUps(east, '')));
  wakeForwarded.push(...(await wakeUps(west, '&region=east')));
}
for (const list of [direct, forwarded, probeDirect, probeForwarded, wakeDirect, wakeForwarded])
  list.sort((a, b) => a - b);

const d50 = quantile(direct, 0.5);
const f50 = quantile(forwarded, 0.5);
const d99 = quantile(direct, 0.99);
const f99 = quantile(forwarded, 0.99);
const w99 = quantile(wakeForwarded, 0.99);
const wd99 = quantile(wakeDirect, 0.99);
const p99 = quantile(probeForwarded, 0.99);
const pd99 = quantile(probeDirect, 0.99);
const rows = [
  ['figure', 'forwarded', 'direct (same run)', 'ratio', 'target', 'met'],
  [
    `read p50, ${READERS} readers`,
    ms(f50),
    ms(d50),
    `${(f50 / d50).toFixed(2)}x`,
    '<= 2x direct',
    f50 <= 2 * d50 ? 'yes' : 'NO',
  ],
  [`read p99, ${READERS} readers`, ms(f99), ms(d99), `${(f99 / d99).toFixed(2)}x`, '(reported)', ''],
  [
    'CPU per read (west + east / east)',
    `${perRead(cpu.forwardWest)} + ${perRead(cpu.forwardEast)}`,
    perRead(cpu.direct),
    `${((cpu.forwardWest + cpu.forwardEast) / cpu.direct).toFixed(2)}x`,
    '(reported)',
    '',
  ],
  [`added latency p50 / p99`, `${ms(f50 - d50)} / ${ms(f99 - d99)}`, '', '', '(reported)', ''],
  [
    `wake-up p99, ${WAITERS} others waiting`,
    ms(p99),
    ms(pd99),
    `${(p99 / pd99).toFixed(2)}x`,
    '< 50 ms',
    p99 < 50 ? 'yes' : 'NO',
  ],
  [
    `wake-up p50, ${WAITERS} others waiting`,
    ms(quantile(probeForwarded, 0.5)),
    ms(quantile(probeDirect, 0.5)),
    '',
    '(reported)',
    '',
  ],
  [
    `all ${WAITERS} woken by one write, p99`,
    ms(w99),
    ms(wd99),
    `${(w99 / wd99).toFixed(2)}x`,
    '(reported)',
    '',
  ],
];
const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
console.log(
  `regions: forwarding west -> east, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}, ${REQUESTS} reads x ${ROUNDS} rounds`,
);
for (const row of rows) console.log(row.map((cell, i) => String(cell).padEnd(widths[i])).join('  '));
await client.close();
process.exit(0);
