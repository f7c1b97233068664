import { createServer, type Server, type Socket } from 'node:net';
import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_PARAMETERS, DEFAULT_SETTINGS } from './config.js';
import { startSecrets, type SecretsHarness } from './test/harness.js';

let h: SecretsHarness;
beforeAll(async () => {
  h = await startSecrets({ maxBody: 4096 });
});

const ADMIN: [string, string][] = [
  ['GET', '/v1/auth/ldap/config'],
  ['POST', '/v1/auth/ldap/config'],
  ['LIST', '/v1/auth/ldap/groups'],
  ['GET', '/v1/auth/ldap/groups?list=true'],
  ['GET', '/v1/auth/ldap/groups/g'],
  ['POST', '/v1/auth/ldap/groups/g'],
  ['DELETE', '/v1/auth/ldap/groups/g'],
  ['LIST', '/v1/auth/ldap/users'],
  ['GET', '/v1/auth/ldap/users/u'],
  ['POST', '/v1/auth/ldap/users/u'],
  ['DELETE', '/v1/auth/ldap/users/u'],
];

describe('authentication', () => {
  it.each(ADMIN)('%s %s needs the root token', async (method, path) => {
    for (const token of [null, 'wrong', 'root-tokenX', 'root', '']) {
      const res = await h.call(method, path, { token });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ errors: ['permission denied'] });
    }
  });

  it('accepts the root token as a bearer token too', async () => {
    const res = await h.call('GET', '/v1/auth/ldap/config', {
      token: null,
      headers: { authorization: 'Bearer root-token' },
    });
    expect(res.status).toBe(200);
  });
});

describe('config', () => {
  it('reads the defaults of all 32 parameters before any write', async () => {
    const fresh = await startSecrets();
    const res = await fresh.call('GET', '/v1/auth/ldap/config');
    expect(res.status).toBe(200);
    const body = res.json as { data: Record<string, unknown>; auth: null; lease_id: string; wrap_info: null };
    expect(body).toMatchObject({
      auth: null,
      lease_id: '',
      wrap_info: null,
      renewable: false,
      lease_duration: 0,
    });
    expect(Object.keys(body.data).sort()).toEqual([...CONFIG_PARAMETERS].sort());
    expect(body.data).toMatchObject({
      url: 'ldap://127.0.0.1',
      request_timeout: 90,
      deny_null_bind: true,
      userattr: 'cn',
    });
    expect(body.data['groupfilter']).toBe(DEFAULT_SETTINGS.groupfilter);
  });

  it('merges writes (204, no body) and never returns bindpass', async () => {
    const write = await h.call('POST', '/v1/auth/ldap/config', {
      body: {
        binddn: 'cn=reader',
        bindpass: 'very-secret-pass',
        request_timeout: '30s',
        token_policies: 'a,b',
      },
    });
    expect(write.status).toBe(204);
    expect(write.text).toBe('');
    await h.call('PUT', '/v1/auth/ldap/config', { body: { userattr: 'uid', starttls: 'true' } });
    const read = (await h.call('GET', '/v1/auth/ldap/config')).json as { data: Record<string, unknown> };
    expect(read.data).toMatchObject({
      binddn: 'cn=reader',
      bindpass: '',
      request_timeout: 30,
      token_policies: ['a', 'b'],
      userattr: 'uid',
      starttls: true,
    });
    expect(h.service.store.readConfig()?.bindpass).toBe('very-secret-pass');
  });

  it('stores nothing of a write with one bad parameter', async () => {
    const before = (await h.call('GET', '/v1/auth/ldap/config')).text.replace(/"request_id":"[^"]+"/, '');
    const res = await h.call('POST', '/v1/auth/ldap/config', {
      body: { binddn: 'cn=changed', starttls: 'maybe' },
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ errors: ['invalid value for "starttls": expected a boolean, got "maybe"'] });
    const after = (await h.call('GET', '/v1/auth/ldap/config')).text.replace(/"request_id":"[^"]+"/, '');
    expect(after).toBe(before);
  });

  test.prop(
    [fc.constantFrom(...CONFIG_PARAMETERS), fc.constantFrom<unknown>({}, [{}], { a: 1 }, [1, 2], -5, 1.5)],
    {
      numRuns: 60,
    },
  )('a wrong type for any parameter is a 400 naming it', async (name, value) => {
    const res = await h.call('POST', '/v1/auth/ldap/config', { body: { [name]: value } });
    expect(res.status).toBe(400);
    expect((res.json as { errors: string[] }).errors[0]).toContain(`"${name}"`);
  });

  it.each([
    ['not json', /failed to parse JSON input/],
    ['[1,2]', /must be a JSON object of parameters/],
    ['"text"', /must be a JSON object of parameters/],
    ['{"unknown_thing": 1}', /unknown parameter "unknown_thing"/],
  ])('refuses the body %s', async (raw, message) => {
    const res = await h.call('POST', '/v1/auth/ldap/config', { raw });
    expect(res.status).toBe(400);
    expect((res.json as { errors: string[] }).errors[0]).toMatch(message);
  });

  it('refuses a body over the limit with 413 and stores nothing', async () => {
    const res = await h.call('POST', '/v1/auth/ldap/config', { body: { binddn: 'x'.repeat(10_000) } });
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ errors: ['request body is larger than the limit of 4096 bytes'] });
    expect(h.service.store.readConfig()?.binddn).not.toBe('x'.repeat(10_000));
  });
});

