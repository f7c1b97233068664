import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCli, USAGE } from './cli.js';

describe('parseCli', () => {
  it('runs with defaults when given nothing', () => {
    expect(parseCli([])).toEqual({ kind: 'run', options: {} });
  });

  it('reads every flag', () => {
    const command = parseCli([
      '--bind',
      '0.0.0.0',
      '--scheduler-port',
      '0',
      '--region',
      'eu',
      '--nodes',
      '5',
      '--datacenter',
      'dc2',
      '--acl',
      '--acl-tokens',
      'tokens.json',
      '--demo',
      '--max-body',
      '2MiB',
      '--enable-raw-exec',
      '--heartbeat-ms',
      '500',
      '--mesh-port',
      '0',
    ]);
    expect(command).toEqual({
      kind: 'run',
      options: {
        bind: '0.0.0.0',
        schedulerPort: 0,
        region: 'eu',
        nodes: 5,
        datacenter: 'dc2',
        acl: true,
        aclTokens: 'tokens.json',
        demo: true,
        maxBody: 2 * 1024 * 1024,
        enableRawExec: true,
        heartbeatMs: 500,
        meshPort: 0,
      },
    });
  });

  it('reads --advertise as a member address (its origin)', () => {
    expect(parseCli(['--advertise', 'http://10.0.0.5:4646/'])).toEqual({
      kind: 'run',
      options: { advertise: 'http://10.0.0.5:4646' },
    });
  });

  it('reads --join as a list of member addresses (their origins)', () => {
    expect(parseCli(['--join', 'http://127.0.0.1:4646/', '--join', 'http://[::1]:5000'])).toEqual({
      kind: 'run',
      options: { join: ['http://127.0.0.1:4646', 'http://[::1]:5000'] },
    });
  });

  it.each([['--help'], ['-h']])('%s asks for help', (flag) => {
    expect(parseCli([flag])).toEqual({ kind: 'help' });
  });

  it.each([
    [['--nope'], /Unknown option '--nope'/],
    [['--scheduler-port', 'abc'], /--scheduler-port expects an integer, not "abc"/],
    [['--scheduler-port', '70000'], /--scheduler-port must be between 0 and 65535, not 70000/],
    [['--nodes=-1'], /--nodes expects an integer/],
    [['--max-body', 'lots'], /--max-body expects a size/],
    [['--acl-tokens', 'f.json'], /--acl-tokens requires --acl/],
    [['--region', 'a b'], /--region expects a name/],
    [
      ['--region', '..'],
      /--region expects a name of 1-128 letters, digits, "-", "_" or "." \(not "." or ".."\), not "\.\."/,
    ],
    [
      ['--join', 'localhost:4646'],
      /^--join expects the scheduling address of another sked-server, such as http:\/\/127.0.0.1:4646, not "localhost:4646"$/,
    ],
    [['--join', 'http://127.0.0.1:4646/v1/jobs'], /--join expects the scheduling address/],
    [
      ['--advertise', '10.0.0.5:4646'],
      /^--advertise expects the scheduling address the other members reach this sked-server at, such as http:\/\/127.0.0.1:4646, not "10.0.0.5:4646"$/,
    ],
    [['--advertise', 'ftp://10.0.0.5:4646'], /--advertise expects/],
    [['extra'], /Unexpected argument 'extra'/],
    [['--bind'], /--bind <value>' argument missing/],
    [['--mesh-port', '-1'], /--mesh-port/],
    [['--mesh-port', '65536'], /--mesh-port must be between 0 and 65535, not 65536/],
  ])('%j is an error', (argv, message) => {
    const command = parseCli(argv);
    expect(command).toEqual({ kind: 'error', message: expect.stringMatching(message) });
  });
});

describe('--max-body', () => {
  it.each([
    ['1024', 1024],
    ['512KiB', 512 * 1024],
    ['512k', 512_000],
    ['10m', 10_000_000],
    ['10MB', 10_000_000],
    ['10MiB', 10 * 1024 * 1024],
    ['1g', 1e9],
  ])('reads %s as the service reads sizes: %d bytes', (text, bytes) => {
    expect(parseCli(['--max-body', text])).toEqual({ kind: 'run', options: { maxBody: bytes } });
  });

  it.each([
    ['0', 'is zero'],
    ['-5', 'is not a size'],
    ['abc', 'is not a size'],
    ['1.5B', 'is not a whole number of bytes'],
    ['10 furlongs', 'has an unknown unit "furlongs"'],
  ])('refuses %s: %s', (text, why) => {
    expect(parseCli([`--max-body=${text}`])).toEqual({
      kind: 'error',
      message: expect.stringContaining(`${JSON.stringify(text)} ${why}`),
    });
  });
});

describe('parseCli: secrets flags', () => {
  it('reads --secrets-port, --secrets-root-token and --ldap-mount', () => {
    expect(
      parseCli(['--secrets-port', '0', '--secrets-root-token', 'tok', '--ldap-mount', 'corp'], {}),
    ).toEqual({
      kind: 'run',
      options: { secretsPort: 0, secretsRootToken: 'tok', ldapMount: 'corp' },
    });
  });

  it('takes the root token from SKED_SECRETS_ROOT_TOKEN; the flag wins', () => {
    expect(parseCli([], { SKED_SECRETS_ROOT_TOKEN: 'env-tok' })).toEqual({
      kind: 'run',
      options: { secretsRootToken: 'env-tok' },
    });
    expect(parseCli(['--secrets-root-token', 'flag'], { SKED_SECRETS_ROOT_TOKEN: 'env' })).toMatchObject({
      options: { secretsRootToken: 'flag' },
    });
  });

  it.each([
    [['--secrets-port=-1'], /--secrets-port expects an integer/],
    [['--secrets-port', '99999'], /--secrets-port must be between 0 and 65535/],
    [['--secrets-root-token', ''], /--secrets-root-token expects a token, not an empty string/],
    [['--secrets-root-token', 'a b'], /without spaces/],
    [['--ldap-mount', '../x'], /--ldap-mount expects a path/],
    [['--ldap-mount', 'token'], /auth\/token is the token store/],
  ])('%j is an error', (argv, message) => {
    expect(parseCli(argv, {})).toEqual({ kind: 'error', message: expect.stringMatching(message) });
  });
});

describe('parseCli: the root token outside the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sked-cli-token-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string | Buffer): string => {
    const path = join(dir, name);
    writeFileSync(path, text, { mode: 0o600 });
    return path;
  };

  it('reads --secrets-root-token-file (first line, newline dropped); it wins over the environment', () => {
    const path = file('token', 'file-tok\n');
    expect(parseCli(['--secrets-root-token-file', path], { SKED_SECRETS_ROOT_TOKEN: 'env' })).toEqual({
      kind: 'run',
      options: { secretsRootToken: 'file-tok' },
    });
  });

  it.each([
    [
      'a missing file',
      () => join(dir, 'absent'),
      /--secrets-root-token-file cannot read ".*absent" \(ENOENT\)/,
    ],
    ['an empty file', () => file('empty', '\n'), /holds no token/],
    ['a file over 4 KiB', () => file('big', Buffer.alloc(5000, 'a')), /is larger than 4096 bytes/],
    ['a directory', () => dir, /is not a file/],
    [
      'a token with a space',
      () => file('space', 'a b\n'),
      /--secrets-root-token-file expects a token without spaces/,
    ],
  ])('refuses %s with a message naming the flag', (_name, path, message) => {
    expect(parseCli(['--secrets-root-token-file', path()], {})).toEqual({
      kind: 'error',
      message: expect.stringMatching(message),
    });
  });

  it('refuses the flag and the file together, and names the environment variable when it is the bad one', () => {
    const path = file('both', 'x\n');
    expect(parseCli(['--secrets-root-token', 'x', '--secrets-root-token-file', path], {})).toEqual({
      kind: 'error',
      message: '--secrets-root-token and --secrets-root-token-file cannot be used together',
    });
    expect(parseCli([], { SKED_SECRETS_ROOT_TOKEN: 'a b' })).toEqual({
      kind: 'error',
      message: 'SKED_SECRETS_ROOT_TOKEN expects a token without spaces or control characters',
    });
  });

  it('the help says why the flag is the last choice', () => {
    expect(USAGE).toContain('--secrets-root-token-file FILE');
    expect(USAGE).toMatch(
      /Prefer SKED_SECRETS_ROOT_TOKEN or\s+--secrets-root-token-file: a command-line argument is readable by\s+every local user \(ps, \/proc\/PID\/cmdline\)/,
    );
  });
});

describe('parseCli: local-only and exec sandbox flags', () => {
  it('reads --allowed-host (repeatable) and --no-exec-sandbox', () => {
    expect(
      parseCli(['--allowed-host', 'sked.internal', '--allowed-host', '[fd00::1]', '--no-exec-sandbox']),
    ).toEqual({
      kind: 'run',
      options: { allowedHosts: ['sked.internal', '[fd00::1]'], execSandbox: false },
    });
  });

  it('refuses an --allowed-host that is not a host name', () => {
    expect(parseCli(['--allowed-host', 'http://x/'])).toEqual({
      kind: 'error',
      message: '--allowed-host expects a host name or address, not "http://x/"',
    });
  });
});
