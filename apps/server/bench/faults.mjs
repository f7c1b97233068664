// Benchmark of the fault injection hook's cost on a request no fault applies to (run after
// `pnpm --filter @sked/server build`):
//   node bench/faults.mjs [--passes 5] [--duration 2] [--connections 10]
// Three servers of the scheduling API (bench/faults-server.mjs, one child process each): without
// the injector ("off", faults disabled entirely), with it and no rule ("empty", as every
// sked-server runs), and with four rules that match none of the bench's requests ("miss"). Each
// takes the same load of plain reads (GET /v1/status/leader, the cheapest read, so that the hook's
// share is the largest it can be) from autocannon in this process, in alternating passes (off,
// empty, miss, off, ...). Figures: requests/s and the server's CPU time per request (utime + stime
// of its process, /proc), the median of the passes, each as a ratio to "off" in the same run.
// Target: the hook costs at most 5 % of a plain read (CPU per request ratio <= 1.05) with no rule
// and with rules that do not match.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: {
    passes: { type: 'string', default: '5' },
    duration: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
  },
});
const PASSES = Number(values.passes);
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const TARGET = 1.05;
const MODES = ['off', 'empty', 'miss'];
const loadavg = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
const loadAtStart = loadavg();

/** Starts the server of one mode; resolves its process and port. */
function start(mode) {
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('./faults-server.mjs', import.meta.url)), mode],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /^(\d+)$/m.exec(out);
      if (match) resolve({ child, port: Number(match[1]) });
    });
    child.once('exit', (code) => reject(new Error(`faults-server ${mode} exited with ${code}`)));
  });
}

/** CPU time (user + system) of a process so far, in ms (/proc counts 100 ticks a second). */
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/** One pass of load on one server: requests/s and server CPU µs per request. */
async function pass({ child, port }) {
  const cpuBefore = cpuMs(child.pid);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/v1/status/leader`,
    connections: CONNECTIONS,
    duration: DURATION,
  });
  const cpu = cpuMs(child.pid) - cpuBefore;
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`port ${port}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    rps: result.requests.average,
    cpuUs: (cpu * 1000) / result.requests.total,
    p99: result.latency.p99,
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const servers = Object.fromEntries(await Promise.all(MODES.map(async (mode) => [mode, await start(mode)])));
const runs = Object.fromEntries(MODES.map((mode) => [mode, []]));
try {
  for (const mode of MODES) await pass(servers[mode]); // warm-up, not counted
  for (let i = 0; i < PASSES; i++) for (const mode of MODES) runs[mode].push(await pass(servers[mode]));
} finally {
  for (const { child } of Object.values(servers)) child.kill('SIGTERM');
}

const figures = Object.fromEntries(
  MODES.map((mode) => [
    mode,
    {
      rps: median(runs[mode].map((r) => r.rps)),
      cpuUs: median(runs[mode].map((r) => r.cpuUs)),
      p99: median(runs[mode].map((r) => r.p99)),
    },
  ]),
);
const label = {
  off: 'faults disabled (no hook)',
  empty: 'hook, no rule',
  miss: 'hook, 4 rules, none matches',
};
console.log(
  `fault injection hook, GET /v1/status/leader, ${CONNECTIONS} connections, ${PASSES} passes of ${DURATION} s (medians); load average ${loadAtStart} -> ${loadavg()}`,
);
console.log('| server | requests/s | p99 latency | server CPU / request | CPU ratio to disabled | target |');
console.log('|---|---|---|---|---|---|');
let met = true;
for (const mode of MODES) {
  const f = figures[mode];
  const ratio = f.cpuUs / figures.off.cpuUs;
  if (mode !== 'off' && ratio > TARGET) met = false;
  console.log(
    `| ${label[mode]} | ${Math.round(f.rps).toLocaleString('en')} (${(f.rps / figures.off.rps).toFixed(2)}x) | ${f.p99} ms | ${f.cpuUs.toFixed(1)} µs | ${ratio.toFixed(3)}x | ${mode === 'off' ? 'baseline' : `<= ${TARGET}x`} |`,
  );
}
console.log(met ? 'target met' : 'TARGET NOT MET');
