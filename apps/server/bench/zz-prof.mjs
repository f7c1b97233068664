import { spawn } from 'node:child_process';
import { Agent, request } from 'undici';
const main = '/work/wt/wreg3/apps/server/dist/main.js';
function launch(args, pre = []) {
  const child = spawn(process.execPath, [...pre, main, '--scheduler-port', '0', '--nodes', '1', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((resolve) => child.stdout.on('data', (c) => { out += c; const m = /scheduler listening on (\S+)/.exec(out); if (m) resolve({ url: m[1], child }); }));
}
const east = await launch(['--region', 'east']);
const west = await launch(['--region', 'west', '--join', east.url], process.argv[2] ? ['--cpu-prof', '--cpu-prof-dir=/tmp/wreg3/prof'] : []);
const client = new Agent({ connections: null });
const call = async (url, init = {}) => { const a = await request(url, { dispatcher: client, ...init }); const t = await a.body.text(); if (a.statusCode !== 200) throw new Error(t); return t; };
for (;;) { if (JSON.parse(await call(`${west.url}/v1/regions`)).includes('east')) break; await new Promise((r) => setTimeout(r, 50)); }
for (let i = 0; i < 20; i++) await call(`${east.url}/v1/jobs`, { method: 'POST', body: JSON.stringify({ Job: { ID: `s${i}`, Name: `s${i}`, Type: 'service', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: 0, Tasks: [{ Name: 't', Driver: 'mock', Config: {} }] }] } }) });
async function readers(url, n) { const lat = []; let left = n; await Promise.all(Array.from({ length: 100 }, async () => { while (left-- > 0) { const s = performance.now(); await call(url); lat.push(performance.now() - s); } })); lat.sort((a, b) => a - b); return lat[lat.length >> 1]; }
await readers(`${west.url}/v1/jobs?region=east`, 4000);
await readers(`${east.url}/v1/jobs`, 4000);
const r = [];
for (let i = 0; i < 3; i++) r.push([await readers(`${east.url}/v1/jobs`, 4000), await readers(`${west.url}/v1/jobs?region=east`, 4000)]);
console.log(r.map(([d, f]) => `${d.toFixed(2)} ${f.toFixed(2)} ${(f / d).toFixed(2)}x`).join('\n'));
west.child.kill('SIGINT'); east.child.kill('SIGINT');
await new Promise((r) => west.child.on('exit', r));
process.exit(0);
