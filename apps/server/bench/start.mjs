// Start-up benchmark of `sked-server --demo` (run after `pnpm --filter @sked/server... build`):
//   node bench/start.mjs [--runs 7] [--bin PATH]
// Median wall time from spawning the bin to its three ready lines (scheduler, secrets, mesh, all on
// port 0), beside the target of 1 s and as a ratio to `node -e 0` measured in the same run. `--bin`
// measures another copy, e.g. node_modules/.bin/sked-server of a project that installed the packed
// tarball (the release checks do that install).
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, bin: { type: 'string' } },
});
const RUNS = Number(values.runs);
const BIN = values.bin ?? fileURLToPath(new URL('../bin/sked-server.js', import.meta.url));
const TARGET_MS = 1000;

function baseline() {
  const start = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', '0']);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Spawns the server and resolves with the ms until all three ready lines, then stops it. */
function startOnce() {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(
      process.execPath,
      [BIN, '--demo', '--scheduler-port', '0', '--secrets-port', '0', '--mesh-port', '0'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    let ready;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no three ready lines within 60 s:\n${out}`));
    }, 60_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (
        /^scheduler listening/m.test(out) &&
        /^secrets listening/m.test(out) &&
        /^mesh listening/m.test(out)
      ) {
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        clearTimeout(timer);
        ready = ms;
        child.kill('SIGTERM');
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (ready !== undefined) resolve(ready);
      else reject(new Error(`sked-server exited ${code} before it was ready:\n${out}`));
    });
  });
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
await startOnce(); // fills the compile cache
const starts = [];
const bases = [];
for (let i = 0; i < RUNS; i++) {
  bases.push(baseline());
  starts.push(await startOnce());
}
const base = median(bases);
const ready = median(starts);
console.log(`sked-server --demo start-up, median of ${RUNS} runs (${BIN})`);
console.log(`node -e 0 (baseline)              ${base.toFixed(1).padStart(7)} ms  (1.00x)`);
console.log(
  `to three ready lines              ${ready.toFixed(1).padStart(7)} ms  target <= ${TARGET_MS} ms` +
    `  (${(ready / TARGET_MS).toFixed(2)}x target, ${(ready / base).toFixed(2)}x node -e 0)`,
);
