/**
 * Request bodies checked against the model's schemas in `@sked/http`, before anything is sent: counted
 * at a real HTTP server.
 */
import { ValidationError } from '@sked/model';
import { startRecordingServer, type RecordingServer } from '@sked/testkit/net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createSecretsClient, InvalidRequestError, type LdapConfigRequest } from './index.js';

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer(() => ({ status: 204, headers: {}, body: '' }));
});
afterAll(() => server.close());

const refusal = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'sent',
    (e: unknown) => (InvalidRequestError.is(e) ? [e.parameter, e.message, ValidationError.is(e.cause)] : e),
  );

describe('LDAP bodies', () => {
  it('sends a configuration of the model, and refuses another before any request', async () => {
    // Arrange
    const { ldap } = createSecretsClient({ address: server.url, env: false, token: 'root' });
    const before = server.requests.length;
    // Act
    const outcomes = [
      await refusal(ldap.config.write({ url: 'ldap://127.0.0.1', token_ttl: '1h', token_policies: ['a'] })),
      await refusal(ldap.config.write({ starttls: 'yes' } as unknown as LdapConfigRequest)),
      await refusal(ldap.config.write({ token_num_uses: -1 })),
      await refusal(ldap.config.write({ tls_min_version: 'tls9' } as unknown as LdapConfigRequest)),
      await refusal(ldap.config.write({ userattr: 'uid', nope: 1 } as unknown as LdapConfigRequest)),
      await refusal(ldap.config.write([] as unknown as LdapConfigRequest)),
    ];
    // Assert
    expect(outcomes).toEqual([
      'sent',
      [
        'config.starttls',
        'The LDAP configuration is not valid: starttls: expected a boolean but got the string "yes".',
        true,
      ],
      [
        'config.token_num_uses',
        'The LDAP configuration is not valid: token_num_uses: expected a number of at least 0 but got the number -1.',
        true,
      ],
      [
        'config.tls_min_version',
        'The LDAP configuration is not valid: tls_min_version: expected one of "tls10", "tls11", "tls12" or "tls13" but got the string "tls9".',
        true,
      ],
      [
        'config.nope',
        expect.stringMatching(/^The LDAP configuration is not valid: nope: is not a known key/),
        true,
      ],
      [
        'config',
        'The LDAP configuration is not valid: (root): expected an object but got an array of 0 items.',
        true,
      ],
    ]);
    expect(server.requests.slice(before).map((r) => [r.method, r.url])).toEqual([
      ['POST', '/v1/auth/ldap/config'],
    ]);
  });

  it('sends group and user records of the model', async () => {
    const { ldap } = createSecretsClient({ address: server.url, env: false, token: 'root' });
    const before = server.requests.length;
    await ldap.groups.write('devs', { policies: ['a', 'b'] });
    await ldap.users.write('amy', { policies: 'a', groups: ['devs'] });
    expect(server.requests.slice(before).map((r) => JSON.parse(r.body) as unknown)).toEqual([
      { policies: 'a,b' },
      { policies: 'a', groups: 'devs' },
    ]);
  });
});
