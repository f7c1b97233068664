import { describe, expect, it } from 'vitest';

import { problemsOf, valueOf } from '../test/results.js';
import * as M from './index.js';
import { validate } from './validate.js';

describe('LDAP auth method shapes', () => {
  it('keeps the defaults of the spec table', () => {
    expect(M.LdapConfigDefaults).toMatchObject({
      url: 'ldap://127.0.0.1',
      case_sensitive_names: false,
      request_timeout: 90,
      tls_min_version: 'tls12',
      tls_max_version: 'tls12',
      userattr: 'cn',
      deny_null_bind: true,
      token_num_uses: 0,
      groupfilter: '(|(memberUid={{.Username}})(member={{.UserDN}})(uniqueMember={{.UserDN}}))',
    });
  });

  it('accepts an empty configuration body (every field is optional)', () => {
    expect(valueOf(validate(M.LdapConfigRequest, {}))).toEqual({});
  });

  it.each([
    [
      { tls_min_version: 'tls14' },
      '/tls_min_version',
      'expected one of "tls10", "tls11", "tls12" or "tls13" but got the string "tls14"',
    ],
    [{ request_timeout: -1 }, '/request_timeout', 'expected a number of at least 0 but got the number -1'],
    [{ token_policies: [1] }, '/token_policies/0', 'expected a string but got the number 1'],
    [{ deny_null_bind: 'false' }, '/deny_null_bind', 'expected a boolean but got the string "false"'],
    [{ token_num_uses: 1.5 }, '/token_num_uses', 'expected an integer but got the number 1.5'],
  ])('rejects %j at %s', (body, path, message) => {
    expect(problemsOf(validate(M.LdapConfigRequest, body))).toEqual([{ path, message }]);
  });

  it('requires the login password', () => {
    expect(problemsOf(validate(M.LdapLoginRequest, {}))).toEqual([
      { path: '/password', message: 'is required but missing' },
    ]);
  });

  it('reads group policies as a list but writes them as a comma-separated string', () => {
    expect(problemsOf(validate(M.LdapGroupWriteRequest, { policies: ['a'] }))).toEqual([
      { path: '/policies', message: 'expected a string but got an array of 1 item' },
    ]);
    expect(problemsOf(validate(M.LdapGroup, { policies: 'a,b' }))).toEqual([
      { path: '/policies', message: 'expected an array but got the string "a,b"' },
    ]);
  });
});

describe('peering shapes', () => {
  it.each([
    ['cluster-02', true],
    ['a', true],
    ['-bad', false],
    ['bad-', false],
    ['has space', false],
    ['x'.repeat(64), false],
    ['', false],
  ])('PeerName %j valid: %s', (name, ok) => {
    expect(validate(M.PeeringGenerateTokenRequest, { PeerName: name }).ok).toBe(ok);
  });

  it('requires the peer name and token to establish', () => {
    expect(problemsOf(validate(M.PeeringEstablishRequest, {}))).toEqual([
      { path: '/PeerName', message: 'is required but missing' },
      { path: '/PeeringToken', message: 'is required but missing' },
    ]);
  });

  it('checks server addresses and states', () => {
    expect(
      problemsOf(
        validate(M.PeeringGenerateTokenRequest, { PeerName: 'p', ServerExternalAddresses: ['nohost'] }),
      ),
    ).toEqual([
      {
        path: '/ServerExternalAddresses/0',
        message: 'expected an address of the form host:port but got the string "nohost"',
      },
    ]);
    expect(Object.values(M.PeeringState)).toEqual(['INITIAL', 'ACTIVE', 'TERMINATED']);
  });
});

describe('exec frames', () => {
  it.each([
    [{ stdin: { data: '***' } }, '/stdin/data', 'expected base64-encoded bytes but got the string "***"'],
    [{ tty_size: { height: 24 } }, '/tty_size/width', 'is required but missing'],
    [
      { tty_size: { height: -1, width: 80 } },
      '/tty_size/height',
      'expected a number of at least 0 but got the number -1',
    ],
    [{ version: 1, auth_token: 7 }, '/auth_token', 'expected a string but got the number 7'],
  ])('rejects the client frame %j at %s', (frame, path, message) => {
    expect(problemsOf(validate(M.ExecClientFrame, frame))).toEqual([{ path, message }]);
  });

  it('rejects a server frame with a non-integer exit code', () => {
    expect(problemsOf(validate(M.ExecServerFrame, { exited: true, result: { exit_code: '0' } }))).toEqual([
      { path: '/result/exit_code', message: 'expected an integer but got the string "0"' },
    ]);
  });
});

describe('constants', () => {
  it('lists every task event type of the spec table', () => {
    expect(Object.values(M.TaskEventType)).toHaveLength(19);
    expect(Object.values(M.TaskEventType)).toContain('Building Task Directory');
  });

  it('lists every event type of the spec', () => {
    expect(Object.values(M.EventType)).toHaveLength(26);
  });
});
