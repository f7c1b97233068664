/**
 * Writes as third-party clients send them: JSON `null` for a comma-list field is absent (issue 21
 * item 2), and a configuration read never returns the client key (issue 22 item 7).
 */
import { slapdCertificates } from '@sked/testkit/slapd';
import { beforeAll, describe, expect, it } from 'vitest';
import { startSecrets, type SecretsHarness } from './test/harness.js';

let h: SecretsHarness;
beforeAll(async () => {
  h = await startSecrets();
});

async function read(path: string): Promise<Record<string, unknown>> {
  const res = await h.call('GET', path);
  expect(res.status).toBe(200);
  return (res.json as { data: Record<string, unknown> }).data;
}

describe('null for a comma-list field', () => {
  it('a user write with "policies": null and groups is accepted, policies empty', async () => {
    const res = await h.call('POST', '/v1/auth/ldap/users/bob', { body: { policies: null, groups: 'devs' } });
    expect([res.status, res.text]).toEqual([204, '']);
    expect(await read('/v1/auth/ldap/users/bob')).toEqual({ policies: [], groups: 'devs' });
  });

  it('a user write with "groups": null keeps no groups', async () => {
    await h.call('POST', '/v1/auth/ldap/users/carol', { body: { policies: 'p', groups: null } });
    expect(await read('/v1/auth/ldap/users/carol')).toEqual({ policies: ['p'], groups: '' });
  });

  it('a group write with "policies": null is a group without policies', async () => {
    const res = await h.call('PUT', '/v1/auth/ldap/groups/devs', { body: { policies: null } });
    expect(res.status).toBe(204);
    expect(await read('/v1/auth/ldap/groups/devs')).toEqual({ policies: [] });
  });

  it('a config write with null token_policies and token_bound_cidrs keeps the stored values', async () => {
    const first = await h.call('POST', '/v1/auth/ldap/config', {
      body: { token_policies: 'a,b', token_bound_cidrs: '10.0.0.0/8' },
    });
    expect(first.status).toBe(204);
    const res = await h.call('POST', '/v1/auth/ldap/config', {
      body: { token_policies: null, token_bound_cidrs: null, token_ttl: '1h' },
    });
    expect([res.status, res.text]).toEqual([204, '']);
    expect(await read('/v1/auth/ldap/config')).toMatchObject({
      token_policies: ['a', 'b'],
      token_bound_cidrs: ['10.0.0.0/8'],
      token_ttl: 3600,
    });
    await h.call('POST', '/v1/auth/ldap/config', { body: { token_policies: '', token_bound_cidrs: '' } });
  });

  it('null is still refused for a field that is not a list', async () => {
    const res = await h.call('POST', '/v1/auth/ldap/config', { body: { token_ttl: null } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ errors: [expect.stringContaining('invalid value for "token_ttl"')] });
  });
});

describe('client_tls_key', () => {
  it('is stored but a config read answers it blank', async () => {
    const certificates = await slapdCertificates();
    const res = await h.call('POST', '/v1/auth/ldap/config', {
      body: { client_tls_cert: certificates.clientCert, client_tls_key: certificates.clientKey },
    });
    expect(res.status).toBe(204);
    const config = await read('/v1/auth/ldap/config');
    expect(config['client_tls_key']).toBe('');
    expect(config['client_tls_cert']).toBe(certificates.clientCert);
    expect(h.seen.join('\n')).not.toContain('PRIVATE KEY');
    expect(h.service.method.settings().client_tls_key).toBe(certificates.clientKey);
  });
});
