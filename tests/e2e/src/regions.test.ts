// Three real sked-server processes federated as regions west, east and north (east joins west,
// north joins east): every member lists every region, forwards `?region=` (reads, writes,
// blocking queries, pages, filters, the event stream, exec) straight to the member serving it, and
// keeps its own ACL; a SIGKILLed member is a 5xx naming its region, is retried and comes back; a
// member restarted on another port with its data dir is found again.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@sked/scheduler-client';
import { makeJob } from '@sked/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, spawnServer } from './support.js';

const cli = fileURLToPath(import.meta.resolve('@sked/cli/bin/sked.js'));
const dir = mkdtempSync(join(tmpdir(), 'sked-regions-e2e-'));
const tokensFile = join(dir, 'tokens.json');
const OPS = 'ops-secret';
writeFileSync(
  tokensFile,
  JSON.stringify({
    tokens: [
      { name: 'ops', secret: OPS, management: true },
      {
        name: 'other',
        secret: 'other-secret',
        namespaces: { other: ['list-jobs', 'read-job', 'submit-job'] },
      },
    ],
  }),
);

interface Member {
  child: ChildProcess;
  url: string;
}
const children: ChildProcess[] = [];

function start(region: string, args: string[] = []): Promise<Member> {
  return spawnServer(
    ['--region', region, '--scheduler-port', '0', '--nodes', '1', '--heartbeat-ms', '200', '--acl'].concat([
      '--acl-tokens',
      tokensFile,
      '--enable-raw-exec',
      ...args,
    ]),
    'scheduler',
    (child) => children.push(child),
  );
}

