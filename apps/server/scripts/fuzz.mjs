// The long run of the fuzzer driven by GET /v1/openapi.json (test/fuzz.test.ts):
//   node scripts/fuzz.mjs [--runs 25] [--seed N] [--strict] [--verbose]
// `npm test` runs the same test with one case per operation and mutation; this runs `--runs` each
// (and 20 times as many WebSocket upgrades) on a server with ACLs off and one with ACLs on, prints
// one summary line per server (requests tried, by kind and status class, 5xx, schema violations,
// state changes, ACL writes, known open) and exits non-zero when a defect was found. `--seed`
// replays a run; `--strict` also fails on the classes listed in test/fuzz/known-open.ts;
// `--verbose` lists the operations no valid request got a documented 2xx from.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '25' },
    seed: { type: 'string' },
    strict: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});
for (const [name, value] of [
  ['runs', values.runs],
  ['seed', values.seed],
]) {
  if (value !== undefined && !/^\d{1,10}$/.test(value)) {
    process.stderr.write(`fuzz: --${name} expects a whole number, not ${JSON.stringify(value)}\n`);
    process.exit(2);
  }
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const vitest = join(dirname(fileURLToPath(import.meta.resolve('vitest/package.json'))), 'vitest.mjs');
const env = {
  ...process.env,
  SKED_FUZZ_RUNS: values.runs,
  ...(values.seed === undefined ? {} : { SKED_FUZZ_SEED: values.seed }),
  ...(values.strict ? { SKED_FUZZ_STRICT: '1' } : {}),
  ...(values.verbose ? { SKED_FUZZ_VERBOSE: '1' } : {}),
};
const child = spawn(process.execPath, [vitest, 'run', 'test/fuzz.test.ts'], {
  cwd: root,
  env,
  stdio: 'inherit',
});
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
