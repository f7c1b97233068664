// Benchmark of @sked/filter against hand-written closures, on the built package (dist/).
// Run: pnpm --filter @sked/filter bench   (node --expose-gc bench/run.mjs after a build)
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compileFilter } from '../dist/index.js';

const N = 100_000;
const SEED = 42;

async function dataset() {
  try {
    const testkit = await import('@sked/testkit');
    if (typeof testkit.generateJobs === 'function') {
      return { source: `@sked/testkit generateJobs(${N}, ${SEED})`, items: testkit.generateJobs(N, SEED) };
    }
  } catch {
    // testkit not built yet: fall back to the local generator below.
  }
  return { source: `local generator (${N}, seed ${SEED})`, items: localJobs(N, SEED) };
}

function localJobs(count, seed) {
  let s = seed >>> 0;
  const rnd = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const pick = (a) => a[Math.floor(rnd() * a.length)];
  const out = [];
  for (let i = 0; i < count; i++) {
    out.push({
      ID: `${pick(['web', 'api', 'worker', 'db'])}-${String(i).padStart(5, '0')}`,
      Name: `${pick(['web', 'api', 'worker', 'db'])}-${String(i).padStart(5, '0')}`,
      Namespace: 'default',
      Type: pick(['service', 'batch', 'system']),
      Priority: pick([30, 50, 50, 70, 90]),
      Status: rnd() < 0.7 ? 'running' : pick(['pending', 'dead']),
      Datacenters: rnd() < 0.5 ? ['dc1'] : rnd() < 0.5 ? ['dc2'] : ['dc1', 'dc2'],
      Stop: rnd() < 0.05,
      Meta: { owner: pick(['team-a', 'team-b', 'team-c']), env: pick(['prod', 'dev']) },
    });
  }
  return out;
}

function countWith(pred, items) {
  let n = 0;
  for (let i = 0; i < items.length; i++) if (pred(items[i])) n++;
  return n;
}

/** CPU time of the process in ms: robust against other processes sharing the cores. */
function cpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Best CPU time (ms) of `rounds` passes over the items, alternating the two functions. */
function race(a, b, items, rounds = 21) {
  let ta = Infinity;
  let tb = Infinity;
  for (let r = 0; r < rounds; r++) {
    let t = cpuMs();
    countWith(a, items);
    ta = Math.min(ta, cpuMs() - t);
    t = cpuMs();
    countWith(b, items);
    tb = Math.min(tb, cpuMs() - t);
  }
  return [ta, tb];
}

/** Median CPU time (µs) of one call, measured over batches of 100 calls. */
function median(fn, batches) {
  for (let i = 0; i < 2000; i++) fn(i);
  const times = new Float64Array(batches);
  let k = 0;
  for (let i = 0; i < batches; i++) {
    const t = cpuMs();
    for (let j = 0; j < 100; j++) fn(k++);
    times[i] = (cpuMs() - t) / 100;
  }
  times.sort();
  return times[batches >> 1] * 1000;
}

const { source, items } = await dataset();
const rows = [];
const fmt = (x, d = 2) => x.toFixed(d);

const twentyClauses = [
  ...Array.from({ length: 10 }, (_, i) => `Priority != ${i + 1}`),
  ...Array.from({ length: 5 }, (_, i) => `Status != "s${i}"`),
  ...Array.from({ length: 5 }, (_, i) => `Meta.owner != "t${i}"`),
].join(' and ');
const twentyClosure = (j) => {
  for (let i = 1; i <= 10; i++) if (j.Priority === i) return false;
  for (let i = 0; i < 5; i++) if (j.Status === `s${i}`) return false;
  const owner = j.Meta?.owner;
  for (let i = 0; i < 5; i++) if (owner === `t${i}`) return false;
  return true;
};

