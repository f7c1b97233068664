import { fc, test } from '@fast-check/vitest';
import { LdapConfigDefaults } from '@sked/model';
import { startSlapd, type Slapd } from '@sked/testkit/slapd';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type LdapSettings } from './config.js';
import { authenticate, LoginFailure, MAX_DIRECTORY_GROUPS } from './directory.js';
import { startSecrets, type SecretsHarness } from './test/harness.js';

let slapd: Slapd;
let h: SecretsHarness;
beforeAll(async () => {
  slapd = await startSlapd();
  h = await startSecrets();
  await h.call('POST', '/v1/auth/ldap/groups/devs', { body: { policies: 'dev' } });
  await h.call('POST', '/v1/auth/ldap/groups/admins', { body: { policies: 'admin' } });
  await h.call('POST', '/v1/auth/ldap/groups/ops-team', { body: { policies: 'ops' } });
  await h.call('POST', '/v1/auth/ldap/groups/staff', { body: { policies: 'staff' } });
  await h.call('POST', '/v1/auth/ldap/groups/local', { body: { policies: 'local-group-policy' } });
}, 120_000);
afterAll(async () => {
  await slapd.stop();
});

/** The search-then-bind setup (service account, people by uid, groups under ou=groups) over the defaults. */
function base(): Record<string, unknown> {
  return { ...LdapConfigDefaults, ...slapd.authConfig, request_timeout: 10 };
}

interface Auth {
  client_token: string;
  policies: string[];
  metadata: { username: string };
  lease_duration: number;
  renewable: boolean;
  token_type: string;
}

async function login(
  config: Record<string, unknown>,
  username: string,
  password: string,
): Promise<{ status: number; auth: Auth | undefined; error: string | undefined }> {
  const write = await h.call('POST', '/v1/auth/ldap/config', { body: { ...base(), ...config } });
  if (write.status !== 204) throw new Error(`config write failed: ${write.text}`);
  const res = await h.call('POST', `/v1/auth/ldap/login/${encodeURIComponent(username)}`, {
    body: { password },
    token: null,
  });
  const json = res.json as { auth?: Auth; errors?: string[] };
  return { status: res.status, auth: json.auth ?? undefined, error: json.errors?.[0] };
}

describe('search-then-bind (binddn/bindpass)', () => {
  it('logs alice in with the policies of her directory groups plus default', async () => {
    const r = await login({}, 'alice', 'alice-pw');
    expect(r.status).toBe(200);
    expect(r.auth).toMatchObject({
      policies: ['admin', 'default', 'dev'],
      metadata: { username: 'alice' },
      renewable: true,
    });
    expect(r.auth?.client_token).toMatch(/^sks\./);
    expect(r.auth?.lease_duration).toBe(768 * 3600);
  });

  it.each([
    ['alice', 'wrong'],
    ['nobody', 'x'],
  ])('refuses %s / %s with "failed to bind as user"', async (user, password) => {
    const r = await login({}, user, password);
    expect(r.status).toBe(400);
    expect(r.error).toBe('ldap operation failed: failed to bind as user');
  });

  it('refuses a wrong service password', async () => {
    const r = await login({ bindpass: 'nope' }, 'alice', 'alice-pw');
    expect(r.status).toBe(400);
    expect(r.error).toMatch(/^ldap operation failed: LDAP bind \(service\) failed: /);
    expect(r.error).not.toContain('nope');
  });

  it('refuses a filter that selects several users', async () => {
    const r = await login({ userattr: 'sn' }, 'Twin', 'twin1-pw');
    expect(r.status).toBe(400);
    expect(r.error).toMatch(/returned several entries for filter "\(sn=Twin\)"/);
  });

  it('matches group names case-insensitively by default (Ops-Team maps to ops-team)', async () => {
    expect((await login({}, 'bob', 'bob-pw')).auth?.policies).toEqual(['default', 'dev', 'ops']);
  });

  it('with case_sensitive_names, Ops-Team does not match the lower-case mapping', async () => {
    const r = await login({ case_sensitive_names: true }, 'bob', 'bob-pw');
    expect(r.auth?.policies).toEqual(['default', 'dev']);
  });
});

