// Generated from README.md by src/readme-examples.test.ts; do not edit.
// Regenerate: SKED_UPDATE_README=1 pnpm --filter @sked/secrets-client test
import { ApiError, createSecretsClient, InvalidRequestError } from '../src/index.js';
import type { ReadmeContext } from './readme-generate.js';

export async function quickExample(context: ReadmeContext) {
  const { address, rootToken, directory } = context;
  void address;
  void rootToken;
  void directory;

  const client = createSecretsClient(); // SKED_SECRETS_ADDR (default http://127.0.0.1:8200), SKED_SECRETS_TOKEN
  const auth = (await client.ldap.login('alice', 'alice-pw')).data; // every call resolves { data, meta }
  const me = client.withDefaults({ token: auth.client_token });
  const lookup = (await me.token.lookupSelf()).data; // { policies, meta: { username }, ttl, expire_time, ... }

  return { client, auth, me, lookup };
}

export async function walkthrough(context: ReadmeContext) {
  const { address, rootToken, directory } = context;
  void address;
  void rootToken;
  void directory;

  const admin = createSecretsClient({ address, token: rootToken }); // mount: 'ldap' = auth/ldap

  await admin.ldap.config.write({
    url: directory.url,
    starttls: true,
    certificate: directory.ca,
    binddn: 'cn=reader,ou=services,dc=sked,dc=test',
    bindpass: 'reader-pw',
    userdn: 'ou=people,dc=sked,dc=test',
    userattr: 'uid',
    groupdn: 'ou=groups,dc=sked,dc=test',
    token_ttl: '1h',
  });
  const config = (await admin.ldap.config.read()).data; // config.bindpass === '', config.token_ttl === 3600

  await admin.ldap.groups.write('admins', { policies: ['admin'] });
  await admin.ldap.users.write('alice', { policies: 'audit', groups: ['oncall'] });
  const groups = (await admin.ldap.groups.list()).data; // ['admins']
  const alice = (await admin.ldap.users.read('alice')).data; // { policies: ['audit'], groups: 'oncall' }
  const nobody = await admin.ldap.users.read('nobody').catch((error: unknown) => error);
  // ApiError.is(nobody): nobody.status === 404, as a read of a missing object in every sked client

  const anonymous = createSecretsClient({ address });
  const auth = (await anonymous.ldap.login('alice', 'alice-pw')).data;
  // auth.policies: ['admin', 'audit', 'default'], auth.lease_duration: 3600

  const me = anonymous.withDefaults({ token: auth.client_token });
  const lookup = (await me.token.lookupSelf()).data; // lookup.display_name === 'ldap-alice', lookup.ttl <= 3600

  const refused = await anonymous.ldap.login('alice', 'wrong').catch((error: unknown) => error);
  // ApiError.is(refused): refused.status === 400, refused.message === 'ldap operation failed: failed to bind as user'

  const forbidden = await anonymous.ldap.groups.list().catch((error: unknown) => error);
  // ApiError.is(forbidden): forbidden.status === 403 (permission denied)

  const invalid = await admin.ldap.config.write({ starttls: 'yes' as never }).catch((error: unknown) => error);
  // InvalidRequestError.is(invalid): invalid.parameter === 'config.starttls'

  await admin.ldap.groups.delete('admins');
  const left = (await admin.ldap.groups.list()).data; // [] (the service answers 404 with no errors)

  return { admin, config, groups, alice, nobody, anonymous, auth, me, lookup, refused, forbidden, invalid, left };
}
