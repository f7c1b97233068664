// Before/after benchmark of the server core redesign (issue 11), both builds measured in the same
// run: the server as it was just before core/cluster.ts was split ("before", built from that
// commit in a temporary directory) and this tree's build ("after"), each in its own child process
// (bench/ab-server.mjs), under the same load from this process, in alternating passes
// (A, B, A, B, ...), each figure the median of its passes. The measures are bench/run.mjs's:
// POST /v1/jobs registrations/s, the filtered list GET over 10,000 jobs, and the wake-up latency of
// a blocking GET while 5,000 other blocking queries wait.
//   node bench/ab.mjs [--before REV] [--jobs 10000] [--passes 4] [--duration 3] [--waiters 5000] [--rounds 100]
// The before build is kept in the temporary directory (sked-bench-before-<commit>) for later runs.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { request as httpRequest } from './http.mjs';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    jobs: { type: 'string', default: '10000' },
    passes: { type: 'string', default: '4' },
    duration: { type: 'string', default: '3' },
    waiters: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '100' },
  },
});
const JOBS = Number(values.jobs);
const PASSES = Number(values.passes);
const DURATION = Number(values.duration);
const WAITERS = Number(values.waiters);
const ROUNDS = Number(values.rounds);
const FILTER = 'Meta.team == "alpha" or Meta.team == "beta"';
const CLUSTER_TS = 'apps/server/src/scheduler/core/cluster.ts';
const here = dirname(fileURLToPath(import.meta.url));
const gitIn = (cwd, args) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
const root = gitIn(here, ['rev-parse', '--show-toplevel']);
const git = (...args) => gitIn(root, args);
const loadavg = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
const loadAtStart = loadavg();

// --- the two builds ------------------------------------------------------------------------------
/** The first parent of the oldest commit that split cluster.ts (from over 1,000 lines to under). */
function beforeCommit() {
  if (values.before) return git('rev-parse', values.before);
  const lines = (rev) => {
    try {
      return git('show', `${rev}:${CLUSTER_TS}`).split('\n').length;
    } catch {
      return 0; // absent at that commit
    }
  };
  const commits = git('log', '--follow', '--format=%H', '--', CLUSTER_TS).split('\n').reverse();
  const split = commits.find((c) => lines(c) < 1000 && lines(`${c}^`) > 1000);
  if (split === undefined) throw new Error(`no commit found that split ${CLUSTER_TS}`);
  return git('rev-parse', `${split}^`);
}

/** Builds the server of `commit` in a temporary directory (kept for later runs); returns its dist/. */
function buildBefore(commit) {
  const dir = join(os.tmpdir(), `sked-bench-before-${commit.slice(0, 12)}`);
  const dist = join(dir, 'apps/server/dist');
  if (existsSync(join(dist, 'scheduler/routes/index.js'))) return dist;
  console.error(`building the before server (${commit.slice(0, 12)}) in ${dir} ...`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git -C "${root}" archive ${commit} | tar -x -C "${dir}"`], { stdio: 'inherit' });
  const pnpm = process.env.npm_execpath;
  const run = (args) =>
    pnpm?.endsWith('.cjs') || pnpm?.endsWith('.js')
      ? execFileSync(process.execPath, [pnpm, ...args], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] })
      : execFileSync('pnpm', args, { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  run(['install', '--frozen-lockfile', '--prefer-offline']);
  run(['--filter', '@sked/server...', 'run', 'build']);
  return dist;
}

/** Starts one build's server in a child process; resolves with its base URL and the child. */
function startServer(dist) {
  const child = spawn(process.execPath, [join(here, 'ab-server.mjs'), dist], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve({ base: `http://127.0.0.1:${Number(out.trim())}`, child });
    });
    child.on('exit', (code) => reject(new Error(`server of ${dist} exited ${code}`)));
  });
}