describe('user lookup', () => {
  it('discoverdn finds the DN with an anonymous search', async () => {
    const r = await login({ discoverdn: true, binddn: '', bindpass: '' }, 'carol', 'carol-pw');
    expect(r.status).toBe(200);
    expect(r.auth?.policies).toEqual(['default', 'ops']);
  });

  it('without binddn or discoverdn binds as userattr=<username>,userdn (DN-escaped)', async () => {
    const oneil = slapd.users.find((u) => u.uid === 'oneil')!;
    const r = await login({ binddn: '', bindpass: '', userattr: 'cn' }, oneil.cn, oneil.password);
    expect(r.status).toBe(200);
    expect(r.auth?.metadata.username).toBe(oneil.cn);
  });

  it('upndomain with a service account searches userPrincipalName', async () => {
    const r = await login({ upndomain: slapd.upnDomain }, 'alice', 'alice-pw');
    expect(r.status).toBe(200);
    expect(r.auth?.policies).toContain('admin');
  });

  it('upndomain without a service account binds as <username>@<domain> (the directory refuses a non-DN)', async () => {
    const r = await login({ upndomain: slapd.upnDomain, binddn: '', bindpass: '' }, 'alice', 'alice-pw');
    expect(r.status).toBe(400);
    expect(r.error).toBe('ldap operation failed: failed to bind as user');
  });

  it('userfilter narrows the search', async () => {
    const config = { userfilter: '(&({{.UserAttr}}={{.Username}})(!(uid=alice)))' };
    expect((await login(config, 'alice', 'alice-pw')).status).toBe(400);
    expect((await login(config, 'bob', 'bob-pw')).status).toBe(200);
  });
});

describe('groups', () => {
  it('groupattr memberOf with a filter returning the user', async () => {
    const r = await login(
      { groupdn: slapd.peopleDn, groupfilter: '(uid={{.Username}})', groupattr: 'memberOf' },
      'alice',
      'alice-pw',
    );
    expect(r.auth?.policies).toEqual(['admin', 'default', 'staff']);
  });

  it('anonymous_group_search does not see groups hidden from anonymous binds', async () => {
    const config = { groupdn: slapd.staffDn, groupfilter: '(member={{.UserDN}})' };
    expect((await login(config, 'alice', 'alice-pw')).auth?.policies).toEqual(['default', 'staff']);
    expect(
      (await login({ ...config, anonymous_group_search: true }, 'alice', 'alice-pw')).auth?.policies,
    ).toEqual(['default']);
  });

  it('adds local user groups and policies, token_policies, and drops default with token_no_default_policy', async () => {
    await h.call('POST', '/v1/auth/ldap/users/carol', { body: { policies: 'mine', groups: 'local' } });
    const r = await login(
      { token_policies: 'extra,mine', token_no_default_policy: true },
      'Carol',
      'carol-pw',
    );
    expect(r.auth?.policies).toEqual(['extra', 'local-group-policy', 'mine', 'ops']);
    await h.call('DELETE', '/v1/auth/ldap/users/carol');
  });

  it('reads at most maxGroups group entries: one more fails the login rather than dropping groups', async () => {
    const settings = { ...DEFAULT_SETTINGS, ...slapd.authConfig, request_timeout: 10 } as LdapSettings;
    expect((await authenticate(settings, 'alice', 'alice-pw', undefined, 2)).groups.toSorted()).toEqual([
      'admins',
      'devs',
    ]);
    const error = await authenticate(settings, 'alice', 'alice-pw', undefined, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoginFailure);
    expect((error as Error).message).toMatch(
      /^LDAP search for groups using filter ".*" found more than 1 entries/,
    );
    expect(MAX_DIRECTORY_GROUPS).toBe(10_000);
  });

  it('no groupdn means no directory groups', async () => {
    expect((await login({ groupdn: '' }, 'alice', 'alice-pw')).auth?.policies).toEqual(['default']);
  });
});

