// The secrets client against sked-server against a real OpenLDAP: every endpoint, every parameter
// that changes a login, injection attempts, TLS with the right and a wrong CA.
import { createServer, type Socket } from 'node:net';
import { LdapConfigDefaults } from '@sked/model';
import { startServer, type RunningServer } from '@sked/server';
import {
  ApiError,
  createSecretsClient,
  InvalidRequestError,
  type LdapConfigRequest,
  type SecretsClient,
} from '@sked/secrets-client';
import { startSlapd, type Slapd } from '@sked/testkit/slapd';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let slapd: Slapd;
let strict: Slapd;
let server: RunningServer;
let admin: SecretsClient;
let anonymous: SecretsClient;

/** Everything a login depends on, reset before each case (writes merge): the defaults, then the directory. */
function baseline(): LdapConfigRequest {
  return {
    ...LdapConfigDefaults,
    token_policies: [],
    token_bound_cidrs: [],
    ...slapd.authConfig,
    request_timeout: 10,
  };
}

/** Logs in under a configuration: the policies, or the error message. */
async function outcome(
  config: LdapConfigRequest,
  username: string,
  password: string,
): Promise<string[] | string> {
  await admin.ldap.config.write({ ...baseline(), ...config });
  try {
    return (await anonymous.ldap.login(username, password)).data.policies;
  } catch (error) {
    if (ApiError.is(error)) return `${error.status} ${error.message}`;
    throw error;
  }
}

beforeAll(async () => {
  [slapd, strict] = await Promise.all([startSlapd(), startSlapd({ requireClientCert: true })]);
  server = await startServer({ bind: '127.0.0.1', schedulerPort: 0, nodes: 0 });
  admin = createSecretsClient({ address: server.secrets.url, token: server.secrets.rootToken, env: false });
  anonymous = createSecretsClient({ address: server.secrets.url, env: false });
  for (const [group, policies] of [
    ['devs', 'dev'],
    ['admins', 'admin'],
    ['ops-team', 'ops'],
    ['staff', 'staff'],
  ]) {
    await admin.ldap.groups.write(group as string, { policies: policies as string });
  }
}, 120_000);
afterAll(async () => {
  await server?.close();
  await Promise.all([slapd?.stop(), strict?.stop()]);
});

