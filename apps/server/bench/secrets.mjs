// Benchmark of the secrets service (run after `pnpm --filter @sked/server build`):
//   node bench/secrets.mjs [--seconds 3] [--rounds 5] [--concurrency 32] [--users 10000]
// 1. Logins per second through sked-server (its own process; HTTP → ldapts → OpenLDAP: connect,
//    service bind, user search, group search, user bind, token) at 32 concurrent logins, as a ratio to
//    the plainest ldapts code doing a login by hand against the same slapd in the same run (new
//    client, service bind, user search, user bind, group search, unbind), also 32 at a time.
// 2. p99 latency of a login through the server at 32 concurrent logins.
// 3. LIST of 10,000 users over HTTP, against a bare node:http server answering the same JSON.
import http from 'node:http';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { Client } from 'ldapts';
import { startSlapd } from '@sked/testkit/slapd';
import { startSecretsServer } from './support.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '32' },
    users: { type: 'string', default: '10000' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);
const userCount = Number(values.users);

const slapd = await startSlapd();
// The server runs as its own process (as sked-server does), so that it does not share a thread
// with the load generator and the baseline.
const root = 'bench-root-token';
const { child, base } = await startSecretsServer(root);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

function request(method, path, body, token) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${base}${path}`,
      {
        method,
        agent,
        headers: {
          ...(token === undefined ? {} : { 'x-secrets-token': token }),
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const config = slapd.authConfig;
const written = await request('POST', '/v1/auth/ldap/config', config, root);
if (written.status !== 204) throw new Error(`config write failed: ${written.body}`);
await request('POST', '/v1/auth/ldap/groups/admins', { policies: 'admin' }, root);
const people = slapd.users.filter((u) => ['alice', 'bob', 'carol'].includes(u.uid));

/** The plainest code a person would write for one login with ldapts. */
async function bareLogin(user) {
  const client = new Client({ url: slapd.url });
  try {
    await client.bind(slapd.reader.dn, slapd.reader.password);
    const { searchEntries } = await client.search(slapd.peopleDn, {
      scope: 'sub',
      filter: `(uid=${user.uid})`,
      attributes: ['dn'],
    });
    const dn = searchEntries[0].dn;
    await client.bind(dn, user.password);
    const groups = await client.search(slapd.groupsDn, {
      scope: 'sub',
      filter: `(|(memberUid=${user.uid})(member=${dn}))`,
      attributes: ['cn'],
    });
    return groups.searchEntries.length;
  } finally {
    await client.unbind();
  }
}

async function serverLogin(user) {
  const res = await request('POST', `/v1/auth/ldap/login/${user.uid}`, { password: user.password });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.body}`);
}

/** Runs `fn` from `concurrency` workers for `seconds`; returns logins/s and latencies (ms). */
async function measure(fn) {
  const latencies = [];
  const end = performance.now() + seconds * 1000;
  let i = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const user = people[i++ % people.length];
        const t = performance.now();
        await fn(user);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { rate: latencies.length / elapsed, p50: pct(50), p99: pct(99), n: latencies.length };
}

// warm up both paths
for (let k = 0; k < 50; k++) {
  await bareLogin(people[0]);
  await serverLogin(people[0]);
}
// Alternate the two in short rounds and compare each server round with the bare round just before
// it: the machine is shared, and its load moves between rounds more than between paired ones.
const pairs = [];
for (let round = 0; round < rounds; round++) {
  const bareRound = await measure(bareLogin);
  const serverRound = await measure(serverLogin);
  pairs.push({ bare: bareRound, ours: serverRound, ratio: serverRound.rate / bareRound.rate });
}
pairs.sort((a, b) => a.ratio - b.ratio);
const { bare, ours } = pairs[Math.floor(pairs.length / 2)];
const ratios = pairs.map((p) => p.ratio.toFixed(2)).join(', ');

// LIST of 10,000 users, written through the API
const names = Array.from({ length: userCount }, (_, k) => `user-${String(k).padStart(5, '0')}`);
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < names.length) {
      const name = names[next++];
      const res = await request('POST', `/v1/auth/ldap/users/${name}`, { policies: 'p' }, root);
      if (res.status !== 204) throw new Error(`user write failed: ${res.body}`);
    }
  }),
);
const baselineServer = http.createServer((_req, res) => {
  const body = JSON.stringify({
    request_id: 'x',
    lease_id: '',
    renewable: false,
    lease_duration: 0,
    data: { keys: names },
    wrap_info: null,
    warnings: null,
    auth: null,
  });
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(body);
});
await new Promise((resolve) => baselineServer.listen(0, '127.0.0.1', resolve));
const baselineUrl = `http://127.0.0.1:${baselineServer.address().port}`;

async function timeList(url, method) {
  const times = [];
  for (let k = 0; k < 40; k++) {
    const t = performance.now();
    const res = await new Promise((resolve, reject) => {
      const req = http.request(
        `${url}/v1/auth/ldap/users`,
        { method, agent, headers: { 'x-secrets-token': root } },
        (r) => {
          let bytes = 0;
          r.on('data', (c) => (bytes += c.length));
          r.on('end', () => resolve({ status: r.statusCode, bytes }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    if (res.status !== 200) throw new Error(`LIST answered ${res.status}`);
    if (k >= 5) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], max: times.at(-1) };
}
const listOurs = await timeList(base, 'LIST');
const listBare = await timeList(baselineUrl, 'GET');
baselineServer.close();

const load = os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
const row = (name, figure, target, ratio) =>
  console.log(`${name.padEnd(58)} ${figure.padStart(16)}   target ${target.padEnd(10)} ${ratio}`);
console.log(
  `secrets service benchmark (load average ${load}; ${concurrency} concurrent, ${rounds} paired rounds of ${seconds}s, median pair shown)`,
);
row(
  'bare ldapts login (bind+search+bind+group search)',
  `${bare.rate.toFixed(0)} /s`,
  '-',
  `p99 ${bare.p99.toFixed(1)} ms`,
);
row(
  'login through sked-server (HTTP+ldapts+token)',
  `${ours.rate.toFixed(0)} /s`,
  '>= 0.5x',
  `ratio ${(ours.rate / bare.rate).toFixed(2)}x (all pairs: ${ratios})`,
);
row(
  `p99 login latency at ${concurrency} concurrent`,
  `${ours.p99.toFixed(1)} ms`,
  '-',
  `p50 ${ours.p50.toFixed(1)} ms (bare p99 ${bare.p99.toFixed(1)} ms)`,
);
row(
  `LIST of ${userCount} users (median of 35)`,
  `${listOurs.median.toFixed(1)} ms`,
  '< 50 ms',
  `ratio ${(listOurs.median / listBare.median).toFixed(2)}x bare node:http (${listBare.median.toFixed(1)} ms); max ${listOurs.max.toFixed(1)} ms`,
);
const ok = ours.rate / bare.rate >= 0.5 && listOurs.median < 50;
console.log(ok ? 'targets met' : 'TARGET MISSED');

agent.destroy();
child.kill('SIGTERM');
await slapd.stop();
process.exit(0);
