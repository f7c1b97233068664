import { beforeAll, describe, expect, it } from 'vitest';
import { ensureOk, eventually, jobInput, startTestServer, type TestServer } from '../../../test/server.js';

let t: TestServer;
let allocs: { ID: string; ClientStatus: string; Namespace: string }[];

beforeAll(async () => {
  t = await startTestServer();
  const job = jobInput('alloc-job', { group: { Count: 3 } });
  const res = await t.request('POST', '/v1/jobs', { body: { Job: job } });
  ensureOk(res);
  await t.request('POST', '/v1/jobs', { body: { Job: jobInput('alloc-other', { Namespace: 'other' }) } });
  allocs = await eventually(async () => {
    const list = (await t.request('GET', '/v1/job/alloc-job/allocations')).json() as typeof allocs;
    return list.length === 3 && list.every((a) => a.ClientStatus === 'running') ? list : undefined;
  });
});

describe('GET /v1/allocations', () => {
  it('lists the namespace allocations without Job, in creation order', async () => {
    const res = await t.request('GET', '/v1/allocations');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-svc-knownleader']).toBe('true');
    const list = res.json() as Record<string, unknown>[];
    expect(list).toHaveLength(3);
    for (const alloc of list) {
      expect(alloc).not.toHaveProperty('Job');
      expect(alloc).not.toHaveProperty('AllocatedResources');
      expect(alloc['TaskStates']).not.toBeNull();
    }
    const indexes = list.map((a) => a['CreateIndex'] as number);
    expect([...indexes].sort((a, b) => a - b)).toEqual(indexes);
  });

  it('honours resources=true and task_states=false', async () => {
    const withResources = (await t.request('GET', '/v1/allocations?resources=true')).json() as Record<
      string,
      unknown
    >[];
    expect(withResources[0]).toHaveProperty('AllocatedResources');
    const noStates = (await t.request('GET', '/v1/allocations?task_states=false')).json() as Record<
      string,
      unknown
    >[];
    expect(noStates[0]?.['TaskStates']).toBeNull();
  });

  it('covers every namespace with namespace=*', async () => {
    const all = (await t.request('GET', '/v1/allocations?namespace=*')).json() as { Namespace: string }[];
    expect(new Set(all.map((a) => a.Namespace))).toEqual(new Set(['default', 'other']));
  });

  it('filters by an even-length hex prefix, with ID tokens', async () => {
    const target = allocs[0]!;
    const res = await t.request('GET', `/v1/allocations?prefix=${target.ID.slice(0, 4)}`);
    expect(res.statusCode).toBe(200);
    expect((res.json() as { ID: string }[]).map((a) => a.ID)).toContain(target.ID);
    const sorted = allocs.map((a) => a.ID).sort();
    const paged = await t.request('GET', `/v1/allocations?prefix=&per_page=1`);
    expect(paged.headers['x-svc-nexttoken']).toMatch(/^\d+\.[0-9a-f-]{36}$/);
    expect(sorted).toHaveLength(3);
  });

  it('pages a prefix listing by ID with ID tokens, exactly the matching set', async () => {
    const all = (await t.request('GET', '/v1/allocations?namespace=*')).json() as { ID: string }[];
    for (const prefix of new Set(all.map((a) => a.ID.slice(0, 2)))) {
      const expected = all
        .map((a) => a.ID)
        .filter((id) => id.startsWith(prefix))
        .sort();
      const seen: string[] = [];
      let token: string | undefined;
      for (let pages = 0; pages < 10; pages++) {
        const res = await t.request(
          'GET',
          `/v1/allocations?namespace=*&prefix=${prefix}&per_page=1${token === undefined ? '' : `&next_token=${token}`}`,
        );
        seen.push(...(res.json() as { ID: string }[]).map((a) => a.ID));
        token = res.headers['x-svc-nexttoken'] as string | undefined;
        expect(token ?? expected[0]).toMatch(/^[0-9a-f-]{36}$/);
        if (token === undefined) break;
      }
      expect(seen).toEqual(expected);
    }
  });

  it.each([
    ['prefix=abc', 'Invalid prefix "abc": a hex prefix must have an even number of characters'],
    ['prefix=zz', 'Invalid prefix "zz": a hex prefix may hold only the characters 0-9 and a-f'],
    [
      'prefix=ab&filter=ID%20%3D%3D%20%22x%22',
      'Filter expression cannot be used with other filter parameters',
    ],
  ])('?%s is 400', async (query, message) => {
    const res = await t.request('GET', `/v1/allocations?${query}`);
    expect([res.statusCode, res.body]).toEqual([400, message]);
  });

  it('pages with a filter through exactly the filtered set', async () => {
    const filter = encodeURIComponent('ClientStatus == "running"');
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const res = await t.request(
        'GET',
        `/v1/allocations?per_page=2&filter=${filter}${token === undefined ? '' : `&next_token=${token}`}`,
      );
      seen.push(...(res.json() as { ID: string }[]).map((a) => a.ID));
      token = res.headers['x-svc-nexttoken'] as string | undefined;
    } while (token !== undefined);
    expect(seen.sort()).toEqual(allocs.map((a) => a.ID).sort());
  });
});

