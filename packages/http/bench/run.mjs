// Benchmark of @sked/http: what the transport adds to a bare fetch against a local server.
// Run after a build: `pnpm --filter @sked/http bench` (node bench/run.mjs). Each figure is printed
// beside its target as a ratio against a baseline measured in the same run.
import { once } from 'node:events';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';

import { createTransport } from '../dist/index.js';

const REQUESTS = 500;
const CONCURRENCY = 32;
const ROUNDS = 15;
const TARGET = 1.25;

const body = JSON.stringify([{ ID: 'example', Namespace: 'default', Status: 'running' }]);
const server = createServer((_req, res) => {
  res.writeHead(200, {
    'content-type': 'application/json',
    'x-svc-index': '42',
    'x-svc-lastcontact': '0',
    'x-svc-knownleader': 'true',
  });
  res.end(body);
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const address = `http://127.0.0.1:${server.address().port}`;
const transport = createTransport({ address, token: 'bench-token', namespace: 'default', env: false });

/** The baseline: what a caller would write by hand with fetch. */
const bare = async () => {
  const res = await fetch(`${address}/v1/jobs?namespace=default&per_page=10`, {
    headers: { 'X-Svc-Token': 'bench-token', accept: 'application/json', 'accept-encoding': 'gzip' },
  });
  const data = await res.json();
  return { data, index: Number(res.headers.get('x-svc-index')) };
};
const ours = () => transport.request({ path: '/v1/jobs', query: { per_page: 10 } });

const run = async (fn, concurrency) => {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < REQUESTS) await fn();
    }),
  );
  return performance.now() - t0;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

console.log(
  `@sked/http benchmark (node ${process.version}, ${REQUESTS} requests per round, ${ROUNDS} rounds, medians; ratio = median of per-round ratios)\n`,
);
let ok = true;
for (const concurrency of [1, CONCURRENCY]) {
  await run(bare, concurrency);
  await run(ours, concurrency);
  const a = [];
  const b = [];
  const ratios = [];
  for (let r = 0; r < ROUNDS; r++) {
    // adjacent pairs in alternating order, so that load from other processes hits both sides alike
    const first = r % 2 === 0 ? await run(bare, concurrency) : await run(ours, concurrency);
    const second = r % 2 === 0 ? await run(ours, concurrency) : await run(bare, concurrency);
    const [x, y] = r % 2 === 0 ? [first, second] : [second, first];
    a.push(x);
    b.push(y);
    ratios.push(y / x);
  }
  const base = median(a);
  const mine = median(b);
  const ratio = median(ratios);
  ok &&= ratio <= TARGET;
  console.log(
    `  ${String(concurrency).padStart(2)} in flight   transport ${((mine * 1000) / REQUESTS).toFixed(0)} µs/request   baseline (bare fetch) ${((base * 1000) / REQUESTS).toFixed(0)} µs/request   ratio ${ratio.toFixed(2)}   target <= ${TARGET.toFixed(2)}   ${ratio <= TARGET ? 'ok' : 'MISSED'}`,
  );
}
server.close();
process.exitCode = ok ? 0 : 1;
