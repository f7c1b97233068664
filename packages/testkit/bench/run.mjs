// Benchmarks of the dataset generators. Run after `pnpm build`: `pnpm --filter @sked/testkit bench`.
// Each figure is printed beside its target and as a ratio to a baseline measured in the same run:
// building the same number of plain objects with constant fields (no randomness, no nesting).
import { generateDataset, generateJobs } from '../dist/index.js';

const N = 100_000;

function time(fn, runs = 3) {
  let best = Infinity;
  let result;
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    result = fn();
    best = Math.min(best, performance.now() - start);
  }
  return { ms: best, result };
}

function baseline(count) {
  const out = [];
  for (let i = 0; i < count; i += 1) {
    out.push({
      ID: `web-${i}`,
      Namespace: 'default',
      Type: 'service',
      Priority: 50,
      Status: 'running',
      Datacenters: ['dc1'],
      Meta: { owner: 'a', team: 'b', env: 'prod' },
      CreateIndex: i,
    });
  }
  return out;
}

const base = time(() => baseline(N));
const jobs = time(() => generateJobs(N, 1));
const dataset = time(() => generateDataset({ seed: 1, jobs: 10_000 }), 1);

const rows = [
  ['baseline: 100,000 plain objects', base.ms, '-', '1.0x'],
  ['generateJobs(100_000)', jobs.ms, '<= 1000 ms', `${(jobs.ms / base.ms).toFixed(1)}x`],
  [
    `generateDataset(10,000 jobs, ${dataset.result.allocations.length} allocs)`,
    dataset.ms,
    '<= 5000 ms',
    `${(dataset.ms / base.ms).toFixed(1)}x`,
  ],
];
console.log('| benchmark | time (ms) | target | ratio to baseline |');
console.log('|---|---|---|---|');
for (const [name, ms, target, ratio] of rows)
  console.log(`| ${name} | ${ms.toFixed(0)} | ${target} | ${ratio} |`);
const failed = jobs.ms > 1000 || dataset.ms > 5000;
if (failed) {
  console.log('A target was missed.');
  process.exitCode = 1;
}
