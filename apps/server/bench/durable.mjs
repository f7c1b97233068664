// Benchmark of the durable state (`--data-dir`), run after `pnpm --filter @sked/server build`:
//   node --expose-gc bench/durable.mjs [--amount 4000] [--connections 32] [--jobs 100000] [--rounds 2]
// 1. Job registrations per second with --data-dir as a ratio to in-memory, measured in the same
//    run (fresh servers, memory and durable alternated `rounds` times), 32 concurrent writers.
// 2. Start-up of `sked-server --data-dir` holding 100,000 jobs: time to the ready line, beside the
//    same start on an empty data dir; then the first answers (one job, the whole job list: the
//    restore is lazy, so these pay for reading what they show).
// 3. Memory of 100,000 stored jobs: live heap of the restored state per job, as restored (lazy) and
//    once every item was read whole.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { openDurable } from '../dist/durable/index.js';
import { startServer } from '../dist/wiring/server.js';
import { createCluster } from '../dist/scheduler/core/index.js';

const { values } = parseArgs({
  options: {
    amount: { type: 'string', default: '4000' },
    connections: { type: 'string', default: '32' },
    jobs: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '2' },
  },
});
const AMOUNT = Number(values.amount);
const CONNECTIONS = Number(values.connections);
const JOBS = Number(values.jobs);
const ROUNDS = Number(values.rounds);
const registerRequestFile = fileURLToPath(new URL('./register-request.cjs', import.meta.url));
const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const tmp = () => mkdtempSync(join(os.tmpdir(), 'sked-bench-durable-'));

// --- 1. registrations per second, durable vs memory ----------------------------------------------
async function registrations(dataDir) {
  const server = await startServer({
    schedulerPort: 0,
    secretsPort: 0,
    meshPort: 0,
    nodes: 3,
    ...(dataDir ? { dataDir } : {}),
  });
  const started = performance.now();
  const result = await new Promise((resolve, reject) =>
    autocannon(
      {
        url: server.scheduler.url,
        connections: CONNECTIONS,
        pipelining: 1,
        workers: 1,
        amount: AMOUNT,
        requests: [
          {
            method: 'POST',
            path: '/v1/jobs',
            headers: { 'content-type': 'application/json' },
            setupRequest: registerRequestFile,
          },
        ],
      },
      (error, r) => (error ? reject(error) : resolve(r)),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`registration failed: ${result.non2xx} non-2xx, ${result.errors} errors`);
  await server.close();
  return AMOUNT / seconds;
}

const memoryRates = [];
const durableRates = [];
for (let r = 0; r < ROUNDS; r++) {
  memoryRates.push(await registrations(undefined));
  const dir = tmp();
  durableRates.push(await registrations(dir));
  rmSync(dir, { recursive: true, force: true });
}
const sum = (list) => list.reduce((a, b) => a + b, 0);
const ratio = sum(durableRates) / sum(memoryRates);

// --- 2./3. a data dir holding JOBS jobs: start-up and memory -------------------------------------
const bigDir = tmp();
{
  const durable = openDurable(bigDir);
  const cluster = createCluster({
    nodes: 3,
    dataRoot: durable.taskRoot,
    persistence: { backend: durable.scheduler },
  });
  const { jobBody } = await import(registerRequestFile);
  for (let i = 0; i < JOBS; i += 1000) {
    for (let k = i; k < Math.min(JOBS, i + 1000); k++)
      cluster.registerJob({ job: JSON.parse(jobBody(k)).Job });
    await new Promise((r) => setImmediate(r));
  }
  while (!cluster.idle()) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 100));
  await cluster.close();
  durable.close();
}
const dbBytes = statSync(join(bigDir, 'state.db')).size;

/**
 * CPU time (user + system, all threads) a process used so far, in seconds, from /proc (Linux; NaN
 * elsewhere): on a loaded machine the wall time to the ready line mostly measures waiting for a
 * CPU, the CPU time what the start-up costs.
 */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

function timeToReady(dir, firstAnswers = false) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [MAIN, '--scheduler-port', '0', '--secrets-port', '0', '--mesh-port', '0', '--data-dir', dir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    let ready;
    let answers;
    let cpu;
    child.stderr.on('data', (c) => (err += c));
    child.stdout.on('data', (c) => {
      out += c;
      const line = /^scheduler listening on (\S+)$/m.exec(out);
      if (line === null || ready !== undefined) return;
      ready = performance.now() - started;
      cpu = cpuSeconds(child.pid);
      if (!firstAnswers) {
        child.kill('SIGTERM');
        return;
      }
      const url = line[1];
      (async () => {
        const t0 = performance.now();
        const one = await fetch(`${url}/v1/job/bench-${String(Math.floor(JOBS / 2)).padStart(6, '0')}`);
        await one.arrayBuffer();
        const t1 = performance.now();
        const all = await fetch(`${url}/v1/jobs`);
        const count = (await all.json()).length;
        const t2 = performance.now();
        answers = { one: t1 - t0, all: t2 - t1, count, status: one.status };
      })()
        .catch((e) => (err += String(e)))
        .finally(() => child.kill('SIGTERM'));
    });
    child.once('exit', (code) =>
      ready === undefined
        ? reject(new Error(`exited ${code} before ready: ${err}`))
        : resolve({ ready, answers, cpu }),
    );
  });
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const bigStarts = [];
const emptyStarts = [];
const bigCpu = [];
const emptyCpu = [];
let firstAnswers;
for (let r = 0; r < 3; r++) {
  const empty = tmp();
  const emptyRun = await timeToReady(empty);
  emptyStarts.push(emptyRun.ready);
  emptyCpu.push(emptyRun.cpu);
  rmSync(empty, { recursive: true, force: true });
  const big = await timeToReady(bigDir, r === 0);
  bigStarts.push(big.ready);
  bigCpu.push(big.cpu);
  firstAnswers ??= big.answers;
}

