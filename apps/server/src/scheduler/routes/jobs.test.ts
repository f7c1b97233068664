import { beforeAll, describe, expect, it } from 'vitest';
import { ensureOk, jobInput, registerJob, startTestServer, type TestServer } from '../../../test/server.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});

describe('POST /v1/jobs', () => {
  it('registers a job and answers the register response with headers', async () => {
    const before = t.server.scheduler.cluster.store.index;
    const res = await t.request('POST', '/v1/jobs', { body: { Job: jobInput('reg-1') } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body).toMatchObject({ KnownLeader: true, LastContact: 0, Warnings: '' });
    expect(body.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.EvalCreateIndex).toBeGreaterThan(before);
    expect(body.JobModifyIndex).toBeGreaterThan(before);
    expect(body.Index).toBeGreaterThan(before);
    expect(Number(res.headers['x-svc-index'])).toBeGreaterThan(before);
  });

  it('accepts PUT as well', async () => {
    const res = await t.request('PUT', '/v1/jobs', { body: { Job: jobInput('reg-put') } });
    expect(res.statusCode).toBe(200);
  });

  it('enforces the index as check-and-set and stores nothing on conflict', async () => {
    const first = await registerJob(t, jobInput('cas'), { EnforceIndex: true, JobModifyIndex: 0 });
    const before = t.index();
    const conflict = await t.request('POST', '/v1/jobs', {
      body: { Job: jobInput('cas', { Meta: { v: '2' } }), EnforceIndex: true, JobModifyIndex: 1 },
    });
    expect(conflict.statusCode).toBe(400);
    expect(conflict.body).toMatch(/index/i);
    expect(t.index()).toBe(before);
    const ok = await t.request('POST', '/v1/jobs', {
      body: {
        Job: jobInput('cas', { Meta: { v: '2' } }),
        EnforceIndex: true,
        JobModifyIndex: first.JobModifyIndex,
      },
    });
    expect({ status: ok.statusCode, body: ok.body }).toMatchObject({ status: 200 });
  });

  it('refuses a job of another region', async () => {
    const res = await t.request('POST', '/v1/jobs', {
      body: { Job: jobInput('elsewhere', { Region: 'mars' }) },
    });
    expect([res.statusCode, res.body]).toEqual([400, 'No path to region "mars"']);
  });
});

describe('GET /v1/jobs', () => {
  beforeAll(async () => {
    for (const [id, team] of [
      ['list-a', 'red'],
      ['list-b', 'blue'],
      ['list-c', 'red'],
      ['list-d', 'red'],
      ['list-e', 'blue'],
    ] as const) {
      await registerJob(t, jobInput(id, { Meta: { team }, Priority: team === 'red' ? 70 : 50 }));
    }
    await registerJob(t, jobInput('list-other', { Namespace: 'other', Meta: { team: 'red' } }));
  });

  it('lists job list items of the namespace with the read headers', async () => {
    const res = await t.request('GET', '/v1/jobs?prefix=list-');
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['x-svc-index'])).toBeGreaterThanOrEqual(1);
    expect(res.headers['x-svc-lastcontact']).toBe('0');
    expect(res.headers['x-svc-knownleader']).toBe('true');
    const items = res.json() as Record<string, unknown>[];
    expect(items.map((i) => i['ID'])).toEqual(['list-a', 'list-b', 'list-c', 'list-d', 'list-e']);
    const item = items[0] ?? {};
    for (const field of [
      'ID',
      'ParentID',
      'Name',
      'Namespace',
      'Type',
      'Priority',
      'Status',
      'StatusDescription',
      'Datacenters',
      'Multiregion',
      'ParameterizedJob',
      'Periodic',
      'Stop',
      'SubmitTime',
      'JobSummary',
      'CreateIndex',
      'ModifyIndex',
      'JobModifyIndex',
    ]) {
      expect(item).toHaveProperty(field);
    }
    expect(item).not.toHaveProperty('Meta');
    expect(item).not.toHaveProperty('TaskGroups');
  });

  it('adds Meta with meta=true', async () => {
    const items = (await t.request('GET', '/v1/jobs?prefix=list-a&meta=true')).json();
    expect(items[0].Meta).toEqual({ team: 'red' });
  });

  it('lists every namespace with namespace=*', async () => {
    const items = (await t.request('GET', '/v1/jobs?namespace=*')).json() as {
      ID: string;
      Namespace: string;
    }[];
    expect(items.some((i) => i.ID === 'list-other' && i.Namespace === 'other')).toBe(true);
    expect(items.some((i) => i.ID === 'list-a')).toBe(true);
    const other = (await t.request('GET', '/v1/jobs?namespace=other')).json() as { ID: string }[];
    expect(other.map((i) => i.ID)).toEqual(['list-other']);
  });

  it('filters on the full stored job, not the list item', async () => {
    const res = await t.request(
      'GET',
      `/v1/jobs?filter=${encodeURIComponent('Priority == 70 and TaskGroups is not empty')}`,
    );
    ensureOk(res);
    expect((res.json() as { ID: string }[]).map((i) => i.ID)).toEqual(['list-a', 'list-c', 'list-d']);
  });

  it('pages through a filtered list, exactly the filtered set', async () => {
    const filter = encodeURIComponent('Priority == 70');
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = await t.request(
        'GET',
        `/v1/jobs?per_page=1&filter=${filter}${token === undefined ? '' : `&next_token=${encodeURIComponent(token)}`}`,
      );
      expect(res.statusCode).toBe(200);
      const items = res.json() as { ID: string }[];
      expect(items.length).toBeLessThanOrEqual(1);
      seen.push(...items.map((i) => i.ID));
      token = res.headers['x-svc-nexttoken'] as string | undefined;
      expect(token ?? 'default.end').toMatch(/^default\./);
      pages++;
    } while (token !== undefined && pages < 20);
    expect(seen).toEqual(['list-a', 'list-c', 'list-d']);
    expect(pages).toBe(3);
  });

  it('gives the first item of the next page as the token, and reverses', async () => {
    const first = await t.request('GET', '/v1/jobs?prefix=list-&per_page=2');
    expect(first.headers['x-svc-nexttoken']).toBe('default.list-c');
    const reversed = (await t.request('GET', '/v1/jobs?prefix=list-&reverse=true')).json() as {
      ID: string;
    }[];
    expect(reversed.map((i) => i.ID)).toEqual(['list-e', 'list-d', 'list-c', 'list-b', 'list-a']);
    const last = await t.request('GET', '/v1/jobs?prefix=list-&per_page=5');
    expect(last.headers['x-svc-nexttoken']).toBeUndefined();
  });

  it.each([
    ['filter=a%20%3D%3D&prefix=x', 'Filter expression cannot be used with other filter parameters'],
    ['per_page=abc', 'Expect a number for `per_page` query string parameter'],
    ['per_page=-1', 'Expect a number for `per_page` query string parameter'],
    ['index=x', 'Invalid index'],
    ['index=1&wait=soon', 'Invalid wait time'],
    ['region=mars', 'No path to region "mars"'],
    ['meta=maybe', 'Failed to parse value of "meta" ("maybe") as a bool'],
  ])('?%s is 400 %s', async (query, message) => {
    const res = await t.request('GET', `/v1/jobs?${query}`);
    expect([res.statusCode, res.body]).toEqual([400, message]);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('reports a filter that does not parse, one naming an unknown field and one that fails on an item', async () => {
    const syntax = await t.request('GET', `/v1/jobs?filter=${encodeURIComponent('Meta.team ==')}`);
    expect(syntax.statusCode).toBe(400);
    expect(syntax.body).toMatch(/^failed to read filter expression: .*\d+:\d+/);
    const unknown = await t.request('GET', `/v1/jobs?filter=${encodeURIComponent('Nothere == 1')}`);
    expect([unknown.statusCode, unknown.body]).toEqual([
      400,
      expect.stringMatching(/^failed to read filter expression: 1:1: .*"Nothere"/),
    ]);
    // Periodic is a struct that is null on a job that is not periodic: going through it fails
    const evaluation = await t.request(
      'GET',
      `/v1/jobs?filter=${encodeURIComponent('Periodic.Spec == "x"')}`,
    );
    expect(evaluation.statusCode).toBe(400);
    expect(evaluation.body).toMatch(/^failed to read result page: /);
  });

  it('answers 405 for a verb the path does not take', async () => {
    const res = await t.request('PATCH', '/v1/jobs');
    expect([res.statusCode, res.body]).toEqual([405, 'Invalid method']);
  });
});

