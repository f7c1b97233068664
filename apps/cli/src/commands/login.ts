import type { LdapAuth } from '@sked/secrets-client';
import { Command } from 'commander';

import { CliError } from '../errors.js';
import { handler } from '../handler.js';
import { readStdin } from '../job-file.js';
import { toJson } from '../output.js';
import { kvTable } from './ldap.js';
import { secretsContext, secretsErrors } from '../secrets-context.js';
import { readUserConfig, userConfigPath, writeUserConfig } from '../user-config.js';

/** Seconds as the secrets service's CLI prints durations: `768h`, `1h30m`, `45s`. */
export function duration(seconds: number): string {
  if (seconds <= 0) return '∞';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s || (!h && !m) ? `${s}s` : ''}`;
}

async function readPassword(fromStdin: boolean): Promise<string> {
  if (fromStdin) {
    const value = (await readStdin('password')).replace(/\r?\n$/, '');
    if (value === '')
      throw new CliError('No password on stdin.', {
        hint: 'Pipe it in: printf %s "$PASS" | sked login ldap -u NAME --password-stdin',
      });
    return value;
  }
  if (process.stdin.isTTY !== true)
    throw new CliError('No terminal to ask for the password.', {
      hint: 'Give it on stdin with --password-stdin.',
    });
  const { default: password } = await import('@inquirer/password');
  try {
    return await password({ message: 'Password (will be hidden):', mask: false }, { output: process.stderr });
  } catch (error) {
    if ((error as Error).name === 'ExitPromptError') throw new CliError('Cancelled.', { exitCode: 130 });
    throw error;
  }
}

function authTable(auth: LdapAuth, withToken: boolean): string {
  const rows: [string, unknown][] = [];
  if (withToken) rows.push(['token', auth.client_token]);
  rows.push(
    ['token_duration', duration(auth.lease_duration)],
    ['token_renewable', auth.renewable],
    ['token_policies', `[${auth.policies.join(' ')}]`],
    ['token_meta_username', auth.metadata.username],
  );
  const width = Math.max(...rows.map(([k]) => k.length), 3);
  return [
    `${'Key'.padEnd(width)}    Value`,
    `${'---'.padEnd(width)}    -----`,
    ...rows.map(([k, v]) => `${k.padEnd(width)}    ${String(v)}`),
  ].join('\n');
}

async function loginLdap(command: Command): Promise<void> {
  const opts = command.opts<{ username: string; passwordStdin?: boolean; save?: boolean }>();
  const ctx = await secretsContext(command, { token: false });
  const secret = await readPassword(opts.passwordStdin === true);
  const { data: auth } = await ctx.client.ldap.login(opts.username, secret);
  if (opts.save) {
    const path = userConfigPath();
    const config = await readUserConfig(path);
    await writeUserConfig({ ...config, secrets: { address: ctx.address, token: auth.client_token } }, path);
  }
  if (ctx.output.json) {
    ctx.output.out(toJson(opts.save ? { ...auth, client_token: undefined } : auth));
    return;
  }
  const saved = opts.save
    ? `The token is saved in ${userConfigPath()} (readable by you only); sked uses it for the secrets service.`
    : 'The token is below; keep it secret. With --save, sked keeps it for you instead.';
  ctx.output.out(`Success! You are now authenticated. ${saved}\n\n${authTable(auth, !opts.save)}`);
}

async function lookup(command: Command): Promise<void> {
  const ctx = await secretsContext(command);
  const { data } = await ctx.client.token.lookupSelf();
  if (ctx.output.json) return ctx.output.out(toJson(data));
  ctx.output.out(
    kvTable({
      display_name: data.display_name,
      path: data.path,
      policies: data.policies,
      meta: Object.entries(data.meta ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join(' '),
      ttl: duration(data.ttl),
      expire_time: data.expire_time,
      renewable: data.renewable,
    }),
  );
}

/** `login ldap` and `token lookup`. */
export function loginCommands(): Command[] {
  const login = new Command('login')
    .description('Log in to the secrets service')
    .addCommand(
      new Command('ldap')
        .description('Log in with the LDAP auth method: prints the token, or keeps it with --save')
        .requiredOption('-u, --username <name>', 'directory user name')
        .option('--password-stdin', 'read the password from stdin instead of a hidden prompt')
        .option('--save', 'keep the token in the user config file (mode 0600) instead of printing it')
        .option('--mount <path>', 'mount of the LDAP method under auth/', 'ldap')
        .addHelpText(
          'after',
          '\nExample:\n  $ sked login ldap -u alice --save\n  $ printf %s "$PASS" | sked login ldap -u alice --password-stdin --json',
        )
        .action(handler(loginLdap, secretsErrors)),
    );
  const token = new Command('token')
    .description('Secrets service tokens')
    .addCommand(
      new Command('lookup')
        .description('Show the token in use: policies, time to live, user')
        .addHelpText('after', '\nExample:\n  $ sked token lookup')
        .action(handler(lookup, secretsErrors)),
    );
  return [login, token];
}
