import { LdapConfigDefaults } from '@sked/model';
import { startSlapd, type Slapd } from '@sked/testkit/slapd';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureOk, jobInput, startTestServer, type TestServer } from '../../../test/server.js';

/**
 * BEHAVIOUR.md "Secret fields of a job": with ACLs on, a job's SecretsToken must be a token of the
 * secrets service (this server's own, logged in through its LDAP auth method against a real slapd)
 * allowing every policy the job's tasks request, and a MeshToken one the mesh service accepts;
 * a bad token is refused before anything is stored, and never quoted back.
 */

const OPS = 'ops-secret-1c9e';
const CI = 'ci-secret-77ab';
const SECRETS_ROOT = 'secrets-root-4f20';
const aclConfig = {
  tokens: [
    { name: 'ops', secret: OPS, management: true },
    { name: 'ci', secret: CI, namespaces: { default: ['submit-job', 'read-job', 'list-jobs'] } },
  ],
};

let slapd: Slapd;
let t: TestServer;
/** Logged in through LDAP: alice has web-secrets and db-secrets, bob web-secrets only. */
const tokens = { alice: '', bob: '', expired: '' };
/** Every answer body, to check that no token is ever echoed. */
const seen: string[] = [];

async function secretsCall(method: string, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${t.server.secrets.url}${path}`, {
    method,
    headers: { 'x-secrets-token': SECRETS_ROOT },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

async function login(user: string, config: Record<string, unknown> = {}): Promise<string> {
  await secretsCall('POST', '/v1/auth/ldap/config', {
    ...LdapConfigDefaults,
    ...slapd.authConfig,
    request_timeout: 10,
    ...config,
  });
  const answer = (await secretsCall('POST', `/v1/auth/ldap/login/${user}`, { password: `${user}-pw` })) as {
    auth: { client_token: string };
  };
  return answer.auth.client_token;
}

async function call(
  method: 'POST' | 'GET',
  url: string,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  const res = await t.request(method, url, { token: OPS, ...(body === undefined ? {} : { body }) });
  seen.push(res.body);
  return { status: res.statusCode, body: res.body };
}

/** A job whose one task requests these secrets service policies. */
function jobWith(
  id: string,
  policies: string[] | null,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const job = jobInput(id, extra);
  const [group] = job['TaskGroups'] as { Tasks: Record<string, unknown>[] }[];
  if (policies !== null)
    (group as { Tasks: Record<string, unknown>[] }).Tasks[0]!['Secrets'] = { Policies: policies };
  return job;
}

beforeAll(async () => {
  slapd = await startSlapd();
  t = await startTestServer({ acl: true, aclConfig, secretsRootToken: SECRETS_ROOT });
  await secretsCall('POST', '/v1/auth/ldap/groups/devs', { policies: 'web-secrets' });
  await secretsCall('POST', '/v1/auth/ldap/groups/admins', { policies: 'db-secrets' });
  tokens.expired = await login('carol', { token_ttl: '1s' });
  tokens.alice = await login('alice');
  tokens.bob = await login('bob');
}, 120_000);
afterAll(async () => {
  await slapd.stop();
});

describe('with ACLs on, a job submission', () => {
  it('is stored when its SecretsToken allows every requested policy, and the token is cleared', async () => {
    const job = jobWith('tok-ok', ['web-secrets', 'db-secrets'], { SecretsToken: tokens.alice });
    expect((await call('POST', '/v1/jobs', { Job: job })).status).toBe(200);
    const read = await call('GET', '/v1/job/tok-ok');
    expect(JSON.parse(read.body)).toMatchObject({ SecretsToken: '', MeshToken: '' });
  });

  it('is 403 naming the missing policies when the token lacks one, and stores nothing', async () => {
    const before = t.index();
    const job = jobWith('tok-short', ['web-secrets', 'db-secrets', 'zz-extra'], { SecretsToken: tokens.bob });
    expect(await call('POST', '/v1/jobs', { Job: job })).toEqual({
      status: 403,
      body: 'SecretsToken does not allow the policies the job requests: "db-secrets", "zz-extra"',
    });
    expect((await call('GET', '/v1/job/tok-short')).status).toBe(404);
    expect(t.index()).toBe(before);
  });

  it.each([
    [
      'an unknown token',
      'sks.not-a-token',
      'SecretsToken is not a token of the secrets service (unknown or revoked)',
    ],
    ['an expired token', 'expired', 'SecretsToken has expired'],
  ])('is 400 for %s, even when the job requests no policy', async (_what, token, message) => {
    const secret = token === 'expired' ? tokens.expired : token;
    if (token === 'expired') await new Promise((resolve) => setTimeout(resolve, 1100));
    const before = t.index();
    for (const policies of [['web-secrets'], null]) {
      const job = jobWith('tok-bad', policies, { SecretsToken: secret });
      expect(await call('POST', '/v1/jobs', { Job: job })).toEqual({ status: 400, body: message });
    }
    expect(t.index()).toBe(before);
  });

  it('is 400 when the tasks request policies and no SecretsToken comes with the job', async () => {
    const res = await call('POST', '/v1/jobs', { Job: jobWith('tok-none', ['web-secrets']) });
    expect(res).toEqual({
      status: 400,
      body: 'The job requests secrets service policies ("web-secrets") but carries no SecretsToken: with ACLs on, submit it with a SecretsToken that allows them',
    });
    // a job that requests none needs none
    expect((await call('POST', '/v1/jobs', { Job: jobWith('tok-plain', null) })).status).toBe(200);
  });

  it("accepts the secrets service's root token for any policy", async () => {
    const job = jobWith('tok-root', ['anything'], { SecretsToken: SECRETS_ROOT });
    expect((await call('POST', '/v1/jobs', { Job: job })).status).toBe(200);
  });

  it('checks a MeshToken against the tokens the mesh service accepts', async () => {
    const good = jobWith('tok-mesh', null, { MeshToken: CI });
    expect((await call('POST', '/v1/jobs', { Job: good })).status).toBe(200);
    const bad = jobWith('tok-mesh-bad', null, { MeshToken: 'mesh-nope-31' });
    expect(await call('POST', '/v1/jobs', { Job: bad })).toEqual({
      status: 400,
      body: 'MeshToken is not a token of the mesh service (unknown)',
    });
    expect((await call('GET', '/v1/job/tok-mesh-bad')).status).toBe(404);
  });

  it('is checked on update: a bad token leaves the stored version as it was', async () => {
    const job = jobWith('tok-upd', ['web-secrets'], { SecretsToken: tokens.bob });
    expect((await call('POST', '/v1/job/tok-upd', { Job: job })).status).toBe(200);
    const before = t.index();
    const wider = jobWith('tok-upd', ['web-secrets', 'db-secrets'], { SecretsToken: tokens.bob });
    expect(await call('POST', '/v1/job/tok-upd', { Job: wider })).toEqual({
      status: 403,
      body: 'SecretsToken does not allow the policies the job requests: "db-secrets"',
    });
    expect(t.index()).toBe(before);
    const read = JSON.parse((await call('GET', '/v1/job/tok-upd')).body) as { Version: number };
    expect(read.Version).toBe(0);
  });

  it('is checked on plan', async () => {
    const plan = (token: string): Promise<{ status: number; body: string }> =>
      call('POST', '/v1/job/tok-ok/plan', {
        Job: jobWith('tok-ok', ['web-secrets', 'db-secrets'], { SecretsToken: token }),
        Diff: true,
      });
    expect(await plan(tokens.bob)).toEqual({
      status: 403,
      body: 'SecretsToken does not allow the policies the job requests: "db-secrets"',
    });
    expect((await plan('sks.unknown')).status).toBe(400);
    expect((await plan(tokens.alice)).status).toBe(200);
  });

  it('is checked on revert, against the version reverted to, with the tokens of the revert request', async () => {
    const v0 = jobWith('tok-rev', ['db-secrets'], { SecretsToken: tokens.alice });
    expect((await call('POST', '/v1/jobs', { Job: v0 })).status).toBe(200);
    expect((await call('POST', '/v1/jobs', { Job: jobWith('tok-rev', null) })).status).toBe(200);
    const before = t.index();
    const revert = (extra: Record<string, unknown>): Promise<{ status: number; body: string }> =>
      call('POST', '/v1/job/tok-rev/revert', { JobID: 'tok-rev', JobVersion: 0, ...extra });
    expect((await revert({})).status).toBe(400);
    expect(await revert({ SecretsToken: tokens.bob })).toEqual({
      status: 403,
      body: 'SecretsToken does not allow the policies the job requests: "db-secrets"',
    });
    expect((await revert({ SecretsToken: tokens.alice, MeshToken: 'nope' })).status).toBe(400);
    expect(t.index()).toBe(before);
    expect((await revert({ SecretsToken: tokens.alice })).status).toBe(200);
    const read = JSON.parse((await call('GET', '/v1/job/tok-rev')).body) as Record<string, unknown>;
    expect(read).toMatchObject({ Version: 2, SecretsToken: '' });
  });

  it('never echoes a token in any answer', () => {
    const all = seen.join('\n');
    for (const secret of [
      tokens.alice,
      tokens.bob,
      tokens.expired,
      SECRETS_ROOT,
      'sks.not-a-token',
      'mesh-nope-31',
    ]) {
      expect(all.includes(secret)).toBe(false);
    }
  });
});

describe('with ACLs off', () => {
  it('stores jobs whatever their tokens (not checked, still cleared), on register, update and plan', async () => {
    const open = await startTestServer();
    const job = jobWith('open', ['db-secrets'], { SecretsToken: 'sks.anything', MeshToken: 'anything' });
    ensureOk(await open.request('POST', '/v1/jobs', { body: { Job: job } }));
    ensureOk(await open.request('POST', '/v1/job/open', { body: { Job: { ...job, Meta: { v: '2' } } } }));
    ensureOk(await open.request('POST', '/v1/job/open/plan', { body: { Job: job } }));
    const read = await open.request('GET', '/v1/job/open');
    expect(read.json()).toMatchObject({ Version: 1, SecretsToken: '', MeshToken: '' });
  });
});