describe('blocking queries', () => {
  it('a write wakes a waiting query', async () => {
    const list = await t.request('GET', '/v1/volumes?type=csi');
    const index = Number(list.headers['x-svc-index']);
    const pending = t.request('GET', `/v1/volumes?type=csi&index=${index}&wait=5m`);
    let settled = false;
    void pending.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false);
    const put = await t.request('PUT', '/v1/volume/csi/wake-me', {
      body: { Volumes: [{ ID: 'wake-me', PluginID: 'p' }] },
    });
    expect({ status: put.statusCode, body: put.body }).toMatchObject({ status: 200 });
    const res = await pending;
    expect(Number(res.headers['x-svc-index'])).toBeGreaterThan(index);
    expect((res.json() as { ID: string }[]).map((v) => v.ID)).toContain('wake-me');
  });

  it('a new job wakes a waiting job list', async () => {
    const list = await t.request('GET', '/v1/jobs');
    const index = Number(list.headers['x-svc-index']);
    const pending = t.request('GET', `/v1/jobs?index=${index}&wait=5m`);
    await registerJob(t, jobInput('wake-me'));
    const res = await pending;
    expect(Number(res.headers['x-svc-index'])).toBeGreaterThan(index);
    const again = (await t.request('GET', '/v1/jobs')).json() as { ID: string }[];
    expect(again.map((i) => i.ID)).toContain('wake-me');
  });

  it('wait=1s answers after about a second with the same index', async () => {
    const volumes = await t.request('GET', '/v1/volumes?type=csi');
    const index = Number(volumes.headers['x-svc-index']);
    const started = Date.now();
    const res = await t.request('GET', `/v1/volumes?type=csi&index=${index}&wait=1s`);
    const elapsed = Date.now() - started;
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['x-svc-index'])).toBe(index);
    expect(elapsed).toBeGreaterThanOrEqual(950);
    // 1 s plus up to 1/16 s of jitter; generous above for a loaded machine.
    expect(elapsed).toBeLessThan(3000);
  });

  it('a write to another table does not wake a watcher of volumes', async () => {
    const volumes = await t.request('GET', '/v1/volumes?type=csi');
    const index = Number(volumes.headers['x-svc-index']);
    const pending = t.request('GET', `/v1/volumes?type=csi&index=${index}&wait=1s`);
    await registerJob(t, jobInput('other-table'));
    const res = await pending;
    expect(Number(res.headers['x-svc-index'])).toBe(index);
  });
});
