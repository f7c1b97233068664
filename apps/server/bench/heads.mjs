// Benchmark of the secrets listener's request framer (run after `pnpm --filter @sked/server build`):
//   node bench/heads.mjs [--connections 200] [--head-kib 60]
// 1. Extra memory of sked-server (its own process, RSS from /proc) holding 200 connections that each
//    sent a request line and 60 KiB of one header with no newline (under the 64 KiB limit, so the
//    framer holds it), beside the target of 50 MB; the baseline is 200 idle connections, same run.
// 2. Server CPU time to refuse a 2 MB request line sent in 256-byte pieces (answered 431 once 64 KiB
//    is passed), as a ratio to the CPU time of a 2 MB body sent in 256-byte pieces in the same run.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import { startSecretsServer } from './support.mjs';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '200' },
    'head-kib': { type: 'string', default: '60' },
  },
});
const CONNECTIONS = Number(values.connections);
const HEAD_BYTES = Number(values['head-kib']) * 1024;
const TARGET_MB = 50;
const root = 'bench-root-token';

const { child, base } = await startSecretsServer(root);
const { hostname, port } = new URL(base);

const rssMb = () => {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 'NaN') / 1024;
};
const cpuMs = () => {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, 100 ticks/s
};
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** RSS once it has settled (the lowest of a few readings after the writes are in). */
async function settledRss() {
  await pause(500);
  let low = Infinity;
  for (let i = 0; i < 5; i++) {
    low = Math.min(low, rssMb());
    await pause(100);
  }
  return low;
}

function open() {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

async function openMany(first) {
  const sockets = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    const socket = await open();
    socket.on('error', () => undefined);
    if (first !== undefined) socket.write(first);
    sockets.push(socket);
  }
  return sockets;
}

// 1. memory
const start = await settledRss();
const idle = await openMany(undefined);
const withIdle = await settledRss();
for (const socket of idle) socket.destroy();
await pause(300);
const before = await settledRss();
const half = `GET /v1/auth/ldap/config HTTP/1.1\r\nHost: x\r\nX-Half: ${'h'.repeat(HEAD_BYTES)}`;
const holding = await openMany(half);
const withHeads = await settledRss();
const answered = holding.filter((s) => s.bytesRead > 0).length;
for (const socket of holding) socket.destroy();

// 2. CPU of a 2 MB line in 256-byte pieces, against a 2 MB body in 256-byte pieces
async function trickle(head, total) {
  const socket = await open();
  const closed = new Promise((resolve) => {
    socket.on('close', resolve);
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
  });
  const before = cpuMs();
  socket.write(head);
  const piece = Buffer.alloc(256, 'a');
  for (let sent = 0; sent < total && !socket.destroyed; sent += 256) {
    if (!socket.write(piece)) await new Promise((resolve) => socket.once('drain', resolve));
    if (sent % (64 * 256) === 0) await pause(0);
  }
  socket.end();
  await closed;
  return cpuMs() - before;
}
const TWO_MB = 2 * 1024 * 1024;
const bodyCpu = await trickle(
  `POST /v1/auth/ldap/login/nobody HTTP/1.1\r\nHost: x\r\nContent-Length: ${TWO_MB}\r\nConnection: close\r\n\r\n`,
  TWO_MB,
);
const lineCpu = await trickle('GET /', TWO_MB);

child.kill('SIGTERM');

const extra = withHeads - before;
const idleExtra = withIdle - start;
console.log(`secrets framer, ${CONNECTIONS} connections (RSS of sked-server, MB)`);
console.log(
  `  idle connections (baseline): +${idleExtra.toFixed(1)} MB; half-sent ${values['head-kib']} KiB heads: +${extra.toFixed(1)} MB` +
    ` (${answered} answered early)`,
);
console.log(
  `  extra memory of the half-sent heads: ${extra.toFixed(1)} MB, target < ${TARGET_MB} MB, ratio ${(extra / TARGET_MB).toFixed(2)} (<= 1 meets it)`,
);
console.log(
  `  2 MB request line in 256-byte pieces: ${lineCpu.toFixed(0)} ms CPU; 2 MB body in 256-byte pieces (baseline): ${bodyCpu.toFixed(0)} ms;` +
    ` ratio ${(lineCpu / Math.max(bodyCpu, 10)).toFixed(2)} (target <= 1)`,
);
process.exit(extra < TARGET_MB ? 0 : 1);