describe('GET /v1/allocation/:alloc_id', () => {
  it('reads one allocation with its Job', async () => {
    const res = await t.request('GET', `/v1/allocation/${allocs[0]!.ID}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-svc-index']).toBeDefined();
    const alloc = res.json();
    expect(alloc.ID).toBe(allocs[0]!.ID);
    expect(alloc.Job.ID).toBe('alloc-job');
    expect(alloc.TaskStates.t.State).toBe('running');
  });

  it('rejects a short ID and answers 404 for an unknown UUID', async () => {
    const short = await t.request('GET', `/v1/allocation/${allocs[0]!.ID.slice(0, 8)}`);
    expect([short.statusCode, short.body]).toEqual([
      400,
      `allocation ID must be a full UUID (36 characters), not "${allocs[0]!.ID.slice(0, 8)}"`,
    ]);
    const unknown = await t.request('GET', '/v1/allocation/00000000-0000-4000-8000-000000000000');
    expect([unknown.statusCode, unknown.body]).toEqual([404, 'alloc not found']);
  });
});

describe('allocation lifecycle', () => {
  it('signals an allocation (POST and PUT)', async () => {
    const res = await t.request('POST', `/v1/client/allocation/${allocs[1]!.ID}/signal`, {
      body: { Signal: 'SIGHUP' },
    });
    expect([res.statusCode, res.json()]).toEqual([200, {}]);
    const put = await t.request('PUT', `/v1/client/allocation/${allocs[1]!.ID}/signal`, {
      body: { Signal: 'SIGUSR1', Task: 't' },
    });
    expect({ status: put.statusCode, body: put.body }).toMatchObject({ status: 200 });
    const types = await eventually(async () => {
      const alloc = (await t.request('GET', `/v1/allocation/${allocs[1]!.ID}`)).json();
      const events = (alloc.TaskStates.t.Events as { Type: string }[]).map((e) => e.Type);
      return events.includes('Signaling') ? events : undefined;
    });
    expect(types).toContain('Signaling');
  });

  it('restarts an allocation', async () => {
    const res = await t.request('POST', `/v1/client/allocation/${allocs[1]!.ID}/restart`, {
      body: { Task: 't' },
    });
    expect([res.statusCode, res.json()]).toEqual([200, {}]);
    const bare = await t.request('PUT', `/v1/client/allocation/${allocs[1]!.ID}/restart`);
    expect({ status: bare.statusCode, body: bare.body }).toMatchObject({ status: 200 });
  });

  it('stops an allocation and returns the evaluation', async () => {
    const res = await t.request('POST', `/v1/allocation/${allocs[2]!.ID}/stop`);
    expect({ status: res.statusCode, body: res.body }).toMatchObject({ status: 200 });
    const body = res.json();
    expect(body.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.Index).toBeGreaterThan(0);
    const alloc = (await t.request('GET', `/v1/allocation/${allocs[2]!.ID}`)).json();
    expect(alloc.DesiredStatus).toBe('stop');
  });

  it.each([
    ['POST', 'stop'],
    ['POST', 'signal'],
    ['POST', 'restart'],
  ])('%s %s: short IDs 400, unknown 404, nothing stored', async (method, action) => {
    const path = (id: string): string =>
      action === 'stop' ? `/v1/allocation/${id}/stop` : `/v1/client/allocation/${id}/${action}`;
    const before = t.index();
    const short = await t.request(method as 'POST', path('abcd1234'), { body: {} });
    expect(short.statusCode).toBe(400);
    const unknown = await t.request(method as 'POST', path('00000000-0000-4000-8000-000000000000'), {
      body: {},
    });
    expect([unknown.statusCode, unknown.body]).toEqual([404, 'alloc not found']);
    expect(t.index()).toBe(before);
  });

  it('answers 405 for GET on a lifecycle path', async () => {
    const res = await t.request('GET', `/v1/allocation/${allocs[0]!.ID}/stop`);
    expect([res.statusCode, res.body]).toEqual([405, 'Invalid method']);
  });
});