describe('deny_null_bind', () => {
  it('refuses an empty password by default', async () => {
    const r = await login({}, 'alice', '');
    expect(r.status).toBe(400);
    expect(r.error).toBe(
      'ldap operation failed: password cannot be of zero length when passwordless binds are being denied',
    );
  });

  it('when false, an empty password is an anonymous bind the directory accepts', async () => {
    const r = await login({ deny_null_bind: false }, 'alice', '');
    expect(r.status).toBe(200);
  });
});

describe('injection', () => {
  const attempts = [
    '*',
    'alice)(uid=*',
    '*)(|(uid=*',
    'al*',
    '(uid=alice)',
    'alice\\',
    'alice\u0000',
    'alice,ou=people',
  ];
  it.each(attempts)('%j never logs in with search-then-bind', async (username) => {
    const r = await login({}, username, 'alice-pw');
    expect(r.status).toBe(400);
  });

  it.each(attempts)('%j never logs in with a built DN', async (username) => {
    const r = await login({ binddn: '', bindpass: '' }, username, 'alice-pw');
    expect(r.status).toBe(400);
  });

  test.prop([fc.stringMatching(/^[a-z*()\\,=+ ]{1,12}$/).filter((s) => s.trim().toLowerCase() !== 'alice')], {
    numRuns: 25,
  })("no username but alice logs in with alice's password", async (username) => {
    const r = await login({}, username, 'alice-pw');
    expect(r.status).toBe(400);
  });
});

describe('connections', () => {
  it('tries several URLs in order', async () => {
    const r = await login({ url: `ldap://127.0.0.1:1,${slapd.url}` }, 'alice', 'alice-pw');
    expect(r.status).toBe(200);
    const bad = await login({ url: 'ldap://127.0.0.1:1,ldap://127.0.0.1:2' }, 'alice', 'alice-pw');
    expect(bad.error).toMatch(
      /"ldap:\/\/127\.0\.0\.1:1": .*; error connecting to host "ldap:\/\/127\.0\.0\.1:2"/,
    );
  });

  it('StartTLS with the right CA', async () => {
    const r = await login({ starttls: true, certificate: slapd.certificates.ca }, 'alice', 'alice-pw');
    expect(r.status).toBe(200);
  });

  it('StartTLS with a wrong CA fails, unless insecure_tls', async () => {
    const wrong = await login(
      { starttls: true, certificate: slapd.certificates.wrongCa },
      'alice',
      'alice-pw',
    );
    expect(wrong.status).toBe(400);
    expect(wrong.error).toMatch(/^ldap operation failed: error connecting to host .*(certificate|issuer)/i);
    const insecure = await login(
      { starttls: true, certificate: slapd.certificates.wrongCa, insecure_tls: true },
      'alice',
      'alice-pw',
    );
    expect(insecure.status).toBe(200);
  });

  it('LDAPS by IP and by name with the right CA, and a wrong CA', async () => {
    for (const url of [slapd.ldapsUrl, slapd.ldapsLocalhostUrl]) {
      expect((await login({ url, certificate: slapd.certificates.ca }, 'alice', 'alice-pw')).status).toBe(
        200,
      );
    }
    const wrong = await login(
      { url: slapd.ldapsUrl, certificate: slapd.certificates.wrongCa },
      'alice',
      'alice-pw',
    );
    expect(wrong.status).toBe(400);
  });

  it('tls_min_version tls13 works; a maximum of tls10 is refused by the handshake', async () => {
    const tls = { url: slapd.ldapsUrl, certificate: slapd.certificates.ca };
    expect(
      (await login({ ...tls, tls_min_version: 'tls13', tls_max_version: 'tls13' }, 'alice', 'alice-pw'))
        .status,
    ).toBe(200);
    const old = await login(
      { ...tls, tls_min_version: 'tls10', tls_max_version: 'tls10' },
      'alice',
      'alice-pw',
    );
    expect(old.status).toBe(400);
    expect(old.error).toMatch(/error connecting to host/);
  });

  describe('client certificates', () => {
    let strict: Slapd;
    beforeAll(async () => {
      strict = await startSlapd({ requireClientCert: true });
    }, 120_000);
    afterAll(async () => {
      await strict.stop();
    });

    it('a directory that demands one refuses without and accepts with it', async () => {
      const tls = { url: strict.ldapsUrl, certificate: strict.certificates.ca };
      expect((await login(tls, 'alice', 'alice-pw')).status).toBe(400);
      const r = await login(
        {
          ...tls,
          client_tls_cert: strict.certificates.clientCert,
          client_tls_key: strict.certificates.clientKey,
        },
        'alice',
        'alice-pw',
      );
      expect(r.status).toBe(200);
    });
  });
});

