import { beforeAll, describe, expect, it } from 'vitest';
import { ensureOk, eventually, jobInput, startTestServer, type TestServer } from '../../../test/server.js';

/**
 * BEHAVIOUR.md "Secret fields of a job": SecretsToken and MeshToken of a submitted job are cleared
 * before the job is stored, so no read path, version, allocation copy, diff or event shows them.
 */

const SECRETS_TOKEN = 'secrets-token-8d1f0c';
const MESH_TOKEN = 'mesh-token-5b77e2';
const secretTokens = { SecretsToken: SECRETS_TOKEN, MeshToken: MESH_TOKEN };

let t: TestServer;

/** Fails when a body shows either token (anywhere, in any field). */
function expectNoSecret(where: string, body: string): void {
  expect({ where, leaksSecrets: body.includes(SECRETS_TOKEN) }).toEqual({ where, leaksSecrets: false });
  expect({ where, leaksMesh: body.includes(MESH_TOKEN) }).toEqual({ where, leaksMesh: false });
}

/** Reads the event stream from index 1 until `done` holds for the lines seen, then stops. */
async function readEvents(query: string, done: (text: string) => boolean): Promise<string> {
  const controller = new AbortController();
  const res = await fetch(`${t.server.scheduler.url}/v1/event/stream?index=1&${query}`, {
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + 10_000;
  try {
    while (!done(text) && Date.now() < deadline) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    controller.abort();
  }
  return text;
}

beforeAll(async () => {
  t = await startTestServer();
  // a service job submitted with both tokens, then a second version with both tokens again
  ensureOk(await t.request('POST', '/v1/jobs', { body: { Job: jobInput('secret-web', secretTokens) } }));
  ensureOk(
    await t.request('POST', '/v1/job/secret-web', {
      body: { Job: jobInput('secret-web', { ...secretTokens, Meta: { v: '2' } }) },
    }),
  );
  // a parameterized job with the tokens, dispatched once
  const parameterized = jobInput('secret-param', {
    ...secretTokens,
    Type: 'batch',
    ParameterizedJob: { Payload: 'optional' },
  });
  ensureOk(await t.request('POST', '/v1/jobs', { body: { Job: parameterized } }));
  ensureOk(await t.request('POST', '/v1/job/secret-param/dispatch', { body: {} }));
  await eventually(async () => {
    const res = await t.request('GET', '/v1/job/secret-web/allocations');
    const allocs = res.json() as unknown[];
    return allocs.length > 0 ? allocs : undefined;
  });
});

describe('secret fields of a job', () => {
  it('are empty on the job read, the list (with meta) and every version', async () => {
    const job = await t.request('GET', '/v1/job/secret-web');
    expect(job.json()).toMatchObject({ SecretsToken: '', MeshToken: '', Version: 1 });
    expectNoSecret('job read', job.body);
    expectNoSecret('job list', (await t.request('GET', '/v1/jobs?meta=true&namespace=*')).body);
    const versions = await t.request('GET', '/v1/job/secret-web/versions?diffs=true');
    const body = versions.json() as { Versions: { SecretsToken: string; MeshToken: string }[] };
    expect(body.Versions).toHaveLength(2);
    for (const version of body.Versions) expect(version).toMatchObject({ SecretsToken: '', MeshToken: '' });
    expectNoSecret('versions with diffs', versions.body);
  });

  it("are empty on every allocation's copy of the job", async () => {
    const list = (await t.request('GET', '/v1/job/secret-web/allocations')).json() as { ID: string }[];
    for (const { ID } of list) {
      const alloc = await t.request('GET', `/v1/allocation/${ID}`);
      expect(alloc.json()).toMatchObject({ Job: { ID: 'secret-web', SecretsToken: '', MeshToken: '' } });
      expectNoSecret('allocation read', alloc.body);
    }
    expectNoSecret('allocation list', (await t.request('GET', '/v1/allocations?namespace=*')).body);
  });

  it('are not inherited by a dispatched child', async () => {
    const children = await t.request('GET', '/v1/jobs?prefix=secret-param/dispatch');
    const ids = (children.json() as { ID: string }[]).map((child) => child.ID);
    expect(ids).toHaveLength(1);
    const child = await t.request('GET', `/v1/job/${encodeURIComponent(ids[0] as string)}`);
    expect(child.json()).toMatchObject({ ParentID: 'secret-param', SecretsToken: '', MeshToken: '' });
    expectNoSecret('parameterized parent', (await t.request('GET', '/v1/job/secret-param')).body);
  });

  it('show no diff in a plan and are not echoed by it', async () => {
    const plan = await t.request('POST', '/v1/job/secret-web/plan', {
      body: { Job: jobInput('secret-web', { ...secretTokens, Meta: { v: '2' } }), Diff: true },
    });
    expect(plan.statusCode).toBe(200);
    expect(plan.json()).toMatchObject({ Diff: { Type: 'None' } });
    expectNoSecret('plan', plan.body);
  });

  it('never reach the event stream', async () => {
    const text = await readEvents(
      'topic=Job&topic=Allocation',
      (seen) => seen.includes('"JobRegistered"') && seen.includes('secret-param/dispatch'),
    );
    expect(text).toContain('"Key":"secret-web"');
    expectNoSecret('event stream', text);
  });
});
