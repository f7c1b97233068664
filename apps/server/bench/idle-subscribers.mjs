// Benchmark of event-stream subscribers that never read (run after `pnpm --filter @sked/server build`):
//   node bench/idle-subscribers.mjs [--registrations 1500] [--subscribers 300] [--many 1000]
// The server runs as its own process (dist/main.js); the subscribers run in another: each sends
// `GET /v1/event/stream?namespace=*` and never reads a byte. The server's peak RSS (/proc) while
// 1,500 jobs are registered is compared with the same run without subscribers (the baseline):
// target, under 100 MB added for 300 subscribers. Then 1,000 such subscribers against a server
// started with --max-old-space-size=512: target, the server lives through the registrations.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { request } from './http.mjs';

const { values } = parseArgs({
  options: {
    registrations: { type: 'string', default: '1500' },
    subscribers: { type: 'string', default: '300' },
    many: { type: 'string', default: '1000' },
  },
});
const REGISTRATIONS = Number(values.registrations);
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const SUBSCRIBER = `
const net = require('node:net');
const [port, n] = process.argv.slice(1).map(Number);
for (let i = 0; i < n; i++) {
  const s = net.connect({ port, host: '127.0.0.1' });
  s.on('connect', () => { s.write('GET /v1/event/stream?namespace=* HTTP/1.1\\r\\nHost: bench\\r\\n\\r\\n'); s.pause(); });
  s.on('error', () => {});
}
setInterval(() => {}, 1000);
`;

async function startServer(heapMb) {
  const args = [
    ...(heapMb ? [`--max-old-space-size=${heapMb}`] : []),
    main,
    '--scheduler-port',
    '0',
    '--secrets-port',
    '0',
  ];
  const server = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const port = await new Promise((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`the server did not start: ${out}`)), 30_000);
    server.stdout.on('data', (d) => {
      out += d;
      const m = /127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(deadline);
        resolve(Number(m[1]));
      }
    });
    server.on('exit', (code) => reject(new Error(`the server exited (${code}): ${out}`)));
  });
  return { server, port };
}

const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

async function run(subscribers, heapMb) {
  const { server, port } = await startServer(heapMb);
  let died = false;
  server.on('exit', () => (died = true));
  const clients = spawn(process.execPath, ['-e', SUBSCRIBER, String(port), String(subscribers)], {
    stdio: 'ignore',
  });
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const start = rssOf(server.pid);
  let peak = start;
  const sampler = setInterval(() => {
    if (!died) peak = Math.max(peak, rssOf(server.pid));
  }, 50);
  const meta = 'x'.repeat(2000);
  try {
    for (let i = 0; i < REGISTRATIONS && !died; i++) {
      const body = JSON.stringify({
        Job: {
          ID: `job-${i}`,
          Name: `job-${i}`,
          Type: 'service',
          Datacenters: ['dc1'],
          Meta: { note: meta },
          TaskGroups: [
            {
              Name: 'web',
              Count: 1,
              Tasks: [{ Name: 'server', Driver: 'mock', Config: {}, Resources: { CPU: 10, MemoryMB: 10 } }],
            },
          ],
        },
      });
      const res = await request(`http://127.0.0.1:${port}/v1/jobs`, 'POST', body);
      if (res.status !== 200) throw new Error(`register: ${res.status} ${res.body.slice(0, 200)}`);
    }
  } catch (error) {
    if (!died) throw error;
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  clearInterval(sampler);
  clients.kill();
  server.kill();
  return { added: (peak - start) / 2 ** 20, peak: peak / 2 ** 20, died };
}

const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const baseline = await run(0);
const idle = await run(Number(values.subscribers));
const many = await run(Number(values.many), 512);
const extra = idle.added - baseline.added;
const rows = [
  ['Figure', 'Measured', 'Target'],
  [
    `Peak RSS added by ${REGISTRATIONS} registrations, no subscriber (baseline)`,
    `${fmt(baseline.added)} MB`,
    'reported',
  ],
  [
    `... with ${values.subscribers} idle subscribers`,
    `${fmt(idle.added)} MB (${fmt(extra)} MB over baseline; ratio ${fmt(idle.added / Math.max(1, baseline.added), 2)})`,
    '< 100 MB over baseline',
  ],
  [
    `${values.many} idle subscribers, --max-old-space-size=512`,
    many.died ? 'the server died' : `lived (peak RSS ${fmt(many.peak)} MB)`,
    'lives',
  ],
];
const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
for (const row of rows) console.log(row.map((cell, c) => cell.padEnd(widths[c])).join('  '));
if (extra >= 100 || many.died) {
  console.log('Target missed (see above).');
  process.exitCode = 1;
}