const throughput = [
  ['Status == "running"', (j) => j.Status === 'running', 0.5, 'Status == "running"'],
  [
    'Status == "running" and Priority != 50',
    (j) => j.Status === 'running' && j.Priority !== 50,
    0.5,
    'Status == "running" and Priority != 50',
  ],
  ['"dc1" in Datacenters', (j) => j.Datacenters.includes('dc1'), 0.5, '"dc1" in Datacenters'],
  ['Meta.owner == "team-a"', (j) => j.Meta?.owner === 'team-a', 0.5, 'Meta.owner == "team-a"'],
  ['Name matches "^web-.*"', (j) => j.Name.startsWith('web-'), 0.5, 'Name matches "^web-.*"'],
  [
    'Status == "running" and (Priority != 50 or not "dc2" in Datacenters)',
    (j) => j.Status === 'running' && (j.Priority !== 50 || !j.Datacenters.includes('dc2')),
    0.5,
    '3 clauses: Status == "running" and (Priority != 50 or not "dc2" in Datacenters)',
  ],
  [
    twentyClauses,
    twentyClosure,
    0.25,
    '20 clauses: Priority != 1..10, Status != "s0".."s4", Meta.owner != "t0".."t4" (all and)',
  ],
];

const figureArg = process.argv.find((a) => a.startsWith('--figure='));
if (figureArg !== undefined) {
  // Child process: measure one throughput figure with fresh JIT feedback, print JSON.
  const [text, closure] = throughput[Number(figureArg.slice('--figure='.length))];
  const pred = compileFilter(text);
  const a = countWith(pred, items);
  const b = countWith(closure, items);
  if (a !== b) throw new Error(`answers differ for ${String(text)}: ${a} vs ${b}`);
  const [tPred, tClosure] = race(pred, closure, items);
  console.log(JSON.stringify({ tPred, tClosure, matches: a }));
  process.exit(0);
}

for (let i = 0; i < throughput.length; i++) {
  const [, , target, label] = throughput[i];
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), `--figure=${i}`], {
    encoding: 'utf8',
  });
  const { tPred, tClosure, matches } = JSON.parse(out.trim().split('\n').pop());
  const ratio = tClosure / tPred;
  rows.push([
    `throughput: ${String(label)} (${matches} match)`,
    `${fmt(items.length / tPred / 1e3)} M/s vs closure ${fmt(items.length / tClosure / 1e3)} M/s = ${fmt(ratio * 100, 0)}%`,
    `>= ${target * 100}%`,
    ratio >= target,
  ]);
}

const distinct = (i) => `Name == "x${i}"`;
const m1 = median((i) => compileFilter(distinct(i)), 201);
rows.push(['parse+compile median: Name == "x"', `${fmt(m1)} µs`, '<= 10 µs', m1 <= 10]);
const m20 = median(
  (i) => compileFilter(`${twentyClauses} and ID != "${i}"`.replace(' and Priority != 1 ', ' ')),
  51,
);
rows.push(['parse+compile median: 20 clauses', `${fmt(m20)} µs`, '<= 100 µs', m20 <= 100]);

if (typeof globalThis.gc === 'function') {
  globalThis.gc();
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  const kept = [];
  for (let i = 0; i < 10_000; i++) {
    kept.push(
      compileFilter(
        `Status == "s${i}" and Priority != ${i} and "dc${i}" in Datacenters and Meta.owner == "t${i}"`,
      ),
    );
  }
  globalThis.gc();
  globalThis.gc();
  const after = process.memoryUsage().heapUsed;
  const mb = (after - before) / 1024 / 1024;
  rows.push(['retained by 10,000 compiled 4-clause filters', `${fmt(mb, 1)} MB`, '< 50 MB', mb < 50]);
  if (kept.length !== 10_000) throw new Error('unreachable');
} else {
  rows.push([
    'retained by 10,000 compiled filters',
    'not measured (run node with --expose-gc)',
    '< 50 MB',
    false,
  ]);
}

console.log(`@sked/filter benchmark: ${items.length} items from ${source}, node ${process.version}`);
console.log('');
console.log('| figure | measured | target | ok |');
console.log('|---|---|---|---|');
for (const [name, value, target, ok] of rows)
  console.log(`| ${name} | ${value} | ${target} | ${ok ? 'yes' : 'NO'} |`);
process.exitCode = rows.every((r) => r[3]) ? 0 : 1;
