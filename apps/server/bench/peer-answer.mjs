// Benchmark of what an endless peer costs the establishing server (issue 31, item 3): a real
// sked-server process establishes 4 peerings at once with a peer whose exchange answer never ends,
// and, as the baseline in the same run, 4 with a peer that answers a short 400 at once. Printed:
// the peak growth of the server's resident memory during each (sampled every 10 ms), side by side,
// with their ratio (1 MB added to each, so that growths near zero compare sanely). Target: ratio
// at most 1.5 (the server reads at most 64 KiB of each answer; before the limit it read the
// endless answer for 2 s, and one call took a server from 118 MB to about 1.4 GB).
// Run after `pnpm --filter @sked/server build`: node bench/peer-answer.mjs [--rounds 3]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const ROUNDS = Number(values.rounds);
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));

const child = spawn(
  process.execPath,
  [main, '--scheduler-port', '0', '--secrets-port', '0', '--mesh-port', '0', '--nodes', '1'],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
process.on('exit', () => child.kill('SIGKILL'));
const mesh = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
    const match = /mesh listening on (http:\/\/\S+)/.exec(out);
    if (match) resolve(match[1]);
  });
  child.once('exit', (code) => reject(new Error(`sked-server exited with ${code}`)));
});

const rssMb = () => {
  const line = readFileSync(`/proc/${child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
  return Number(line?.[1] ?? 0) / 1024;
};

async function peer(handler) {
  const server = createServer(handler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, address: `127.0.0.1:${server.address().port}` };
}
const chunk = Buffer.alloc(64 * 1024, 'x');
const endless = await peer((request, response) => {
  request.resume();
  response.writeHead(200, { 'content-type': 'application/json' });
  response.on('error', () => undefined);
  const pump = () => {
    while (!response.destroyed && response.write(chunk));
    if (!response.destroyed) response.once('drain', pump);
  };
  pump();
});
const short = await peer((request, response) => {
  request.resume();
  response.writeHead(400, { 'content-type': 'text/plain' }).end('no');
});

const token = (address) =>
  Buffer.from(
    JSON.stringify({
      CA: null,
      ServerAddresses: [address],
      ServerName: 'server.far.peering.x.mesh',
      PeerID: '00000000-0000-4000-8000-000000000000',
      EstablishmentSecret: 'secret',
      Remote: { Partition: 'default', Datacenter: 'far' },
    }),
  ).toString('base64');

/** Peak RSS growth (MB) of the server while 4 establishes against `address` run. */
async function peakGrowth(address) {
  globalThis.gc?.();
  const before = rssMb();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 10);
  await Promise.all(
    [1, 2, 3, 4].map((i) =>
      fetch(`${mesh}/v1/peering/establish`, {
        method: 'POST',
        body: JSON.stringify({ PeerName: `p${i}`, PeeringToken: token(address) }),
      }).then((r) => r.text()),
    ),
  );
  clearInterval(sampler);
  peak = Math.max(peak, rssMb());
  return peak - before;
}

let worstEndless = 0;
let worstShort = 0;
for (let round = 0; round < ROUNDS; round++) {
  worstShort = Math.max(worstShort, await peakGrowth(short.address));
  worstEndless = Math.max(worstEndless, await peakGrowth(endless.address));
}
const ratio = (worstEndless + 1) / (worstShort + 1);
console.log(
  `peer answers, 4 establishes at once, peak RSS growth of the server (worst of ${ROUNDS} rounds):\n` +
    `  endless answer ${worstEndless.toFixed(1)} MB | short answer (baseline) ${worstShort.toFixed(1)} MB | ` +
    `ratio ${ratio.toFixed(2)} | target <= 1.50 ${ratio <= 1.5 ? 'MET' : 'MISSED'}`,
);
child.kill('SIGTERM');
endless.server.closeAllConnections();
short.server.closeAllConnections();
endless.server.close();
short.server.close();