describe.each(['groups', 'users'] as const)('%s', (kind) => {
  const base = `/v1/auth/ldap/${kind}`;

  it('an empty list is a 404 with no errors', async () => {
    const fresh = await startSecrets();
    for (const [method, path] of [
      ['LIST', `/v1/auth/ldap/${kind}`],
      ['GET', `/v1/auth/ldap/${kind}?list=true`],
    ] as const) {
      const res = await fresh.call(method, path);
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ errors: [] });
    }
  });

  it('writes, reads, lists (LIST verb and ?list=true) and deletes', async () => {
    const body = kind === 'groups' ? { policies: 'b, a,a' } : { policies: ['b', 'a'], groups: 'devs, ops' };
    expect((await h.call('POST', `${base}/Zed`, { body })).status).toBe(204);
    expect((await h.call('POST', `${base}/amy`, { body: {} })).status).toBe(204);
    const read = (await h.call('GET', `${base}/ZED`)).json as { data: unknown };
    expect(read.data).toEqual(
      kind === 'groups' ? { policies: ['a', 'b'] } : { policies: ['a', 'b'], groups: 'devs,ops' },
    );
    for (const [method, path] of [
      ['LIST', base],
      ['GET', `${base}?list=true`],
      ['LIST', `${base}/`],
    ] as const) {
      const list = await h.call(method, path);
      expect(list.status).toBe(200);
      expect((list.json as { data: { keys: string[] } }).data.keys).toEqual(['amy', 'zed']);
    }
    expect((await h.call('DELETE', `${base}/zed`)).status).toBe(204);
    const gone = await h.call('GET', `${base}/zed`);
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ errors: [] });
    expect((await h.call('DELETE', `${base}/zed`)).status).toBe(204);
  });

  it('GET of the collection without list=true is 405', async () => {
    const res = await h.call('GET', base);
    expect(res.status).toBe(405);
    expect(res.json).toEqual({ errors: ['unsupported operation'] });
  });

  it.each([
    [{ policies: 5 }, /invalid value for "policies"/],
    [{ policies: [{}] }, /invalid value for "policies"/],
    [{ extra: 'x' }, /unknown parameter "extra"/],
  ])('refuses %j and stores nothing', async (body, message) => {
    const res = await h.call('POST', `${base}/bad`, { body });
    expect(res.status).toBe(400);
    expect((res.json as { errors: string[] }).errors[0]).toMatch(message);
    expect((await h.call('GET', `${base}/bad`)).status).toBe(404);
  });

  it('refuses names with control characters or over 1024 characters', async () => {
    expect((await h.call('POST', `${base}/a%00b`, { body: {} })).status).toBe(400);
    const long = await h.call('POST', `${base}/${'n'.repeat(1025)}`, { body: {} });
    expect(long.status).toBe(400);
    expect((long.json as { errors: string[] }).errors[0]).toMatch(/longer than 1024/);
  });
});

