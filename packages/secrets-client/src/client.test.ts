import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import type { FetchInit, FetchLike } from '@sked/http';

import { ApiError, createSecretsClient, InvalidRequestError, type LdapConfigRequest } from './index.js';

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fetch that records requests and answers from a table of (method path) → [status, body]. */
function fakeFetch(answers: Record<string, [number, unknown]> = {}) {
  const sent: Sent[] = [];
  const fetch: FetchLike = (input: string, init: FetchInit): Promise<Response> => {
    const url = new URL(input);
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    sent.push({
      method: init.method ?? 'GET',
      url: url.pathname + url.search,
      headers,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    });
    const [status, body] = answers[`${init.method ?? 'GET'} ${url.pathname}`] ?? [204, undefined];
    return Promise.resolve(
      new Response(body === undefined ? null : JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
    );
  };
  return { sent, fetch };
}

const envelope = (data: unknown, auth: unknown = null) => ({
  request_id: 'r',
  lease_id: '',
  renewable: false,
  lease_duration: 0,
  data,
  wrap_info: null,
  warnings: null,
  auth,
});

describe('createSecretsClient', () => {
  it('reads SKED_SECRETS_ADDR and SKED_SECRETS_TOKEN and sends X-Secrets-Token', async () => {
    const f = fakeFetch({ 'LIST /v1/auth/ldap/groups': [200, envelope({ keys: ['a'] })] });
    const client = createSecretsClient({
      fetch: f.fetch,
      env: { SKED_SECRETS_ADDR: 'http://secrets.test:8200', SKED_SECRETS_TOKEN: 'tok', SKED_TOKEN: 'other' },
    });
    expect((await client.ldap.groups.list()).data).toEqual(['a']);
    expect(f.sent[0]).toMatchObject({
      method: 'LIST',
      url: '/v1/auth/ldap/groups',
      headers: { 'x-secrets-token': 'tok' },
    });
    expect(client.transport.config.address).toBe('http://secrets.test:8200');
  });

  it('defaults to http://127.0.0.1:8200 and mount ldap; another mount changes every path', async () => {
    const f = fakeFetch();
    expect(createSecretsClient({ env: false }).transport.config.address).toBe('http://127.0.0.1:8200');
    const client = createSecretsClient({ fetch: f.fetch, env: false, mount: 'auth/corp' });
    await client.ldap.users.delete('bob');
    expect(f.sent[0]?.url).toBe('/v1/auth/corp/users/bob');
    expect(client.ldap.mountPath).toBe('auth/corp');
  });

  it.each(['', '../x', 'a b', 'auth/..', 5])('refuses the mount %j', (mount) => {
    expect(() => createSecretsClient({ env: false, mount: mount as string })).toThrow(InvalidRequestError);
  });
});

describe('answers', () => {
  it('an empty list (404, no errors) is { data: [] }; a missing record is ApiError 404; other errors throw', async () => {
    const f = fakeFetch({
      'LIST /v1/auth/ldap/users': [404, { errors: [] }],
      'LIST /v1/auth/ldap/groups': [404, { errors: ['no handler for route "auth/ldap/groups"'] }],
      'GET /v1/auth/ldap/users/x': [404, { errors: [] }],
      'GET /v1/auth/ldap/config': [403, { errors: ['permission denied'] }],
    });
    const client = createSecretsClient({ fetch: f.fetch, env: false });
    expect(await client.ldap.users.list()).toMatchObject({ data: [], meta: { warnings: [] } });
    const missing = await client.ldap.users.read('x').catch((e: unknown) => e);
    expect(ApiError.is(missing) && missing.status).toBe(404);
    const unmounted = await client.ldap.groups.list().catch((e: unknown) => e);
    expect(ApiError.is(unmounted) && unmounted.message).toBe('no handler for route "auth/ldap/groups"');
    const error = await client.ldap.config.read().catch((e: unknown) => e);
    expect(ApiError.is(error) && error.status).toBe(403);
    expect(ApiError.is(error) && error.message).toBe('permission denied');
  });

  it('meta carries the envelope: warnings and request ID', async () => {
    const f = fakeFetch({
      'GET /v1/auth/ldap/groups/g': [200, { ...envelope({ policies: ['a'] }), warnings: ['careful'] }],
    });
    const { data, meta } = await createSecretsClient({ fetch: f.fetch, env: false }).ldap.groups.read('g');
    expect(data).toEqual({ policies: ['a'] });
    expect(meta).toMatchObject({ warnings: ['careful'], requestId: 'r' });
  });

  it('withDefaults changes the mount and the token, and leaves the client unchanged', async () => {
    const f = fakeFetch();
    const client = createSecretsClient({ fetch: f.fetch, env: false, token: 'a' });
    await client.withDefaults({ mount: 'corp', token: 'b' }).ldap.users.delete('u');
    await client.ldap.users.delete('u');
    expect(f.sent.map((s) => [s.url, s.headers['x-secrets-token']])).toEqual([
      ['/v1/auth/corp/users/u', 'b'],
      ['/v1/auth/ldap/users/u', 'a'],
    ]);
  });

  it('login returns the auth object; lookupSelf the data', async () => {
    const auth = {
      client_token: 't',
      policies: ['default'],
      metadata: { username: 'a' },
      lease_duration: 1,
      renewable: true,
    };
    const f = fakeFetch({
      'POST /v1/auth/ldap/login/a%20b': [200, envelope(null, auth)],
      'GET /v1/auth/token/lookup-self': [200, envelope({ policies: ['default'], display_name: 'ldap-a' })],
    });
    const client = createSecretsClient({ fetch: f.fetch, env: false });
    expect((await client.ldap.login('a b', '')).data).toEqual(auth);
    expect(f.sent[0]?.body).toEqual({ password: '' });
    expect((await client.token.lookupSelf()).data.display_name).toBe('ldap-a');
  });

  it('writes join lists into the comma strings the service takes', async () => {
    const f = fakeFetch();
    const client = createSecretsClient({ fetch: f.fetch, env: false });
    await client.ldap.users.write('u', { policies: ['a', 'b'], groups: 'g1,g2' });
    await client.ldap.groups.write('g', {});
    expect(f.sent.map((s) => s.body)).toEqual([{ policies: 'a,b', groups: 'g1,g2' }, {}]);
  });
});

describe('input refused before any request', () => {
  const f = fakeFetch();
  const client = createSecretsClient({ fetch: f.fetch, env: false });

  it.each<[string, () => Promise<unknown>, string]>([
    ['empty group name', () => client.ldap.groups.read(''), 'name'],
    ['blank username', () => client.ldap.users.write('  ', {}), 'username'],
    ['control character', () => client.ldap.groups.delete('a\nb'), 'name'],
    ['long name', () => client.ldap.groups.read('n'.repeat(1025)), 'name'],
    ['non-string name', () => client.ldap.groups.read(5 as never), 'name'],
    ['list item with a comma', () => client.ldap.groups.write('g', { policies: ['a,b'] }), 'policies'],
    ['list of numbers', () => client.ldap.users.write('u', { groups: [1] as never }), 'groups'],
    ['record not an object', () => client.ldap.groups.write('g', null as never), 'record'],
    ['empty login username', () => client.ldap.login('', 'x'), 'username'],
    ['password not a string', () => client.ldap.login('a', undefined as never), 'password'],
    ['unknown config parameter', () => client.ldap.config.write({ nope: 1 } as never), 'config.nope'],
    [
      'config wrong type',
      () => client.ldap.config.write({ request_timeout: true } as never),
      'config.request_timeout',
    ],
    ['config not an object', () => client.ldap.config.write('x' as never), 'config'],
  ])('%s', async (_label, act, parameter) => {
    const error = await act().catch((e: unknown) => e);
    expect(InvalidRequestError.is(error) && error.parameter).toBe(parameter);
    expect(f.sent).toEqual([]);
  });

  test.prop([fc.string({ minLength: 1, maxLength: 40 })])(
    'a refused bindpass is never quoted in the message',
    async (secret) => {
      const error = await client.ldap.config
        .write({ bindpass: 5, binddn: secret } as unknown as LdapConfigRequest)
        .catch((e: unknown) => e);
      expect(InvalidRequestError.is(error)).toBe(true);
      expect(String((error as Error).message)).not.toContain(JSON.stringify(secret));
      expect(f.sent).toEqual([]);
    },
  );
});
