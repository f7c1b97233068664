// Public-API type tests: checked by `tsc --noEmit` (the typecheck script), which fails on any
// expectation that does not hold.
import type { ApiResponse } from '@sked/http';
import { expectTypeOf } from 'vitest';

import {
  createSecretsClient,
  createTransport,
  type LdapAuth,
  type LdapConfig,
  type LdapGroup,
  type Result,
  SECRETS_DEFAULT_ADDRESS,
  type SecretsClient,
  type SecretsMeta,
} from '../src/index.js';

const client = createSecretsClient({ env: false, mount: 'corp-ldap' });
expectTypeOf(client).toEqualTypeOf<SecretsClient>();
expectTypeOf(createSecretsClient(createTransport({ env: false }))).toEqualTypeOf<SecretsClient>();
expectTypeOf(client.withDefaults({ token: 't', mount: 'ldap' })).toEqualTypeOf<SecretsClient>();
expectTypeOf(SECRETS_DEFAULT_ADDRESS).toEqualTypeOf<string>();

// Every call resolves { data, meta }, meta carrying the envelope's warnings too.
expectTypeOf(client.ldap.groups.list()).toEqualTypeOf<Promise<Result<string[]>>>();
expectTypeOf(client.ldap.groups.read('admins')).toEqualTypeOf<Promise<Result<LdapGroup>>>();
expectTypeOf(client.ldap.config.read()).toEqualTypeOf<Promise<Result<LdapConfig>>>();
expectTypeOf(client.ldap.login('alice', 'pw')).toEqualTypeOf<Promise<Result<LdapAuth>>>();
expectTypeOf(client.ldap.groups.delete('admins')).toEqualTypeOf<Promise<Result<void>>>();
expectTypeOf<Result<LdapGroup>['meta']>().toEqualTypeOf<SecretsMeta>();
expectTypeOf<Result<LdapGroup>>().toMatchTypeOf<ApiResponse<LdapGroup>>();
expectTypeOf<SecretsMeta['warnings']>().toEqualTypeOf<readonly string[]>();

// The options accept only what means something for the service.
// @ts-expect-error the secrets service has no namespaces
void createSecretsClient({ namespace: 'prod' });
// @ts-expect-error nor regions
void createSecretsClient({ region: 'west' });
// @ts-expect-error the environment prefix is the client's own
void createSecretsClient({ envPrefix: 'SKED_' });
// @ts-expect-error the mount goes into the options object, not after it
void createSecretsClient({}, 'ldap');
// @ts-expect-error a configuration write takes the model's request type
void client.ldap.config.write({ not_a_parameter: true });