// Memory: the live heap of the state restored from the big data dir, against an empty one.
function heapWith(dir) {
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  const durable = openDurable(dir);
  const cluster = createCluster({
    nodes: 3,
    dataRoot: durable.taskRoot,
    persistence: { backend: durable.scheduler, restored: durable.scheduler.restored },
  });
  const { store } = cluster;
  // Every table indexed (the ones start-up did not read are indexed just after it).
  while (store.settle());
  globalThis.gc?.();
  globalThis.gc?.();
  const used = process.memoryUsage().heapUsed - before;
  const jobs = cluster.store.jobs.size;
  // Every item of every table read whole (as a full job list, filter or scheduling pass would).
  for (const table of [
    store.jobs,
    store.jobVersions,
    store.submissions,
    store.summaries,
    store.evals,
    store.allocs,
  ])
    for (const item of table.items.values()) JSON.stringify(item);
  globalThis.gc?.();
  globalThis.gc?.();
  const usedWhole = process.memoryUsage().heapUsed - before;
  return {
    used,
    usedWhole,
    jobs,
    close: async () => {
      await cluster.close();
      durable.close();
    },
  };
}
const emptyDir = tmp();
const e = heapWith(emptyDir);
await e.close();
const b = heapWith(bigDir);
const perJob = (b.used - e.used) / b.jobs;
const perJobWhole = (b.usedWhole - e.usedWhole) / b.jobs;
const storedJobs = b.jobs;
await b.close();
rmSync(bigDir, { recursive: true, force: true });
rmSync(emptyDir, { recursive: true, force: true });

const load = os
  .loadavg()
  .map((n) => n.toFixed(1))
  .join(' ');
console.log(
  `\nNode ${process.version}, ${os.cpus().length} CPUs, load average at the end ${load}${globalThis.gc ? '' : ' (run with --expose-gc for the memory figure)'}\n`,
);
const rows = [
  ['Measure', 'Result', 'Ratio / baseline', 'Target'],
  [
    `Job registrations/s, ${CONNECTIONS} concurrent writers (${AMOUNT} each run, ${ROUNDS} runs each)`,
    `${fmt(sum(durableRates) / ROUNDS)}/s --data-dir vs ${fmt(sum(memoryRates) / ROUNDS)}/s memory`,
    `${fmt(ratio, 2)} of in-memory`,
    `>= 0.50 ${ratio >= 0.5 ? 'PASS' : 'FAIL'}`,
  ],
  [
    `Start-up to the ready line, ${fmt(storedJobs)} stored jobs (state.db ${fmt(dbBytes / 1048576, 1)} MiB; median of 3)`,
    `${fmt(median(bigStarts) / 1000, 2)} s`,
    `empty data dir ${fmt(median(emptyStarts) / 1000, 2)} s`,
    `<= 3 s ${median(bigStarts) <= 3000 ? 'PASS' : 'FAIL'}`,
  ],
  [
    `CPU time of the same start-up to the ready line (user + system, all threads; median of 3)`,
    `${fmt(median(bigCpu), 2)} s`,
    `empty data dir ${fmt(median(emptyCpu), 2)} s`,
    'stated (no target)',
  ],
  [
    `First answers after the ready line: one job; the whole job list (${fmt(firstAnswers?.count ?? 0)} jobs, each read whole)`,
    `${fmt(firstAnswers?.one ?? NaN, 0)} ms; ${fmt((firstAnswers?.all ?? NaN) / 1000, 2)} s`,
    '',
    'stated (no target)',
  ],
  [
    `Live heap of ${fmt(storedJobs)} restored jobs (job, version, summary, evaluation), as restored (lazy)`,
    `${fmt(perJob / 1024, 2)} KiB per job`,
    `${fmt((b.used - e.used) / 1048576, 1)} MiB in all`,
    'stated (no target)',
  ],
  [
    `The same once every item was read whole`,
    `${fmt(perJobWhole / 1024, 2)} KiB per job`,
    `${fmt((b.usedWhole - e.usedWhole) / 1048576, 1)} MiB in all`,
    'stated (no target)',
  ],
];
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const [i, r] of rows.entries()) {
  console.log(`| ${r.map((c, k) => c.padEnd(widths[k])).join(' | ')} |`);
  if (i === 0) console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
}
process.exit(0);