describe('every endpoint through the client', () => {
  it('config, groups, users, login and lookup-self', async () => {
    // Arrange
    await admin.ldap.config.write(baseline());
    // Act + Assert: config
    const { data: config } = await admin.ldap.config.read();
    expect(config).toMatchObject({ url: slapd.url, userattr: 'uid', bindpass: '', request_timeout: 10 });
    // groups
    expect((await admin.ldap.groups.list()).data).toEqual(['admins', 'devs', 'ops-team', 'staff']);
    expect((await admin.ldap.groups.read('ADMINS')).data).toEqual({ policies: ['admin'] });
    // users
    await admin.ldap.users.write('Carol', { policies: ['p2', 'p1'], groups: ['admins'] });
    expect((await admin.ldap.users.list()).data).toEqual(['carol']);
    expect((await admin.ldap.users.read('carol')).data).toEqual({ policies: ['p1', 'p2'], groups: 'admins' });
    // login: carol's local group, her policies, her directory group Ops-Team, default
    const { data: auth } = await anonymous.ldap.login('carol', 'carol-pw');
    expect(auth.policies).toEqual(['admin', 'default', 'ops', 'p1', 'p2']);
    const { data: lookup } = await anonymous.withDefaults({ token: auth.client_token }).token.lookupSelf();
    expect(lookup).toMatchObject({
      display_name: 'ldap-carol',
      meta: { username: 'carol' },
      path: 'auth/ldap/login/carol',
    });
    // delete
    await admin.ldap.users.delete('carol');
    const missing = await admin.ldap.users.read('carol').catch((e: unknown) => e);
    expect(ApiError.is(missing) && missing.status).toBe(404);
    expect((await admin.ldap.users.list()).data).toEqual([]);
  });

  it('the root token is needed for administration; a login token is not enough', async () => {
    await admin.ldap.config.write(baseline());
    const { data: auth } = await anonymous.ldap.login('alice', 'alice-pw');
    const user = anonymous.withDefaults({ token: auth.client_token });
    for (const call of [
      () => anonymous.ldap.config.read(),
      () => user.ldap.groups.list(),
      () => user.ldap.users.write('x', {}),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(ApiError.is(error) && `${error.status} ${error.message}`).toBe('403 permission denied');
    }
  });

  it('a refused config write stores nothing', async () => {
    await admin.ldap.config.write(baseline());
    const error = await admin.ldap.config
      .write({ binddn: 'cn=other', tls_min_version: 'tls13', tls_max_version: 'tls10' })
      .catch((e: unknown) => e);
    expect(ApiError.is(error) && error.message).toBe(
      '"tls_max_version" must be greater than or equal to "tls_min_version"',
    );
    expect((await admin.ldap.config.read()).data.binddn).toBe(slapd.reader.dn);
  });

  it('input the client can tell is wrong never leaves it', async () => {
    const error = await admin.ldap.config.write({ deny_null_bind: 'no' } as never).catch((e: unknown) => e);
    expect(InvalidRequestError.is(error) && error.parameter).toBe('config.deny_null_bind');
  });
});

/** An asymmetric matcher for a string matching `pattern` (outside a conditional expression). */
function matching(pattern: RegExp): unknown {
  return expect.stringMatching(pattern);
}

const FAILED = '400 ldap operation failed: failed to bind as user';

describe('every parameter that changes a login', () => {
  // [label, config, username, password, expected policies or error]
  const cases: [string, () => LdapConfigRequest, string, string, string[] | string | RegExp][] = [
    ['search-then-bind', () => ({}), 'alice', 'alice-pw', ['admin', 'default', 'dev']],
    ['wrong password', () => ({}), 'alice', 'nope', FAILED],
    [
      'binddn/bindpass wrong',
      () => ({ bindpass: 'bad' }),
      'alice',
      'alice-pw',
      /^400 ldap operation failed: LDAP bind \(service\) failed/,
    ],
    [
      'discoverdn',
      () => ({ binddn: '', bindpass: '', discoverdn: true }),
      'bob',
      'bob-pw',
      ['default', 'dev', 'ops'],
    ],
    [
      'built DN (userattr, userdn)',
      () => ({ binddn: '', bindpass: '', userattr: 'cn' }),
      'bob',
      'bob-pw',
      ['default', 'dev', 'ops'],
    ],
    ['upndomain', () => ({ upndomain: slapd.upnDomain }), 'alice', 'alice-pw', ['admin', 'default', 'dev']],
    [
      'userfilter',
      () => ({ userfilter: '(&({{.UserAttr}}={{.Username}})(sn=Builder))' }),
      'alice',
      'alice-pw',
      FAILED,
    ],
    ['several users', () => ({ userattr: 'sn' }), 'Twin', 'twin1-pw', /several entries/],
    [
      'groupfilter + groupattr memberOf',
      () => ({ groupdn: slapd.peopleDn, groupfilter: '(uid={{.Username}})', groupattr: 'memberOf' }),
      'alice',
      'alice-pw',
      ['admin', 'default', 'staff'],
    ],
    [
      'groupattr cn on group entries',
      () => ({ groupattr: 'cn' }),
      'bob',
      'bob-pw',
      ['default', 'dev', 'ops'],
    ],
    [
      'groupdn hidden from anonymous',
      () => ({ groupdn: slapd.staffDn }),
      'alice',
      'alice-pw',
      ['default', 'staff'],
    ],
    [
      'anonymous_group_search',
      () => ({ groupdn: slapd.staffDn, anonymous_group_search: true }),
      'alice',
      'alice-pw',
      ['default'],
    ],
    ['case_sensitive_names', () => ({ case_sensitive_names: true }), 'bob', 'bob-pw', ['default', 'dev']],
    [
      'deny_null_bind (default)',
      () => ({}),
      'alice',
      '',
      /^400 ldap operation failed: password cannot be of zero length/,
    ],
    ['deny_null_bind false', () => ({ deny_null_bind: false }), 'alice', '', ['admin', 'default', 'dev']],
    [
      'several URLs in order',
      () => ({ url: `ldap://127.0.0.1:1,${slapd.url}` }),
      'alice',
      'alice-pw',
      ['admin', 'default', 'dev'],
    ],
    [
      'unreachable directory',
      () => ({ url: 'ldap://127.0.0.1:1' }),
      'alice',
      'alice-pw',
      /^400 ldap operation failed: error connecting to host/,
    ],
    [
      'token_policies',
      () => ({ token_policies: 'extra' }),
      'alice',
      'alice-pw',
      ['admin', 'default', 'dev', 'extra'],
    ],
    [
      'token_no_default_policy',
      () => ({ token_no_default_policy: true }),
      'alice',
      'alice-pw',
      ['admin', 'dev'],
    ],
    [
      'token_bound_cidrs outside',
      () => ({ token_bound_cidrs: ['10.0.0.0/8'] }),
      'alice',
      'alice-pw',
      '403 permission denied',
    ],
    [
      'StartTLS, right CA',
      () => ({ starttls: true, certificate: slapd.certificates.ca }),
      'alice',
      'alice-pw',
      ['admin', 'default', 'dev'],
    ],
    [
      'StartTLS, wrong CA',
      () => ({ starttls: true, certificate: slapd.certificates.wrongCa }),
      'alice',
      'alice-pw',
      /^400 ldap operation failed: error connecting to host/,
    ],
    [
      'StartTLS, wrong CA, insecure_tls',
      () => ({ starttls: true, certificate: slapd.certificates.wrongCa, insecure_tls: true }),
      'alice',
      'alice-pw',
      ['admin', 'default', 'dev'],
    ],
    [
      'LDAPS, right CA',
      () => ({ url: slapd.ldapsLocalhostUrl, certificate: slapd.certificates.ca }),
      'alice',
      'alice-pw',
      ['admin', 'default', 'dev'],
    ],
    [
      'LDAPS, wrong CA',
      () => ({ url: slapd.ldapsUrl, certificate: slapd.certificates.wrongCa }),
      'alice',
      'alice-pw',
      /^400 ldap operation failed: error connecting to host/,
    ],
    [
      'TLS 1.3 only',
      () => ({
        url: slapd.ldapsUrl,
        certificate: slapd.certificates.ca,
        tls_min_version: 'tls13',
        tls_max_version: 'tls13',
      }),
      'alice',
      'alice-pw',
      ['admin', 'default', 'dev'],
    ],
    [
      'TLS 1.0 only',
      () => ({
        url: slapd.ldapsUrl,
        certificate: slapd.certificates.ca,
        tls_min_version: 'tls10',
        tls_max_version: 'tls10',
      }),
      'alice',
      'alice-pw',
      /^400 ldap operation failed: error connecting to host/,
    ],
    [
      'client certificate demanded, none given',
      () => ({ url: strict.ldapsUrl, certificate: strict.certificates.ca, binddn: '', bindpass: '' }),
      'alice',
      'alice-pw',
      /^400 ldap operation failed: /,
    ],
    [
      'client certificate given',
      () => ({
        url: strict.ldapsUrl,
        certificate: strict.certificates.ca,
        client_tls_cert: strict.certificates.clientCert,
        client_tls_key: strict.certificates.clientKey,
        binddn: strict.reader.dn,
        bindpass: strict.reader.password,
        userdn: strict.peopleDn,
        groupdn: strict.groupsDn,
      }),
      'alice',
      'alice-pw',
      ['admin', 'default', 'dev'],
    ],
  ];

  it.each(cases)('%s', async (_label, config, username, password, expected) => {
    const result = await outcome(config(), username, password);
    const wanted: unknown = expected instanceof RegExp ? matching(expected) : expected;
    expect(result).toEqual(wanted);
  });

  it('request_timeout bounds a login against a directory that never answers', async () => {
    const held: Socket[] = [];
    const hanging = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const address = hanging.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const started = Date.now();
    const result = await outcome(
      { url: `ldap://127.0.0.1:${port}`, request_timeout: '1s' },
      'alice',
      'alice-pw',
    );
    expect(result).toMatch(/^400 ldap operation failed: /);
    expect(Date.now() - started).toBeLessThan(5000);
    for (const socket of held) socket.destroy();
    hanging.close();
  });
});

describe('tokens through the client', () => {
  it('token_ttl, token_num_uses and expiry', async () => {
    await admin.ldap.config.write({ ...baseline(), token_ttl: '2s', token_num_uses: 3 });
    const { data: auth } = await anonymous.ldap.login('alice', 'alice-pw');
    expect(auth.lease_duration).toBe(2);
    const me = anonymous.withDefaults({ token: auth.client_token });
    expect((await me.token.lookupSelf()).data.num_uses).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const error = await me.token.lookupSelf().catch((e: unknown) => e);
    expect(ApiError.is(error) && error.status).toBe(403);
  });
});

describe('injection attempts never log anyone in', () => {
  const usernames = [
    '*',
    'alice)(uid=*',
    '*)(|(uid=*',
    'al*e',
    '(uid=alice)',
    'alice)(|(password=*',
    'alice\\2a',
    'uid=alice,ou=people',
  ];
  it.each(usernames)('%j', async (username) => {
    for (const config of [{}, { binddn: '', bindpass: '' }, { upndomain: slapd.upnDomain }]) {
      expect(await outcome(config, username, 'alice-pw')).toMatch(/^400 ldap operation failed: /);
    }
  });
});
