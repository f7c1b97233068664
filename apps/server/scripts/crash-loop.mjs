// The kill -9 crash loop of `sked-server --data-dir` (see the README's "Durable state"):
//   node scripts/crash-loop.mjs [--kills 60] [--clients 16] [--seconds 0]
// Runs dist/main.js on one data dir; many concurrent clients write (register, update, dispatch,
// stop, volume register, LDAP user write, mesh peering token); the process is killed with SIGKILL at a random moment; it is started
// again and every acknowledged write must be there, and nothing half-written. `npm test` runs a
// bounded form of it (src/durable/crash.test.ts); this file run directly is the longer soak.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = 'crash-loop-root-token';
const MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main.js');

/** Starts the server on `dir`; resolves with its URL and child once the ready line is printed. */
function startServer(dir) {
  const child = spawn(
    process.execPath,
    [
      MAIN,
      '--scheduler-port',
      '0',
      '--secrets-port',
      '0',
      '--mesh-port',
      '0',
      '--nodes',
      '2',
      '--secrets-root-token',
      ROOT,
      '--data-dir',
      dir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line in 60 s: ${out} ${err}`)), 60_000);
    child.stdout.on('data', (c) => {
      out += c;
      const m = /^scheduler listening on (http:\/\/\S+)$/m.exec(out);
      const s = /^secrets listening on (http:\/\/\S+)$/m.exec(out);
      const g = /^mesh listening on (http:\/\/\S+)$/m.exec(out);
      if (m && s && g) {
        clearTimeout(timer);
        resolve({ child, url: m[1], secrets: s[1], mesh: g[1] });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited ${code} before ready: ${err}`));
    });
  });
}

const jobBody = (id, seq, extra = {}) => ({
  Job: {
    ID: id,
    Type: 'batch',
    Meta: { seq: String(seq) },
    TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'mock', Config: { run_for: '30s' } }] }],
    ...extra,
  },
});

/**
 * What clients were told (acknowledged) and what they sent without an answer (in flight at the
 * kill: may or may not be stored).
 */
function createLedger() {
  return {
    jobs: new Map(), // id -> { ackedModify, ackedSeq, seqs:Set (sent), stopped: bool, stopSent: bool, evals: [] }
    children: new Set(), // dispatched child IDs acknowledged
    volumes: new Set(), // acknowledged volume IDs
    sentVolumes: new Set(),
    users: new Map(), // LDAP user -> acknowledged policy
    sentUsers: new Map(), // LDAP user -> the last policy sent
    peerings: new Set(), // acknowledged peering names
    sentPeerings: new Set(),
    maxIndex: 0,
    acked: 0,
  };
}

