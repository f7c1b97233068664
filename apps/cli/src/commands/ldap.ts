import { nullRecord, parseGoBool } from '@sked/model';
import { ApiError, type LdapConfigRequest } from '@sked/secrets-client';
import { Command } from 'commander';

import { CliError } from '../errors.js';
import { handler, parsePairs } from '../handler.js';
import { readInput, readStdin } from '../job-file.js';
import { toJson } from '../output.js';
import { secretsContext, secretsErrors, type SecretsContext } from '../secrets-context.js';

const BOOLEAN_KEYS = new Set([
  'case_sensitive_names',
  'starttls',
  'insecure_tls',
  'discoverdn',
  'deny_null_bind',
  'anonymous_group_search',
  'username_as_alias',
  'token_no_default_policy',
]);
const INTEGER_KEYS = new Set(['token_num_uses']);
const DURATION_KEYS = new Set([
  'request_timeout',
  'token_ttl',
  'token_max_ttl',
  'token_explicit_max_ttl',
  'token_period',
]);

/**
 * `key=value` arguments as the secrets service's CLI reads them: `key=@file` reads a file,
 * `key=-` reads stdin (so a secret such as `bindpass` stays off the command line).
 */
async function readPairs(pairs: readonly string[]): Promise<Record<string, string>> {
  const raw = parsePairs(pairs, 'Argument');
  let stdinUsed = false;
  for (const [key, value] of Object.entries(raw)) {
    if (value === '-') {
      if (stdinUsed) throw new CliError('Only one value can come from stdin (key=-).');
      stdinUsed = true;
      raw[key] = (await readStdin(`value of ${key}`)).replace(/\r?\n$/, '');
    } else if (value.startsWith('@')) raw[key] = await readInput(value.slice(1), `file for ${key}`);
  }
  return raw;
}

/** Typed configuration values from text: booleans, integers, and seconds or duration strings. */
export function configValues(
  pairs: Readonly<Record<string, string>>,
): Record<string, string | number | boolean> {
  const out = nullRecord<string | number | boolean>();
  for (const [key, value] of Object.entries(pairs)) {
    if (BOOLEAN_KEYS.has(key)) {
      const parsed = parseGoBool(value);
      if (parsed === undefined) throw new CliError(`${key} takes true or false, not "${value}".`);
      out[key] = parsed;
    } else if (INTEGER_KEYS.has(key)) {
      if (!/^\d{1,15}$/.test(value))
        throw new CliError(`${key} takes a non-negative integer, not "${value}".`);
      out[key] = Number(value);
    } else if (DURATION_KEYS.has(key) && /^\d{1,15}$/.test(value)) out[key] = Number(value);
    else out[key] = value;
  }
  return out;
}

