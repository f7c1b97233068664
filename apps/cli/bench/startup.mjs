// Start-up benchmark of the `sked` bin (run after `pnpm --filter @sked/cli... build`):
//   node bench/startup.mjs [--runs 15] [--bin PATH]
// Median wall time of `sked --version` and of `sked job status` (against a local sked-server with
// its demo jobs), each beside its target as a ratio to `node -e 0` measured in the same run, and
// the peak RSS of `sked --version` (GNU time's %M) beside its target. `--bin` measures another
// copy of the bin, e.g. one installed from the packed tarball.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '15' }, bin: { type: 'string' } },
});
const RUNS = Number(values.runs);
const SKED = values.bin ?? fileURLToPath(new URL('../bin/sked.js', import.meta.url));
const SERVER = fileURLToPath(new URL('../../server/bin/sked-server.js', import.meta.url));
const TIME = '/usr/bin/time';

/** Median wall time in ms of `node ARGS` over RUNS runs (one warm-up run first, not counted). */
function wall(args, env = process.env) {
  const times = [];
  for (let i = 0; i <= RUNS; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, args, {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0)
      throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    if (i > 0) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** Peak RSS in MiB of `node ARGS` (median of 5), or undefined without GNU time. */
function peakMiB(args) {
  if (!existsSync(TIME)) return undefined;
  const peaks = [];
  for (let i = 0; i < 5; i++) {
    const result = spawnSync(TIME, ['-f', '%M', process.execPath, ...args], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    peaks.push(Number(result.stderr.trim().split('\n').at(-1)) / 1024);
  }
  peaks.sort((a, b) => a - b);
  return peaks[2];
}

const line = (name, figure, unit, target, ratio) =>
  console.log(
    `${name.padEnd(34)} ${figure.toFixed(1).padStart(7)} ${unit}  target <= ${target}` +
      (ratio === undefined ? '' : `  (${ratio.toFixed(2)}x node -e 0)`),
  );

// a local server with the demo jobs, for `sked job status`
const server = spawn(
  process.execPath,
  [SERVER, '--demo', '--scheduler-port', '0', '--secrets-port', '0', '--mesh-port', '0'],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const address = await new Promise((resolve, reject) => {
  let out = '';
  const timer = setTimeout(() => reject(new Error(`sked-server did not start: ${out}`)), 60_000);
  server.stdout.on('data', (chunk) => {
    out += chunk;
    const match = /^scheduler listening on (\S+)$/m.exec(out);
    if (match && /^mesh listening/m.test(out)) {
      clearTimeout(timer);
      resolve(match[1]);
    }
  });
  server.once('exit', (code) => reject(new Error(`sked-server exited ${code}: ${out}`)));
});

try {
  execFileSync(process.execPath, [SKED, '--version']); // fills the compile cache
  const base = wall(['-e', '0']);
  const version = wall([SKED, '--version']);
  const status = wall([SKED, 'job', 'status'], { ...process.env, SKED_ADDR: address });
  const basePeak = peakMiB(['-e', '0']);
  const versionPeak = peakMiB([SKED, '--version']);
  console.log(`sked start-up, median of ${RUNS} runs (${SKED})`);
  line('node -e 0 (baseline)', base, 'ms', '-', 1);
  line('sked --version', version, 'ms', '2.5x', version / base);
  line('sked job status (local server)', status, 'ms', '4x', status / base);
  if (versionPeak !== undefined && basePeak !== undefined) {
    line('node -e 0 peak RSS (baseline)', basePeak, 'MiB', '-');
    line('sked --version peak RSS', versionPeak, 'MiB', '60 MiB');
  } else console.log('peak RSS: GNU time (/usr/bin/time) not found');
} finally {
  server.kill('SIGTERM');
}