// --- HTTP helpers --------------------------------------------------------------------------------
const request = (base, method, path, body, agent) => httpRequest(`${base}${path}`, method, body, agent);
/** One autocannon run in this process (the servers are children); `onResponse` sees each answer. */
const cannon = (options, onResponse) =>
  new Promise((resolve, reject) => {
    const instance = autocannon({ connections: 10, pipelining: 1, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
    if (onResponse) instance.on('response', onResponse);
  });

const { jobBody: registration } = createRequire(import.meta.url)('./register-request.cjs');
/** The registration body of job `i` (bench/register-request.cjs's), with extra `meta`. */
function jobBody(i, meta = {}) {
  const body = JSON.parse(registration(i));
  Object.assign(body.Job.Meta, meta);
  return JSON.stringify(body);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

// --- the measures, one pass each -------------------------------------------------------------------
/** Registers `count` new jobs from `first`; returns registrations/s. */
async function registrations(server, first, count) {
  let next = first;
  const started = performance.now();
  // timed to the last answer (autocannon's own end comes on its one-second tick)
  let last = started;
  const result = await cannon(
    {
      url: server.base,
      amount: count,
      requests: [
        {
          method: 'POST',
          path: '/v1/jobs',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => ({ ...req, body: jobBody(next++) }),
        },
      ],
    },
    () => {
      last = performance.now();
    },
  );
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`registration failed: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return count / ((last - started) / 1000);
}

const LIST = `/v1/jobs?per_page=100&filter=${encodeURIComponent(FILTER)}`;
const listRate = async (server) =>
  (await cannon({ url: `${server.base}${LIST}`, duration: DURATION })).requests.average;

const waiting = async (server) => JSON.parse((await request(server.base, 'GET', '/bench/waiting')).body);

/** `rounds` writes to a job with a blocking GET of it waiting; returns the p50 and p99 of write -> answer (ms). */
async function wakeLatencies(server, rounds) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const latencies = [];
  for (let round = 0; round < rounds; round++) {
    const before = await waiting(server);
    const answer = request(
      server.base,
      'GET',
      `/v1/job/bench-000000?index=${before.jobsIndex}&wait=1m`,
      undefined,
      agent,
    );
    while ((await waiting(server)).jobs <= before.jobs) await pause(1);
    const body = jobBody(0, { round: String(round) + Math.random() });
    const t0 = performance.now();
    const write = request(server.base, 'POST', '/v1/job/bench-000000', body, agent);
    const res = await answer;
    latencies.push(performance.now() - t0);
    await write;
    if (res.status !== 200 || Number(res.headers['x-svc-index']) <= before.jobsIndex)
      throw new Error('blocking query did not see the write');
  }
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { p50: pct(50), p99: pct(99) };
}

/** Holds `count` blocking queries on the volumes table of `server` open from a child process. */
async function holdWaiters(server, count) {
  const { volumesIndex } = await waiting(server);
  const child = spawn(
    process.execPath,
    [
      join(here, 'waiters.mjs'),
      `${server.base}/v1/volumes?type=csi&index=${volumesIndex}&wait=10m`,
      String(count),
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  while ((await waiting(server)).volumes < count) await pause(50);
  return child;
}

// --- the run ---------------------------------------------------------------------------------------
const commit = beforeCommit();
const builds = { before: buildBefore(commit), after: join(here, '../dist') };
const servers = { before: await startServer(builds.before), after: await startServer(builds.after) };
const order = ['before', 'after'];
const figures = {
  before: { reg: [], list: [], p50: [], p99: [] },
  after: { reg: [], list: [], p50: [], p99: [] },
};
try {
  const perPass = Math.ceil(JOBS / PASSES);
  for (let pass = 0; pass < PASSES; pass++)
    for (const name of order) {
      figures[name].reg.push(await registrations(servers[name], pass * perPass, perPass));
      await pause(500);
    }
  // Same behaviour: both answer the same page of the same filter.
  const pages = {};
  for (const name of order) {
    const res = await request(servers[name].base, 'GET', LIST);
    if (res.status !== 200) throw new Error(`${name}: list failed: ${res.status} ${res.body}`);
    pages[name] = JSON.parse(res.body).map((j) => `${j.Namespace}/${j.ID}/${j.Status}`);
  }
  if (pages.before.length !== 100 || JSON.stringify(pages.before) !== JSON.stringify(pages.after))
    throw new Error('the two servers answer different pages of the filtered list');
  for (let pass = 0; pass < PASSES; pass++)
    for (const name of order) figures[name].list.push(await listRate(servers[name]));
  const holders = [];
  for (const name of order) holders.push(await holdWaiters(servers[name], WAITERS));
  for (let pass = 0; pass < PASSES; pass++)
    for (const name of order) {
      const { p50, p99 } = await wakeLatencies(servers[name], ROUNDS);
      figures[name].p50.push(p50);
      figures[name].p99.push(p99);
    }
  for (const s of Object.values(servers)) s.child.kill('SIGTERM');
  await Promise.all(holders.map((h) => new Promise((r) => h.on('exit', r))));
} finally {
  for (const s of Object.values(servers)) s.child.kill('SIGTERM');
}

// --- the table -------------------------------------------------------------------------------------
const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
/** The spread of a measure's passes, relative to its median: how far apart equal code measures. */
const noise = (xs) => (Math.max(...xs) - Math.min(...xs)) / median(xs);
const verdict = (ratio, spread) =>
  ratio >= 1 ? 'unchanged or better' : ratio >= 1 - spread ? 'within noise' : 'WORSE';
const rows = [];
const add = (measure, unit, key, higherIsBetter, digits) => {
  const b = median(figures.before[key]);
  const a = median(figures.after[key]);
  const ratio = higherIsBetter ? a / b : b / a;
  const spread = Math.max(noise(figures.before[key]), noise(figures.after[key]));
  rows.push([
    measure,
    `${fmt(b, digits)} ${unit}`,
    `${fmt(a, digits)} ${unit}`,
    `${fmt(ratio, 2)}${higherIsBetter ? '' : ' (before/after: lower is better)'}`,
    `≥ 1.0 (unchanged or better) within noise (±${fmt(spread * 100)}%): ${verdict(ratio, spread)}`,
  ]);
};
add('POST /v1/jobs, new job each time', 'registrations/s', 'reg', true, 0);
add(`GET /v1/jobs?per_page=100&filter=… (${fmt(JOBS)} jobs)`, 'req/s', 'list', true, 0);
add(`blocking GET /v1/job/:id wake-up p99, ${fmt(WAITERS)} other waiters`, 'ms', 'p99', false, 2);
add(`blocking GET /v1/job/:id wake-up p50, ${fmt(WAITERS)} other waiters`, 'ms', 'p50', false, 2);

console.log(
  `Core redesign before/after: before = ${commit.slice(0, 7)} (cluster.ts before the split), after = this tree; ` +
    `${PASSES} alternating passes each, medians; Node ${process.version}, ${os.cpus().length} CPUs, ` +
    `load average ${loadAtStart} at the start, ${loadavg()} at the end`,
);
console.log('');
console.log('| Measure | Before | After | After/before | Target |');
console.log('|---|---|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
console.log('');
const passes = (key, digits) =>
  order.map((name) => `${name} ${figures[name][key].map((x) => fmt(x, digits)).join(', ')}`).join('; ');
console.log(`Passes, in the order run: registrations/s ${passes('reg', 0)}`);
console.log(`list req/s ${passes('list', 0)}`);
console.log(`wake-up p99 ms ${passes('p99', 2)}; p50 ms ${passes('p50', 2)}`);