async function send(url, method, path, body) {
  const res = await fetch(url + path, {
    method,
    headers: { 'x-secrets-token': ROOT },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status !== 200 && res.status !== 204)
    throw Object.assign(new Error(`${method} ${url}${path}: ${res.status} ${text}`), { status: res.status });
  return { index: Number(res.headers.get('x-svc-index')), json: text === '' ? null : JSON.parse(text) };
}

/** One client: random writes until `stop.aborted`. Connection errors (the kill) end it. */
async function client(server, ledger, name, stop, rand) {
  const { url } = server;
  let n = 0;
  while (!stop.aborted) {
    const r = rand();
    try {
      if (r < 0.4 || ledger.jobs.size === 0) {
        const id = `${name}-${n++}`;
        const entry = {
          ackedModify: 0,
          ackedSeq: -1,
          seqs: new Set([0]),
          stopped: false,
          stopSent: false,
          evals: [],
        };
        ledger.jobs.set(id, entry);
        const { index, json } = await send(url, 'PUT', '/v1/jobs', jobBody(id, 0));
        entry.ackedModify = Math.max(entry.ackedModify, json.JobModifyIndex);
        entry.ackedSeq = Math.max(entry.ackedSeq, 0);
        entry.evals.push(json.EvalID);
        ledger.maxIndex = Math.max(ledger.maxIndex, index);
      } else if (r < 0.65) {
        const own = [...ledger.jobs].filter(([id, e]) => id.startsWith(`${name}-`) && !e.stopSent);
        if (own.length === 0) continue;
        const [id, entry] = own[Math.floor(rand() * own.length)];
        const seq = Math.max(...entry.seqs) + 1;
        entry.seqs.add(seq);
        const { index, json } = await send(url, 'PUT', `/v1/job/${encodeURIComponent(id)}`, jobBody(id, seq));
        entry.ackedModify = Math.max(entry.ackedModify, json.JobModifyIndex);
        entry.ackedSeq = Math.max(entry.ackedSeq, seq);
        ledger.maxIndex = Math.max(ledger.maxIndex, index);
      } else if (r < 0.75) {
        const { index, json } = await send(url, 'PUT', '/v1/job/crash-param/dispatch', {
          Meta: { input: name },
        });
        ledger.children.add(json.DispatchedJobID);
        ledger.maxIndex = Math.max(ledger.maxIndex, index);
      } else if (r < 0.8) {
        const own = [...ledger.jobs].filter(
          ([id, e]) => id.startsWith(`${name}-`) && !e.stopSent && e.ackedSeq >= 0,
        );
        if (own.length === 0) continue;
        const [id, entry] = own[Math.floor(rand() * own.length)];
        entry.stopSent = true;
        const { index } = await send(url, 'DELETE', `/v1/job/${encodeURIComponent(id)}`);
        entry.stopped = true;
        ledger.maxIndex = Math.max(ledger.maxIndex, index);
      } else if (r < 0.85) {
        // A user belongs to one client, so its writes are in order: the last one sent is the newest.
        const user = `${name}-u${Math.floor(rand() * 3)}`;
        const policy = `${name}-p${n++}`;
        ledger.sentUsers.set(user, policy);
        await send(server.secrets, 'POST', `/v1/auth/ldap/users/${user}`, { policies: policy });
        ledger.users.set(user, policy);
      } else if (r < 0.9) {
        const peer = `${name}-peer-${n++}`;
        ledger.sentPeerings.add(peer);
        await send(server.mesh, 'POST', '/v1/peering/token', { PeerName: peer });
        ledger.peerings.add(peer);
      } else {
        const id = `${name}-vol-${n++}`;
        ledger.sentVolumes.add(id);
        const vol = {
          Volumes: [
            {
              ID: id,
              Name: id,
              PluginID: 'p',
              AccessMode: 'single-node-writer',
              AttachmentMode: 'file-system',
            },
          ],
        };
        const { index } = await send(url, 'PUT', `/v1/volume/csi/${id}`, vol);
        ledger.volumes.add(id);
        ledger.maxIndex = Math.max(ledger.maxIndex, index);
      }
      ledger.acked++;
    } catch (error) {
      if (error.status !== undefined) throw error; // an HTTP error answer is a failure, not the kill
      return; // connection refused or reset: the server was killed
    }
  }
}

/** Checks the LDAP users and mesh peerings (secrets and mesh services). */
async function verifyServices(server, ledger, problems) {
  // A user holds the last policy acknowledged, or one sent later whose answer was lost in the kill.
  for (const [user, policy] of ledger.users) {
    const res = await fetch(`${server.secrets}/v1/auth/ldap/users/${user}`, {
      headers: { 'x-secrets-token': ROOT },
    });
    if (res.status !== 200) {
      problems.push(`acknowledged LDAP user ${user} is missing (${res.status})`);
      continue;
    }
    const held = (await res.json()).data.policies[0];
    if (held !== policy && held !== ledger.sentUsers.get(user))
      problems.push(`LDAP user ${user} holds ${held}: neither the acknowledged ${policy} nor the last sent`);
  }
  for (const peer of ledger.peerings) {
    const res = await fetch(`${server.mesh}/v1/peering/${peer}`);
    if (res.status !== 200) problems.push(`acknowledged peering ${peer} is missing (${res.status})`);
  }
}

/** Checks the restarted server against the ledger; returns the problems found. */
async function verify(server, ledger) {
  const { url } = server;
  const problems = [];
  await verifyServices(server, ledger, problems);
  const jobsRes = await fetch(`${url}/v1/jobs`);
  const index = Number(jobsRes.headers.get('x-svc-index'));
  const jobs = new Map((await jobsRes.json()).map((j) => [j.ID, j]));
  if (index < ledger.maxIndex)
    problems.push(`index ${index} is below the highest acknowledged ${ledger.maxIndex}`);
  for (const [id, e] of ledger.jobs) {
    const j = jobs.get(id);
    if (e.ackedSeq < 0) {
      continue; // never acknowledged: may or may not exist
    }
    if (j === undefined) {
      problems.push(`acknowledged job ${id} is missing`);
      continue;
    }
    if (j.JobModifyIndex < e.ackedModify)
      problems.push(`job ${id} JobModifyIndex ${j.JobModifyIndex} < acknowledged ${e.ackedModify}`);
    if (e.stopped && !j.Stop) problems.push(`acknowledged stop of ${id} is lost`);
    if (j.JobSummary === null || j.JobSummary === undefined)
      problems.push(`job ${id} has no summary (half a write)`);
  }
  for (const id of ledger.children)
    if (!jobs.has(id)) problems.push(`acknowledged dispatched job ${id} is missing`);
  for (const [id, j] of jobs) {
    if (j.JobSummary === null || j.JobSummary === undefined)
      problems.push(`stored job ${id} has no summary (half a write)`);
  }
  // A sample of jobs in full: the stored job is one that was sent, its version and its evaluation are there.
  const sample = [...ledger.jobs].filter(([, e]) => e.ackedSeq >= 0).slice(-8);
  for (const [id, e] of sample) {
    const job = await (await fetch(`${url}/v1/job/${encodeURIComponent(id)}`)).json();
    const seq = Number(job.Meta?.seq);
    if (!e.seqs.has(seq) || seq < e.ackedSeq)
      problems.push(`job ${id} holds seq ${seq}, sent ${[...e.seqs].join(',')}, acknowledged ${e.ackedSeq}`);
    const versions = await (await fetch(`${url}/v1/job/${encodeURIComponent(id)}/versions`)).json();
    if (!versions.Versions.some((v) => v.Version === job.Version))
      problems.push(`job ${id} version ${job.Version} has no version record`);
    const evals = new Set(
      (await (await fetch(`${url}/v1/job/${encodeURIComponent(id)}/evaluations`)).json()).map((x) => x.ID),
    );
    if (!e.evals.every((x) => evals.has(x))) problems.push(`job ${id} lost an acknowledged evaluation`);
  }
  const volumes = new Set((await (await fetch(`${url}/v1/volumes?type=csi`)).json()).map((v) => v.ID));
  for (const id of ledger.volumes)
    if (!volumes.has(id)) problems.push(`acknowledged volume ${id} is missing`);
  for (const id of volumes) if (!ledger.sentVolumes.has(id)) problems.push(`volume ${id} was never sent`);
  return problems;
}

function mulberry(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Runs the loop.
 * @param {{ kills: number, clients: number, seconds?: number, minKills?: number, seed?: number, log?: (line: string) => void }} options
 *   `seconds` > 0 ends the loop after that time even before `kills`, but never before `minKills`
 *   kills (default 1) were made: on a loaded machine a kill cycle takes longer, and the check
 *   must still see several restarts.
 * @returns {Promise<{ kills: number, acked: number, jobs: number, problems: string[] }>}
 */
export async function runCrashLoop(options) {
  const dir = mkdtempSync(join(tmpdir(), 'sked-crash-'));
  const rand = mulberry(options.seed ?? Date.now());
  const ledger = createLedger();
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const problems = [];
  let kills = 0;
  try {
    let server = await startServer(dir);
    await send(server.url, 'PUT', '/v1/jobs', {
      Job: {
        ID: 'crash-param',
        Type: 'batch',
        ParameterizedJob: { Payload: 'optional', MetaRequired: ['input'] },
        TaskGroups: [
          { Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'mock', Config: { run_for: '1s' } }] },
        ],
      },
    });
    for (;;) {
      const stop = new AbortController();
      const clients = Array.from({ length: options.clients }, (_, i) =>
        client(server, ledger, `k${kills}c${i}`, stop.signal, rand),
      );
      await new Promise((r) => setTimeout(r, 100 + Math.floor(rand() * 900)));
      const exited = new Promise((r) => server.child.once('exit', r));
      // No request starts after the kill (its port may be taken by another process at once);
      // the requests in flight are cut by it.
      stop.abort();
      server.child.kill('SIGKILL');
      kills++;
      await exited;
      await Promise.all(clients);
      server = await startServer(dir);
      const found = await verify(server, ledger);
      log(
        `kill ${kills}: ${ledger.acked} writes acknowledged so far, ${ledger.jobs.size} jobs, ${ledger.users.size} users, ${ledger.peerings.size} peerings sent, ${found.length} problems`,
      );
      problems.push(...found.map((p) => `after kill ${kills}: ${p}`));
      const timeUp =
        options.seconds !== undefined &&
        options.seconds > 0 &&
        Date.now() - started > options.seconds * 1000 &&
        kills >= (options.minKills ?? 1);
      if (kills >= options.kills || timeUp || problems.length > 0) break;
    }
    const exited = new Promise((r) => server.child.once('exit', r));
    server.child.kill('SIGTERM');
    await exited;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { kills, acked: ledger.acked, jobs: ledger.jobs.size, problems };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      kills: { type: 'string', default: '60' },
      clients: { type: 'string', default: '16' },
      seconds: { type: 'string', default: '0' },
      seed: { type: 'string' },
    },
  });
  const result = await runCrashLoop({
    kills: Number(values.kills),
    clients: Number(values.clients),
    seconds: Number(values.seconds),
    ...(values.seed === undefined ? {} : { seed: Number(values.seed) }),
    log: (line) => console.log(line),
  });
  console.log(
    `${result.kills} kills, ${result.acked} acknowledged writes, ${result.jobs} jobs sent: ` +
      (result.problems.length === 0
        ? 'every acknowledged write is there, nothing half-written'
        : `${result.problems.length} problems`),
  );
  for (const p of result.problems.slice(0, 50)) console.log(`  ${p}`);
  process.exit(result.problems.length === 0 ? 0 : 1);
}