function valueText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.join(' ')}]`;
  if (value === null || value === undefined) return 'n/a';
  return typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean);
}

/** The `Key Value` table of the secrets service's CLI. */
export function kvTable(data: Readonly<Record<string, unknown>>): string {
  const keys = Object.keys(data).sort();
  const width = Math.max(3, ...keys.map((k) => k.length));
  return [
    `${'Key'.padEnd(width)}    Value`,
    `${'---'.padEnd(width)}    -----`,
    ...keys.map((k) => `${k.padEnd(width)}    ${valueText(data[k])}`.trimEnd()),
  ].join('\n');
}

async function configRead(command: Command): Promise<void> {
  const ctx = await secretsContext(command);
  const { data: config } = await ctx.client.ldap.config.read();
  ctx.output.out(ctx.output.json ? toJson(config) : kvTable(config));
}

async function configWrite(command: Command): Promise<void> {
  const ctx = await secretsContext(command);
  const [pairs] = command.processedArgs as [string[]];
  const values = configValues(await readPairs(pairs));
  await ctx.client.ldap.config.write(values as LdapConfigRequest);
  ctx.output.out(ctx.output.json ? '{}' : `Success! Data written to: auth/${ctx.mount}/config`);
}

type Kind = 'groups' | 'users';
const FIELDS: Record<Kind, readonly string[]> = { groups: ['policies'], users: ['policies', 'groups'] };

async function list(ctx: SecretsContext, kind: Kind): Promise<void> {
  const { data: names } = await ctx.client.ldap[kind].list();
  if (ctx.output.json) return ctx.output.out(toJson(names));
  if (names.length === 0) return ctx.output.err(`No value found at auth/${ctx.mount}/${kind}`);
  ctx.output.out(['Keys', '----', ...names].join('\n'));
}

async function read(ctx: SecretsContext, kind: Kind, name: string): Promise<number> {
  let record;
  try {
    ({ data: record } = await ctx.client.ldap[kind].read(name));
  } catch (error) {
    if (!ApiError.is(error) || error.status !== 404) throw error;
    ctx.output.err(`No value found at auth/${ctx.mount}/${kind}/${name}`);
    return 2;
  }
  ctx.output.out(ctx.output.json ? toJson(record) : kvTable(record));
  return 0;
}

async function write(ctx: SecretsContext, kind: Kind, name: string, pairs: readonly string[]): Promise<void> {
  const values = await readPairs(pairs);
  for (const key of Object.keys(values))
    if (!FIELDS[kind].includes(key))
      throw new CliError(`Unknown key "${key}" for ${kind === 'groups' ? 'a group' : 'a user'}.`, {
        hint: `Write ${FIELDS[kind].map((f) => `${f}=a,b`).join(' ')}.`,
      });
  await ctx.client.ldap[kind].write(name, values);
  ctx.output.out(ctx.output.json ? '{}' : `Success! Data written to: auth/${ctx.mount}/${kind}/${name}`);
}

async function remove(ctx: SecretsContext, kind: Kind, name: string): Promise<void> {
  await ctx.client.ldap[kind].delete(name);
  ctx.output.out(
    ctx.output.json ? '{}' : `Success! Data deleted (if it existed) at: auth/${ctx.mount}/${kind}/${name}`,
  );
}

function recordCommand(kind: Kind): Command {
  const one = kind === 'groups' ? 'group' : 'user';
  const example = kind === 'groups' ? 'devs policies=dev,shared' : 'alice policies=audit groups=oncall';
  const on = (work: (ctx: SecretsContext, args: unknown[]) => Promise<number | void>) =>
    handler(async (command) => work(await secretsContext(command), command.processedArgs), secretsErrors);
  return new Command(one)
    .description(`LDAP ${kind} mapped to policies: list, read, write, delete`)
    .addCommand(
      new Command('list')
        .description(`List the ${kind}`)
        .addHelpText('after', `\nExample:\n  $ sked ldap ${one} list`)
        .action(on((ctx) => list(ctx, kind))),
    )
    .addCommand(
      new Command('read')
        .description(`Show a ${one}'s policies (exit 2 when there is none)`)
        .argument('<name>', `${one} name`)
        .addHelpText('after', `\nExample:\n  $ sked ldap ${one} read ${example.split(' ')[0]}`)
        .action(on((ctx, [name]) => read(ctx, kind, name as string))),
    )
    .addCommand(
      new Command('write')
        .description(`Create or replace a ${one}: ${FIELDS[kind].map((f) => `${f}=a,b`).join(' ')}`)
        .argument('<name>', `${one} name`)
        .argument('[pairs...]', 'key=value (key=@file reads a file, key=- reads stdin)')
        .addHelpText('after', `\nExample:\n  $ sked ldap ${one} write ${example}`)
        .action(on((ctx, [name, pairs]) => write(ctx, kind, name as string, pairs as string[]))),
    )
    .addCommand(
      new Command('delete')
        .description(`Delete a ${one}`)
        .argument('<name>', `${one} name`)
        .addHelpText('after', `\nExample:\n  $ sked ldap ${one} delete ${example.split(' ')[0]}`)
        .action(on((ctx, [name]) => remove(ctx, kind, name as string))),
    );
}

/** The `ldap` command: config, group, user. */
export function ldapCommand(): Command {
  return new Command('ldap')
    .description('The LDAP auth method of the secrets service: config, groups, users')
    .option('--mount <path>', 'mount of the LDAP method under auth/', 'ldap')
    .addCommand(
      new Command('config')
        .description('The directory connection of the method')
        .addCommand(
          new Command('read')
            .description('Show the configuration (bindpass is never shown)')
            .addHelpText('after', '\nExample:\n  $ sked ldap config read')
            .action(handler(configRead, secretsErrors)),
        )
        .addCommand(
          new Command('write')
            .description('Change configuration parameters (others keep their value)')
            .argument('<pairs...>', 'key=value (key=@file reads a file, key=- reads stdin)')
            .addHelpText(
              'after',
              '\nExample:\n  $ sked ldap config write url=ldap://127.0.0.1:389 userdn=ou=people,dc=example,dc=org userattr=uid\n  $ sked ldap config write starttls=true certificate=@ca.pem bindpass=- < bindpass.txt',
            )
            .action(handler(configWrite, secretsErrors)),
        ),
    )
    .addCommand(recordCommand('groups'))
    .addCommand(recordCommand('users'));
}