function call(member: Member, path: string, init: RequestInit & { token?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('x-svc-token', init.token ?? OPS);
  return fetch(`${member.url}${path}`, { ...init, headers, signal: AbortSignal.timeout(15_000) });
}

async function regionsOf(member: Member): Promise<unknown> {
  return (await call(member, '/v1/regions')).json();
}

const ALL = ['east', 'north', 'west'];
const job = (id: string, meta?: Record<string, string>) =>
  JSON.stringify({
    Job: makeJob({
      ID: id,
      ...(meta === undefined ? {} : { Meta: meta }),
      task: { Name: 'worker', Driver: 'raw_exec', Config: { command: 'sleep', args: ['300'] } },
    }),
  });

let west: Member;
let east: Member;
let north: Member;
const westData = join(dir, 'west-data');

beforeAll(async () => {
  west = await start('west', ['--data-dir', westData]);
  // north joins east, which joined west: north learns west from east (transitive)
  east = await start('east', ['--join', west.url]);
  north = await start('north', ['--join', east.url]);
  for (const member of [west, east, north]) {
    await eventually(
      async () => (JSON.stringify(await regionsOf(member)) === JSON.stringify(ALL) ? true : undefined),
      'the federation',
      10_000,
    );
  }
}, 45_000);

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

describe('a federation of three processes', () => {
  it('lists every region, sorted, on every member; without region a member serves its own', async () => {
    for (const member of [west, east, north]) expect(await regionsOf(member)).toEqual(ALL);
    const members = (await (await call(west, '/v1/agent/members')).json()) as {
      Members: { Tags: { region: string }; Status: string }[];
    };
    expect(members.Members.map((m) => [m.Tags.region, m.Status])).toEqual([
      ['east', 'alive'],
      ['north', 'alive'],
      ['west', 'alive'],
    ]);
    expect((await call(west, '/v1/status/leader')).status).toBe(200);
  });

  it('writes through any member land in the named region only, with its Region', async () => {
    const created = await call(west, '/v1/jobs?region=north', { method: 'POST', body: job('fw-1') });
    expect(created.status).toBe(200);
    const direct = await call(north, '/v1/job/fw-1');
    expect(((await direct.json()) as { Region: string }).Region).toBe('north');
    expect((await call(west, '/v1/job/fw-1')).status).toBe(404);
    expect((await call(east, '/v1/job/fw-1')).status).toBe(404);
    // the answer through east is north's: status, body and X-Svc-* headers
    const [a, b] = await Promise.all([call(east, '/v1/job/fw-1?region=north'), call(north, '/v1/job/fw-1')]);
    expect(a.status).toBe(200);
    expect(a.headers.get('x-svc-index')).toBe(b.headers.get('x-svc-index'));
    expect(a.headers.get('content-type')).toBe('application/json');
    expect(await a.text()).toBe(await b.text());
  });

  it("sends a job write without ?region= to the job's Region, where that member checks the token", async () => {
    const withRegion = (id: string) => {
      const body = JSON.parse(job(id)) as { Job: Record<string, unknown> };
      body.Job['Region'] = 'north';
      return JSON.stringify(body);
    };
    const denied = await call(west, '/v1/jobs', {
      method: 'POST',
      body: withRegion('jr-1'),
      token: 'other-secret',
    });
    expect([denied.status, await denied.text()]).toEqual([403, 'Permission denied']);
    const created = await call(west, '/v1/jobs', { method: 'POST', body: withRegion('jr-1') });
    expect(created.status).toBe(200);
    expect(((await (await call(north, '/v1/job/jr-1')).json()) as { Region: string }).Region).toBe('north');
    expect((await call(west, '/v1/job/jr-1')).status).toBe(404);
  });

  it('holds a blocking query on the region for its wait and wakes it on a change there', async () => {
    const first = await call(north, '/v1/jobs');
    const index = Number(first.headers.get('x-svc-index'));
    const started = Date.now();
    const idle = await call(west, `/v1/jobs?region=north&index=${index + 1000}&wait=1500ms`);
    expect(idle.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    // Act: a write on north wakes the waiter held through east (other changes of north, such as
    // an allocation starting, may wake it first: it then waits again from the index it got)
    const woken = (async () => {
      let after = index;
      for (;;) {
        const response = await call(east, `/v1/jobs?region=north&index=${after}&wait=20s`);
        after = Number(response.headers.get('x-svc-index'));
        const ids = ((await response.json()) as { ID: string }[]).map((j) => j.ID);
        if (ids.includes('fw-wake')) return Date.now();
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const written = Date.now();
    await call(north, '/v1/jobs', { method: 'POST', body: job('fw-wake') });
    // Assert: long before the 20 s wait
    expect((await woken) - written).toBeLessThan(5_000);
  });

  it('pages with next_token and filters through a member', async () => {
    for (const id of ['pg-a', 'pg-b', 'pg-c']) {
      await call(north, '/v1/jobs', { method: 'POST', body: job(id, { team: id === 'pg-b' ? 'x' : 'y' }) });
    }
    const page = await call(west, '/v1/jobs?region=north&prefix=pg-&per_page=2');
    expect(((await page.json()) as { ID: string }[]).map((j) => j.ID)).toEqual(['pg-a', 'pg-b']);
    const token = page.headers.get('x-svc-nexttoken');
    expect(token).toBe('default.pg-c');
    const next = await call(west, `/v1/jobs?region=north&prefix=pg-&per_page=2&next_token=${token}`);
    expect(((await next.json()) as { ID: string }[]).map((j) => j.ID)).toEqual(['pg-c']);
    expect(next.headers.get('x-svc-nexttoken')).toBeNull();
    const filter = encodeURIComponent('Meta.team == "x"');
    const filtered = await call(east, `/v1/jobs?region=north&filter=${filter}`);
    expect(((await filtered.json()) as { ID: string }[]).map((j) => j.ID)).toEqual(['pg-b']);
  });

  it('streams the region event stream through a member as events happen', async () => {
    const index = Number((await call(north, '/v1/jobs')).headers.get('x-svc-index'));
    const response = await call(west, `/v1/event/stream?region=north&topic=Job&index=${index + 1}`);
    expect(response.status).toBe(200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    await call(north, '/v1/jobs', { method: 'POST', body: job('ev-1') });
    let seen = '';
    while (!seen.includes('"ev-1"')) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += value;
    }
    await reader.cancel();
    expect(seen).toContain('"Topic":"Job"');
    expect(seen).toContain('"ev-1"');
  });

  it('relays exec both ways and keeps the close codes', async () => {
    await call(north, '/v1/jobs', { method: 'POST', body: job('ex-1') });
    const allocId = await eventually(
      async () => {
        const allocs = (await (await call(north, '/v1/job/ex-1/allocations')).json()) as {
          ID: string;
          ClientStatus: string;
        }[];
        return allocs.find((a) => a.ClientStatus === 'running')?.ID;
      },
      'a running allocation',
      10_000,
    );
    const client = createClient({ address: west.url, token: OPS, region: 'north', env: false });
    const session = client.exec(allocId, 'worker', ['sh', '-c', 'cat; exit 3']);
    session.write('across regions\n');
    session.closeStdin();
    let out = '';
    for await (const chunk of session.stdout) out += Buffer.from(chunk).toString('utf8');
    expect(out).toBe('across regions\n');
    expect(await session.exitCode).toBe(3);
    const refused = await client.exec(allocId, 'nope', ['true']).exitCode.catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 1008, reason: `task "nope" not found in allocation ${allocId}` });
    const denied = createClient({ address: east.url, token: 'other-secret', region: 'north', env: false });
    expect(
      await denied.exec(allocId, 'worker', ['true']).exitCode.catch((error: unknown) => error),
    ).toMatchObject({ code: 1008 });
  });

  it('keeps the 400 of a region no member serves, hostile names included', async () => {
    for (const name of ['nope', '__proto__', 'constructor', '../x', 'x'.repeat(5000)]) {
      const response = await call(west, `/v1/jobs?region=${encodeURIComponent(name)}`);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await response.text()).toBe(`No path to region ${JSON.stringify(name)}`);
    }
  });

  it('lets each member enforce its own ACL on the token that travels unchanged', async () => {
    const denied = await call(west, '/v1/jobs?region=north', {
      method: 'POST',
      body: job('acl-1'),
      token: 'other-secret',
    });
    expect(denied.status).toBe(403);
    expect(await denied.text()).toBe('Permission denied');
    const unknown = await call(west, '/v1/jobs?region=north', { token: 'no-such-token' });
    expect([unknown.status, await unknown.text()]).toEqual([403, 'ACL token not found']);
    const other = await call(west, '/v1/jobs?region=north&namespace=other', {
      method: 'POST',
      body: job('acl-2'),
      token: 'other-secret',
    });
    expect(other.status).toBe(200);
    expect((await call(north, '/v1/job/acl-1')).status).toBe(404);
    // the membership exchange needs a management token
    expect(
      (await call(west, '/v1/internal/regions/sync', { method: 'POST', body: '{}', token: 'other-secret' }))
        .status,
    ).toBe(403);
  });

  it('refuses a foreign Origin or Host before forwarding anything', async () => {
    const response = await call(west, '/v1/jobs?region=north', {
      method: 'POST',
      body: job('origin-1'),
      headers: { origin: 'http://evil.example' },
    });
    expect(response.status).toBe(403);
    expect(await response.text()).toMatch(/^Origin "http:\/\/evil.example" is not allowed/);
    expect((await call(north, '/v1/job/origin-1')).status).toBe(404);
  });

  it('works from the CLI with --region and SKED_REGION through any member', () => {
    const run = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(process.execPath, [cli, ...args], {
        encoding: 'utf8',
        env: { ...process.env, SKED_ADDR: east.url, SKED_TOKEN: OPS, ...env },
        timeout: 20_000,
      });
    const flag = run(['job', 'status', 'fw-1', '--json', '--region', 'north']);
    expect(flag.stderr).toBe('');
    expect((JSON.parse(flag.stdout) as { Job: { Region: string } }).Job.Region).toBe('north');
    const env = run(['job', 'status', 'fw-1', '--json'], { SKED_REGION: 'north' });
    expect((JSON.parse(env.stdout) as { Job: { ID: string } }).Job.ID).toBe('fw-1');
    expect(run(['job', 'status', 'fw-1']).status).toBe(1); // east has no such job
    const members = run(['server', 'members', '--region', 'north']);
    expect(members.stdout).toMatch(/north\s*$/m);
  });
});

describe('members going away', () => {
  it('answers a 5xx naming a hung (SIGSTOPped) region within seconds, but holds a blocking query for its wait', async () => {
    north.child.kill('SIGSTOP');
    try {
      const started = Date.now();
      const [plain, write, blocking] = await Promise.all([
        call(west, '/v1/jobs?region=north').then(
          async (r) => [r.status, await r.text(), Date.now()] as const,
        ),
        call(east, '/v1/jobs?region=north', { method: 'POST', body: job('hung-1') }).then(
          async (r) => [r.status, await r.text(), Date.now()] as const,
        ),
        call(west, '/v1/jobs?region=north&index=1&wait=2s').then(
          async (r) => [r.status, await r.text(), Date.now()] as const,
        ),
      ]);
      for (const [status, text, at] of [plain, write]) {
        expect(status).toBe(504);
        expect(text).toMatch(/^Region "north" did not answer in time/);
        expect(at - started).toBeLessThan(12_000); // the 5 s deadline, with room for a loaded machine
      }
      // held for the whole wait and its jitter (2 s + 2/16 s), then the same 5xx
      expect(blocking[0]).toBe(504);
      expect(blocking[1]).toMatch(/^Region "north" did not answer in time/);
      expect(blocking[2] - started).toBeGreaterThanOrEqual(2_100);
      expect((await call(west, '/v1/jobs')).status).toBe(200);
    } finally {
      north.child.kill('SIGCONT');
    }
    await eventually(
      async () => ((await call(west, '/v1/jobs?region=north')).status === 200 ? true : undefined),
      'north answers again',
      15_000,
    );
  }, 30_000);

  it('answers a 5xx naming a SIGKILLed region at once, serves its own, retries and recovers it', async () => {
    const port = new URL(north.url).port;
    north.child.kill('SIGKILL');
    await new Promise((resolve) => north.child.once('exit', resolve));
    const started = Date.now();
    const down = await call(west, '/v1/jobs?region=north');
    expect(Date.now() - started).toBeLessThan(3_500);
    expect(down.status).toBeGreaterThanOrEqual(500);
    expect(await down.text()).toMatch(/^Region "north" is unreachable/);
    expect((await call(west, '/v1/jobs')).status).toBe(200);
    expect(await regionsOf(west)).toEqual(ALL);
    // back on the same address, without a data dir or --join: the others' retries find it
    north = await start('north', ['--scheduler-port', port]);
    await eventually(
      async () => (JSON.stringify(await regionsOf(north)) === JSON.stringify(ALL) ? true : undefined),
      'north rejoined',
      15_000,
    );
    expect((await call(west, '/v1/jobs?region=north')).status).toBe(200);
  });

  it('keeps the others connected while the joined member is down, and finds it again on another port with its data dir', async () => {
    west.child.kill('SIGKILL');
    await new Promise((resolve) => west.child.once('exit', resolve));
    // east and north joined west, yet reach each other directly while it is gone
    expect((await call(east, '/v1/jobs?region=north')).status).toBe(200);
    expect((await call(north, '/v1/jobs?region=east')).status).toBe(200);
    west = await start('west', ['--data-dir', westData]);
    expect(await regionsOf(west)).toEqual(ALL); // from the data dir, before any exchange
    await eventually(
      async () => ((await call(east, '/v1/jobs?region=west')).status === 200 ? true : undefined),
      'east reaches the new west',
      15_000,
    );
    expect((await call(north, '/v1/regions?region=west')).status).toBe(200);
  });
});