describe('tokens', () => {
  async function lookup(
    token: string,
  ): Promise<{ status: number; data: Record<string, unknown> | undefined }> {
    const res = await h.call('GET', '/v1/auth/token/lookup-self', { token });
    return { status: res.status, data: (res.json as { data?: Record<string, unknown> }).data };
  }

  it('a token looks itself up', async () => {
    const { auth } = await login({ token_ttl: '1h' }, 'alice', 'alice-pw');
    expect(auth?.lease_duration).toBe(3600);
    const r = await lookup(auth!.client_token);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({
      policies: ['admin', 'default', 'dev'],
      meta: { username: 'alice' },
      display_name: 'ldap-alice',
      path: 'auth/ldap/login/alice',
      renewable: true,
    });
    expect(r.data?.['ttl']).toBeGreaterThan(3590);
    expect(Date.parse(String(r.data?.['expire_time']))).toBeGreaterThan(Date.now() + 3590_000);
    expect(r.data?.['creation_time']).toBeCloseTo(Date.now() / 1000, -1);
    expect(JSON.stringify(r.data)).not.toContain(auth!.client_token);
  });

  it('token_max_ttl, token_explicit_max_ttl and token_period set the lifetime', async () => {
    expect(
      (await login({ token_ttl: 0, token_max_ttl: 600 }, 'alice', 'alice-pw')).auth?.lease_duration,
    ).toBe(600);
    expect(
      (await login({ token_ttl: 600, token_explicit_max_ttl: 60 }, 'alice', 'alice-pw')).auth?.lease_duration,
    ).toBe(60);
    const periodic = await login({ token_period: '2m' }, 'alice', 'alice-pw');
    expect(periodic.auth?.lease_duration).toBe(120);
    expect((await lookup(periodic.auth!.client_token)).data).toMatchObject({ period: 120 });
  });

  it('expires', async () => {
    const { auth } = await login({ token_ttl: 1 }, 'alice', 'alice-pw');
    expect((await lookup(auth!.client_token)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await lookup(auth!.client_token)).status).toBe(403);
  });

  it('token_num_uses limits the uses', async () => {
    const { auth } = await login({ token_num_uses: 2 }, 'alice', 'alice-pw');
    expect((await lookup(auth!.client_token)).status).toBe(200);
    expect((await lookup(auth!.client_token)).status).toBe(200);
    expect((await lookup(auth!.client_token)).status).toBe(403);
  });

  it('token_bound_cidrs refuses logins from elsewhere and ties the token to them', async () => {
    const outside = await login({ token_bound_cidrs: '10.0.0.0/8' }, 'alice', 'alice-pw');
    expect(outside.status).toBe(403);
    expect(outside.error).toBe('permission denied');
    const inside = await login({ token_bound_cidrs: ['127.0.0.0/8'] }, 'alice', 'alice-pw');
    expect(inside.status).toBe(200);
    expect((await lookup(inside.auth!.client_token)).data).toMatchObject({ bound_cidrs: ['127.0.0.0/8'] });
  });

  it('token_type batch issues a non-renewable batch token', async () => {
    const { auth } = await login({ token_type: 'batch' }, 'alice', 'alice-pw');
    expect(auth).toMatchObject({ renewable: false, token_type: 'batch' });
    expect(auth?.client_token).toMatch(/^skb\./);
  });

  it('a login token cannot administer', async () => {
    const { auth } = await login({}, 'alice', 'alice-pw');
    expect((await h.call('GET', '/v1/auth/ldap/config', { token: auth!.client_token })).status).toBe(403);
  });

  it('no bindpass or foreign token in any answer', () => {
    expect(h.seen.length).toBeGreaterThan(10);
    for (const text of h.seen) expect(text).not.toContain(slapd.reader.password);
  });
});
