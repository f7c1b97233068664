import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSlapd, type Slapd } from '@sked/testkit/slapd';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sked, skedOnTerminal, startServer, type ServerProcess } from './harness.js';

let server: ServerProcess;
let slapd: Slapd;
let home: string;
let caFile: string;

/** sked with the secrets address, HOME in a temporary directory, and the root token unless `token` says otherwise. */
const run = (
  args: string[],
  options: { input?: string; token?: string | null; env?: Record<string, string> } = {},
) =>
  sked(args, {
    ...(options.input === undefined ? {} : { input: options.input }),
    env: {
      ...server.env,
      HOME: home,
      ...(options.token === null ? {} : { SKED_SECRETS_TOKEN: options.token ?? server.secretsRootToken }),
      ...options.env,
    },
  });

beforeAll(async () => {
  [server, slapd] = await Promise.all([startServer([]), startSlapd()]);
  home = await mkdtemp(join(tmpdir(), 'sked-home-'));
  caFile = join(home, 'ca.pem');
  await import('node:fs/promises').then((fs) => fs.writeFile(caFile, slapd.certificates.ca));
});
afterAll(async () => {
  await Promise.all([server?.close(), slapd?.stop()]);
});

describe('ldap config', () => {
  it('writes key=value pairs (a file with @, a secret from stdin) and reads them back without bindpass', async () => {
    const written = await run(
      [
        'ldap',
        'config',
        'write',
        `url=${slapd.url}`,
        'starttls=true',
        `certificate=@${caFile}`,
        `binddn=${slapd.reader.dn}`,
        'bindpass=-',
        `userdn=${slapd.peopleDn}`,
        'userattr=uid',
        `groupdn=${slapd.groupsDn}`,
        'token_ttl=1h',
      ],
      { input: `${slapd.reader.password}\n` },
    );
    expect(written).toEqual({ code: 0, stdout: 'Success! Data written to: auth/ldap/config\n', stderr: '' });
    const read = await run(['ldap', 'config', 'read']);
    expect(read.code).toBe(0);
    expect(read.stdout).toMatch(/^Key( +)Value\n---\1-----\n/);
    expect(read.stdout).toMatch(/^starttls +true$/m);
    expect(read.stdout).toMatch(/^userattr +uid$/m);
    expect(read.stdout).toMatch(/^bindpass$/m);
    expect(read.stdout).not.toContain(slapd.reader.password);
    const json = JSON.parse((await run(['ldap', 'config', 'read', '--json'])).stdout);
    expect(json).toMatchObject({ url: slapd.url, starttls: true, bindpass: '', userdn: slapd.peopleDn });
  });

  it('refuses a bad value, an unknown key and a missing token, saying what to try', async () => {
    const bad = await run(['ldap', 'config', 'write', 'starttls=yes']);
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toContain('starttls takes true or false, not "yes".');
    const unknown = await run(['ldap', 'config', 'write', 'colour=blue']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('colour');
    const notPair = await run(['ldap', 'config', 'write', 'url']);
    expect(notPair.stderr).toContain('Argument "url" is not key=value.');
    const anonymous = await run(['ldap', 'config', 'read'], { token: null });
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toMatch(
      /^Error: permission denied\n {2}HTTP 403 from GET http:\/\/127\.0\.0\.1:\d+\/v1\/auth\/ldap\/config\n {2}Try: Check the token: --token or SKED_SECRETS_TOKEN/,
    );
    const viaFlag = await run(['ldap', 'config', 'read', '--token', server.secretsRootToken], {
      token: null,
    });
    expect(viaFlag.code).toBe(0);
  });
});

describe('ldap group and user', () => {
  it('writes, lists, reads and deletes groups and users', async () => {
    expect((await run(['ldap', 'group', 'write', 'admins', 'policies=admin,ops'])).stdout).toBe(
      'Success! Data written to: auth/ldap/groups/admins\n',
    );
    expect((await run(['ldap', 'user', 'write', 'carol', 'policies=audit', 'groups=oncall'])).code).toBe(0);
    expect((await run(['ldap', 'group', 'list'])).stdout).toBe('Keys\n----\nadmins\n');
    expect(JSON.parse((await run(['ldap', 'user', 'list', '--json'])).stdout)).toEqual(['carol']);
    expect((await run(['ldap', 'group', 'read', 'admins'])).stdout).toBe(
      'Key         Value\n---         -----\npolicies    [admin ops]\n',
    );
    expect(JSON.parse((await run(['ldap', 'user', 'read', 'carol', '--json'])).stdout)).toEqual({
      policies: ['audit'],
      groups: 'oncall',
    });
    const wrongKey = await run(['ldap', 'group', 'write', 'admins', 'groups=x']);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain('Unknown key "groups" for a group.');
    expect((await run(['ldap', 'user', 'delete', 'carol'])).stdout).toBe(
      'Success! Data deleted (if it existed) at: auth/ldap/users/carol\n',
    );
    expect(await run(['ldap', 'user', 'read', 'carol'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'No value found at auth/ldap/users/carol\n',
    });
    expect(await run(['ldap', 'user', 'list'])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'No value found at auth/ldap/users\n',
    });
  });
});

describe('login ldap and token lookup', () => {
  it('prints the token, takes the password on stdin, and refuses a wrong one', async () => {
    const login = await run(['login', 'ldap', '-u', 'alice', '--password-stdin'], {
      input: 'alice-pw\n',
      token: null,
    });
    expect(login.code).toBe(0);
    expect(login.stdout).toMatch(/^Success! You are now authenticated\./);
    expect(login.stdout).toMatch(/^token {18}\S+$/m);
    expect(login.stdout).toMatch(/^token_policies {9}\[admin default ops\]$/m);
    expect(login.stdout).toMatch(/^token_duration {9}1h$/m);
    const json = JSON.parse(
      (
        await run(['login', 'ldap', '-u', 'alice', '--password-stdin', '--json'], {
          input: 'alice-pw',
          token: null,
        })
      ).stdout,
    );
    expect(json.client_token).toMatch(/\S{10,}/);
    const lookup = await run(['token', 'lookup'], { token: json.client_token });
    expect(lookup.stdout).toMatch(/^display_name {4}ldap-alice$/m);
    expect(lookup.stdout).toMatch(/^policies {8}\[admin default ops\]$/m);
    const wrong = await run(['login', 'ldap', '-u', 'alice', '--password-stdin'], {
      input: 'nope',
      token: null,
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /^Error: ldap operation failed: failed to bind as user\n {2}HTTP 400 from POST /,
    );
    expect(wrong.stderr).not.toContain('nope');
    const noTerminal = await run(['login', 'ldap', '-u', 'alice'], { token: null });
    expect(noTerminal.code).toBe(1);
    expect(noTerminal.stderr).toContain('No terminal to ask for the password.');
    const noUser = await run(['login', 'ldap', '--password-stdin'], { token: null });
    expect(noUser.code).toBe(1);
    expect(noUser.stderr).toContain("error: required option '-u, --username <name>' not specified");
  });

  it('--save keeps the token in a file only the user can read, and later commands use it', async () => {
    const saved = await run(['login', 'ldap', '-u', 'bob', '--password-stdin', '--save'], {
      input: 'bob-pw',
      token: null,
    });
    expect(saved.code).toBe(0);
    const file = join(home, '.config', 'sked', 'config.json');
    expect(saved.stdout).toContain(`The token is saved in ${file}`);
    expect(saved.stdout).not.toMatch(/^token /m);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, '.config', 'sked'))).mode & 0o777).toBe(0o700);
    const config = JSON.parse(await readFile(file, 'utf8'));
    expect(config.secrets.address).toBe(server.listeners['secrets']);
    expect(saved.stdout).not.toContain(config.secrets.token);
    // No token in the environment: the saved one is used.
    const lookup = await run(['token', 'lookup', '--json'], { token: null });
    expect(JSON.parse(lookup.stdout)).toMatchObject({ display_name: 'ldap-bob', meta: { username: 'bob' } });
  });

  it('asks for the password with a hidden prompt on a terminal', async () => {
    const term = skedOnTerminal(['login', 'ldap', '-u', 'alice'], {
      env: { ...server.env, HOME: await mkdtemp(join(tmpdir(), 'sked-home-')) },
    });
    await term.waitFor('Password (will be hidden):');
    term.write('alice-pw\r');
    expect(await term.exitCode).toBe(0);
    const screen = term.screen();
    expect(screen).toContain('Success! You are now authenticated.');
    expect(screen).toMatch(/^token_meta_username {4}alice$/m);
    expect(screen).not.toContain('alice-pw');
  });
});
