// Two members in this process (west joined to east): a job write routed by the job's own Region,
// and the forwarding member's fault injection applied to what it forwards.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { makeJob } from '@sked/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../wiring/server.js';

let west: RunningServer;
let east: RunningServer;

beforeAll(async () => {
  east = await startServer({ schedulerPort: 0, nodes: 1, region: 'east' });
  west = await startServer({ schedulerPort: 0, nodes: 1, region: 'west', join: [east.scheduler.url] });
  await west.scheduler.regions.synced();
  await east.scheduler.regions.synced();
});
afterAll(async () => {
  await Promise.all([west.close(), east.close()]);
});

const jobBody = (id: string, region?: string) =>
  JSON.stringify({ Job: makeJob({ ID: id, ...(region === undefined ? {} : { Region: region }) }) });

async function call(
  member: RunningServer,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; text: string; ms: number }> {
  const started = Date.now();
  const response = await fetch(`${member.scheduler.url}${path}`, init);
  return { status: response.status, text: await response.text(), ms: Date.now() - started };
}

async function regionOf(member: RunningServer, id: string): Promise<string | number> {
  const read = await call(member, `/v1/job/${id}`);
  return read.status === 200 ? (JSON.parse(read.text) as { Region: string }).Region : read.status;
}

describe("a job write without ?region= goes to the job's Region", () => {
  it('forwards a register and a plan to the member serving it; the job lives there only', async () => {
    const created = await call(west, '/v1/jobs', { method: 'POST', body: jobBody('to-east', 'east') });
    expect(created.status).toBe(200);
    expect(JSON.parse(created.text)).toHaveProperty('EvalID');
    expect(await regionOf(east, 'to-east')).toBe('east');
    expect(await regionOf(west, 'to-east')).toBe(404);
    // an update through the job's own path, and a plan (no job is written by it)
    const updated = await call(west, '/v1/job/to-east', { method: 'PUT', body: jobBody('to-east', 'east') });
    expect(updated.status).toBe(200);
    const plan = await call(west, '/v1/job/plan-east/plan', {
      method: 'POST',
      body: jobBody('plan-east', 'east'),
    });
    expect(plan.status).toBe(200);
    expect(JSON.parse(plan.text)).toHaveProperty('Diff');
    expect(await regionOf(east, 'plan-east')).toBe(404);
  });

  it("lets the query's region win (the job takes it), and serves global or no Region here", async () => {
    expect(
      (await call(west, '/v1/jobs?region=west', { method: 'POST', body: jobBody('q-wins', 'east') })).status,
    ).toBe(200);
    expect(await regionOf(west, 'q-wins')).toBe('west');
    expect(await regionOf(east, 'q-wins')).toBe(404);
    for (const [id, region] of [
      ['global-job', 'global'],
      ['no-region', undefined],
    ] as const) {
      expect((await call(west, '/v1/jobs', { method: 'POST', body: jobBody(id, region) })).status).toBe(200);
      expect(await regionOf(west, id)).toBe('west');
    }
  });

  it('keeps the 400 for a region no member serves, hostile names included, and writes nothing', async () => {
    for (const name of ['mars', '__proto__', 'constructor', '../east']) {
      const refused = await call(west, '/v1/jobs', { method: 'POST', body: jobBody('lost', name) });
      expect([refused.status, refused.text]).toEqual([400, `No path to region ${JSON.stringify(name)}`]);
    }
    expect(await regionOf(west, 'lost')).toBe(404);
    expect(await regionOf(east, 'lost')).toBe(404);
  });

  it('refuses a malformed body here, before any forwarding', async () => {
    const bad = await call(west, '/v1/jobs', { method: 'POST', body: '{"Job": {"Region": "east"' });
    expect(bad.status).toBe(400);
    expect(await regionOf(east, '')).toBe(404);
  });
});

describe("the forwarding member's faults apply to what it forwards", () => {
  afterEach(() => {
    west.faults.clear();
    east.faults.clear();
  });

  it('answers an injected status for a forwarded read and write, once, then forwards again', async () => {
    const read = west.faults.inject({ service: 'scheduler', method: 'GET', path: '/v1/jobs', status: 503 });
    const failed = await call(west, '/v1/jobs?region=east');
    expect([failed.status, failed.text]).toEqual([503, 'injected fault']);
    expect(read.applied).toBe(1);
    expect((await call(west, '/v1/jobs?region=east')).status).toBe(200);
    west.faults.inject({ service: 'scheduler', method: 'POST', path: '/v1/jobs', status: 500 });
    const write = await call(west, '/v1/jobs?region=east', { method: 'POST', body: jobBody('faulted') });
    expect(write.status).toBe(500);
    expect(await regionOf(east, 'faulted')).toBe(404);
  });

  it("adds an injected latency to a forwarded read; the other member's rules stay its own", async () => {
    west.faults.inject({ path: '/v1/jobs', delayMs: 300 });
    const slow = await call(west, '/v1/jobs?region=east');
    expect(slow.status).toBe(200);
    expect(slow.ms).toBeGreaterThanOrEqual(290);
    // a rule on east applies to what reaches east, forwarded or not
    east.faults.inject({ path: '/v1/jobs', status: 502 });
    expect((await call(west, '/v1/jobs?region=east')).status).toBe(502);
  });

  it('forwards while leaderless: the service forwards to a region before looking for its leader', async () => {
    west.faults.leaderless();
    expect((await call(west, '/v1/jobs')).text).toBe('No cluster leader');
    expect((await call(west, '/v1/jobs?region=east')).status).toBe(200);
    expect(
      (await call(west, '/v1/jobs?region=east', { method: 'POST', body: jobBody('leaderless-east') })).status,
    ).toBe(200);
    west.faults.leaderless(false);
  });

  it('cuts a forwarded blocking query with drop, like any open request of this member', async () => {
    // the volumes table, which nothing here changes (the jobs' allocations move on meanwhile)
    const index = (await fetch(`${east.scheduler.url}/v1/volumes?type=csi`)).headers.get('x-svc-index');
    const waiting = fetch(
      `${west.scheduler.url}/v1/volumes?type=csi&region=east&index=${index}&wait=30s`,
    ).then(
      () => 'answered',
      () => 'cut',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(west.faults.drop({ path: '/v1/volumes' })).toBe(1);
    expect(await waiting).toBe('cut');
  });
});

describe('--advertise', () => {
  it('gives the others the advertised address, which they then forward to', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const advertised = `http://localhost:${port}`;
    const north = await startServer({
      bind: '127.0.0.1',
      schedulerPort: port,
      nodes: 0,
      region: 'north',
      advertise: advertised,
      join: [east.scheduler.url],
    });
    try {
      await north.scheduler.regions.synced();
      await east.scheduler.regions.synced();
      await west.scheduler.regions.synced();
      const members = JSON.parse((await call(west, '/v1/agent/members')).text) as {
        Members: { Tags: { region: string; address: string } }[];
      };
      expect(members.Members.find((m) => m.Tags.region === 'north')?.Tags.address).toBe(advertised);
      const through = await call(west, '/v1/regions?region=north');
      expect([through.status, JSON.parse(through.text)]).toEqual([200, ['east', 'north', 'west']]);
    } finally {
      await north.close();
    }
  });

  it('refuses an address that is not a scheduling origin, naming it', async () => {
    await expect(
      startServer({ schedulerPort: 0, nodes: 0, region: 'south', advertise: 'localhost:4646' }),
    ).rejects.toThrow(/^advertise: a member address is .*"localhost:4646"/);
  });
});
