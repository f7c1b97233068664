// Validation throughput of the schemas the server checks on every request. Run after `pnpm build`:
// `pnpm --filter @sked/model bench`. Each figure is printed beside its target and as a ratio to a
// baseline measured in the same run: JSON.parse of the same body (work the server does anyway).
import { readFileSync } from 'node:fs';

import { JobRegisterRequest, canonicalizeJob, jobProblems, validate } from '../dist/index.js';

const text = readFileSync(new URL('../test/fixtures/job-register-request.json', import.meta.url), 'utf8');
const body = JSON.parse(text);
const invalid = JSON.parse(text);
invalid.Job.TaskGroups[0].Count = 'x';
invalid.Job.Priority = 500;

function opsPerSecond(fn, ms = 500) {
  for (let i = 0; i < 1000; i += 1) fn(); // warm up (and compile the validator once)
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    for (let i = 0; i < 100; i += 1) fn();
    count += 100;
  }
  return count / ((performance.now() - start) / 1000);
}

const parse = opsPerSecond(() => JSON.parse(text));
const valid = opsPerSecond(() => validate(JobRegisterRequest, body));
const bad = opsPerSecond(() => validate(JobRegisterRequest, invalid));
const canonical = opsPerSecond(() => canonicalizeJob(body.Job));
const job = canonicalizeJob(body.Job);
if (jobProblems(job).length !== 0) throw new Error('the fixture job should have no semantic problem');
const semantic = opsPerSecond(() => jobProblems(job));

const rows = [
  ['baseline: JSON.parse of the body', parse, '-', 1],
  ['validate(JobRegisterRequest), valid body', valid, '>= 0.5x baseline', valid / parse],
  ['validate(JobRegisterRequest), 2 problems', bad, '>= 0.01x baseline', bad / parse],
  ['canonicalizeJob(body.Job)', canonical, '>= 1x baseline', canonical / parse],
  ['jobProblems(canonicalized job), no problem', semantic, '>= 1x baseline', semantic / parse],
];
console.log(`body: ${text.length} bytes of JSON`);
console.log('| benchmark | ops/s | target | ratio to baseline |');
console.log('|---|---|---|---|');
for (const [name, ops, target, ratio] of rows) {
  console.log(`| ${name} | ${Math.round(ops).toLocaleString('en-US')} | ${target} | ${ratio.toFixed(2)}x |`);
}
if (valid / parse < 0.5 || bad / parse < 0.01 || canonical / parse < 1 || semantic / parse < 1) {
  console.log('A target was missed.');
  process.exitCode = 1;
}
