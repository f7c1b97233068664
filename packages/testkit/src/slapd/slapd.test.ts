import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlapd, type Slapd } from './index.js';

const run = promisify(execFile);

let slapd: Slapd;
beforeAll(async () => {
  slapd = await startSlapd();
}, 120_000);
afterAll(async () => {
  await slapd.stop();
});

async function search(args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run('ldapsearch', ['-LLL', '-x', ...args], { env: { ...process.env, ...env } });
  return stdout;
}

describe('startSlapd', () => {
  it('answers on the plain URL with the people and groups loaded', async () => {
    const out = await search(['-H', slapd.url, '-b', slapd.peopleDn, '(uid=alice)', 'cn', 'memberOf']);
    expect(out).toContain(`dn: ${slapd.users[0]?.dn}`);
    // memberOf is filled by the overlay from groupOfNames membership (admins, staff), not from posixGroup
    expect(out).toMatch(/memberOf: cn=admins,ou=groups,dc=sked,dc=test/);
    expect(out).toMatch(/memberOf: cn=staff,ou=staff,dc=sked,dc=test/);
    expect(out).not.toMatch(/memberOf: cn=devs/);
  });

  it('binds people with their password and refuses a wrong one', async () => {
    const alice = slapd.users[0]!;
    await expect(
      search(['-H', slapd.url, '-D', alice.dn, '-w', alice.password, '-b', '', '-s', 'base']),
    ).resolves.toBeDefined();
    await expect(
      search(['-H', slapd.url, '-D', alice.dn, '-w', 'wrong', '-b', '', '-s', 'base']),
    ).rejects.toThrow(/Invalid credentials/);
  });

  it('hides ou=staff from anonymous searches but not from bound ones', async () => {
    const anonymous = await search(['-H', slapd.url, '-b', slapd.staffDn, '(cn=staff)', 'cn']);
    expect(anonymous).not.toContain('cn: staff');
    const bound = await search([
      '-H',
      slapd.url,
      '-D',
      slapd.reader.dn,
      '-w',
      slapd.reader.password,
      '-b',
      slapd.staffDn,
      '(cn=staff)',
      'cn',
    ]);
    expect(bound).toContain('cn: staff');
  });

  it('speaks StartTLS and LDAPS with the test CA, and refuses a wrong CA', async () => {
    const env = { LDAPTLS_CACERT: slapd.certificates.caFile, LDAPTLS_REQCERT: 'demand' };
    expect(await search(['-ZZ', '-H', slapd.url, '-b', slapd.groupsDn, '(cn=devs)', 'cn'], env)).toContain(
      'cn: devs',
    );
    expect(await search(['-H', slapd.ldapsUrl, '-b', slapd.groupsDn, '(cn=devs)', 'cn'], env)).toContain(
      'cn: devs',
    );
    const wrong = `${slapd.dir}/wrong-ca.pem`;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(wrong, slapd.certificates.wrongCa);
    await expect(
      search(['-H', slapd.ldapsUrl, '-b', '', '-s', 'base'], {
        LDAPTLS_CACERT: wrong,
        LDAPTLS_REQCERT: 'demand',
      }),
    ).rejects.toThrow(/Can't contact LDAP server/);
  });

  it('adds entries and stops', async () => {
    const other = await startSlapd();
    await other.add(
      `dn: cn=zed,${other.peopleDn}\nobjectClass: inetOrgPerson\ncn: zed\nsn: Zed\nuid: zed\n\n`,
    );
    expect(await search(['-H', other.url, '-b', other.peopleDn, '(uid=zed)', 'cn'])).toContain('cn: zed');
    await other.stop();
    await expect(search(['-H', other.url, '-b', '', '-s', 'base'])).rejects.toThrow(
      /Can't contact LDAP server/,
    );
  });
});