describe('case_sensitive_names', () => {
  it('keeps the case of names when true', async () => {
    const s = await startSecrets();
    await s.call('POST', '/v1/auth/ldap/config', { body: { case_sensitive_names: true } });
    await s.call('POST', '/v1/auth/ldap/groups/Ops', { body: { policies: 'x' } });
    expect((await s.call('GET', '/v1/auth/ldap/groups/ops')).status).toBe(404);
    expect((await s.call('GET', '/v1/auth/ldap/groups/Ops')).status).toBe(200);
  });
});

describe('login input', () => {
  it.each([
    [undefined, 'missing password'],
    [{}, 'missing password'],
    [{ password: 5 }, 'invalid value for "password": expected a string'],
    [{ password: 'x', other: 1 }, 'unknown parameter "other"; login accepts password'],
  ])('refuses the body %j before any directory call', async (body, message) => {
    const res = await h.call('POST', '/v1/auth/ldap/login/alice', { body, token: null });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ errors: [message] });
  });

  it('answers an unreachable directory with a 400 naming the URL', async () => {
    const s = await startSecrets();
    await s.call('POST', '/v1/auth/ldap/config', { body: { url: 'ldap://127.0.0.1:1', request_timeout: 5 } });
    const res = await s.call('POST', '/v1/auth/ldap/login/alice', { body: { password: 'x' }, token: null });
    expect(res.status).toBe(400);
    expect((res.json as { errors: string[] }).errors[0]).toMatch(
      /^ldap operation failed: error connecting to host "ldap:\/\/127\.0\.0\.1:1": connect ECONNREFUSED/,
    );
  });

  describe('a directory that accepts connections and never answers', () => {
    let hanging: Server;
    const sockets: Socket[] = [];
    let port = 0;
    beforeAll(async () => {
      hanging = createServer((socket) => void sockets.push(socket));
      await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
      const address = hanging.address();
      port = typeof address === 'object' && address !== null ? address.port : 0;
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => hanging.close(resolve));
    });

    it('the login answers within request_timeout and the server keeps serving', async () => {
      const s = await startSecrets();
      await s.call('POST', '/v1/auth/ldap/config', {
        body: { url: `ldap://127.0.0.1:${port}`, request_timeout: 1, binddn: 'cn=x', bindpass: 'y' },
      });
      const started = Date.now();
      const login = s.call('POST', '/v1/auth/ldap/login/alice', { body: { password: 'x' }, token: null });
      // meanwhile the server answers other requests
      expect((await s.call('GET', '/v1/auth/ldap/config')).status).toBe(200);
      const res = await login;
      const elapsed = Date.now() - started;
      expect(res.status).toBe(400);
      expect((res.json as { errors: string[] }).errors[0]).toMatch(
        /^ldap operation failed: .*(did not answer within 1s|Timeout)/i,
      );
      expect(elapsed).toBeGreaterThanOrEqual(900);
      expect(elapsed).toBeLessThan(5000);
    });
  });
});

describe('token lookup-self', () => {
  it('refuses a missing or unknown token', async () => {
    for (const token of [null, 'sks.nope']) {
      const res = await h.call('GET', '/v1/auth/token/lookup-self', { token });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ errors: ['permission denied'] });
    }
  });

  it('describes the root token', async () => {
    const res = await h.call('GET', '/v1/auth/token/lookup-self');
    expect((res.json as { data: unknown }).data).toMatchObject({ policies: ['root'], display_name: 'root' });
  });
});

describe('unknown routes', () => {
  it('are 404 with no errors', async () => {
    const res = await h.call('GET', '/v1/auth/other/config');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ errors: [] });
  });
});

describe('secrets', () => {
  it('bindpass never appears in any answer', () => {
    expect(h.seen.length).toBeGreaterThan(20);
    for (const text of h.seen) expect(text).not.toContain('very-secret-pass');
  });
});
